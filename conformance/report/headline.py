"""The report's headline: the run's status in words, what fails it and where, in the first lines of the page.

A reader opening the page asks first: did the run fail, how many checks failed that no known difference explains,
on which backend, and what is new since the last run. The headline answers from the same tallies as the overview,
and links each count to the filter that shows exactly those checks (``#col=<column>&v=failing``: the page's own
filters, so the matrix and the details then hold those checks and nothing else).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from conformance.report.tally import Tally


def failing_filter(column: str | None = None) -> str:
    """The page's address fragment (without "#") that shows the failing checks, of one column or of all."""
    return urlencode({"col": column, "v": "failing"} if column else {"v": "failing"})


def headline(tallies: dict[str, Tally], *, complete: bool, collection_errors: int,
             changes: dict[str, Any] | None, failed_items: int = 0) -> dict[str, Any]:
    """The headline's data: ``status`` ("failed" or "passed"), ``words`` (the status as a sentence), ``failing``
    (the unexpected failures, in all), ``columns`` (per column with any: its count and the filter showing them),
    ``new`` (failures new since the compared run, or None without a comparison), ``incomplete``,
    ``collection_errors`` and ``failed_items`` (test items that failed with no check recorded: a crashed worker):
    all three also fail a run, which did not test what it claims."""
    columns = [{"column": col, "failing": t.failing, "href": failing_filter(col)}
               for col, t in tallies.items() if t.failing]
    failing = sum(c["failing"] for c in columns)
    applicable = sum(t.applicable for t in tallies.values())
    known = sum(t.known for t in tallies.values())
    new = None
    if changes is not None and not changes.get("problem"):
        new = {"count": changes["counts"]["new_failures"], "since": changes["since"].get("started")}
    problems = []
    if failing:
        backends = {c["column"].split("@")[0] for c in columns}
        where = (f"on {len(columns)} backend{'s' if len(columns) != 1 else ''}" if len(backends) == len(columns)
                 else f"in {len(columns)} columns (backend@version)")
        problems.append(f"{failing:,} unexpected failure{'s' if failing != 1 else ''} {where}")
    if collection_errors:
        problems.append(f"{collection_errors} collection error{'s' if collection_errors != 1 else ''}")
    if failed_items:
        problems.append(f"{failed_items} test item{'s' if failed_items != 1 else ''} failed with no check recorded")
    if not complete:
        problems.append("the run did not finish")
    if problems:
        words = "Failed: " + ", ".join(problems) + "."
    elif applicable:
        words = (f"Passed: every one of the {applicable:,} applicable checks passed"
                 + (f" or is a known difference ({known:,})" if known else "") + ".")
    else:
        words = "Passed, but no check applied: nothing was tested."
    return {"status": "failed" if problems else "passed", "words": words, "failing": failing, "columns": columns,
            "all_href": failing_filter(), "new": new, "incomplete": not complete,
            "collection_errors": collection_errors, "failed_items": failed_items}
