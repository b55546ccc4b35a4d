"""What changed between two runs: checks matched by key (case id and check part, the same in results files of
format /1 and /2) and column whose verdict differs, counted by kind and listed one row per case, column and
change of verdict. A new failure is a failing verdict where there was none: a check that passed, was a known
difference or not applicable, and a check added since that fails. A run of part of the suite (`run.part`) is
compared on what it ran: a check of the earlier run that it did not select is outside it, counted apart, never
"removed"."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from conformance.report.tally import letter
from conformance.report.text import anchor, paths_and_dtypes
from conformance.report.views import Codes, run_view
from conformance.results.files import as_results
from conformance.results.record import CheckRecord, Results
from conformance.verdicts import PASS, PYTEST_OUTCOME

CHANGE_ROWS = 400  # per kind of change; the counts above the lists always cover every check
CHANGE_KINDS = ("new_failures", "fixes", "changed", "added", "removed")
Change = tuple[str, str, CheckRecord, str | None, str | None]


def failing(verdict: str | None) -> bool:
    """A verdict that fails the run (an unknown one too: it ranks worst)."""
    return verdict is not None and PYTEST_OUTCOME.get(verdict, "failed") == "failed"


def outside(results: Results, compare: Results) -> int:
    """How many checks of `compare` a run of part of the suite did not run (0 for a whole run: they are removed)."""
    if not results.run.part:
        return 0
    new = {(c.key, c.column) for c in results.checks}
    return sum((c.key, c.column) not in new for c in compare.checks)


def changed(results: Results, compare: Results) -> Iterable[Change]:
    """(kind, column, check, verdict before, verdict now) of every check, matched by key and column, whose
    verdict differs between `compare` (before) and `results` (now); of a run of part of the suite, only the checks
    it ran."""
    new = {(c.key, c.column): c for c in results.checks}
    old = {(c.key, c.column): c for c in compare.checks}
    gone = [] if results.run.part else [k for k in old if k not in new]
    for key in [*new, *gone]:
        before, after = old.get(key), new.get(key)
        was = before.verdict if before else None
        now = after.verdict if after else None
        if was != now:
            # a failure where there was none is new, also in a check added since (a new case that fails)
            kind = ("new_failures" if failing(now) and not failing(was) else "added" if before is None else
                    "removed" if after is None else "fixes" if now == PASS else "changed")
            check = after or before
            assert check is not None  # the key comes from one of them
            yield kind, key[1], check, was, now


def change_counts(results: Results | Mapping[str, Any], compare: Results | Mapping[str, Any]) -> dict[str, int]:
    """How many checks changed, by kind of change (`results` and `compare` as Results or their JSON)."""
    counts = Counter(kind for kind, *_ in changed(as_results(results), as_results(compare)))
    return {kind: counts[kind] for kind in CHANGE_KINDS}


def changes_view(results: Results, compare: Results, cases: dict[str, dict[str, Any]], anchors: set[str],
                 codes: Codes) -> dict[str, Any]:
    """What changed since `compare`, one row per case, column and change of verdict: that keeps a mass change
    (a new known difference on hundreds of checks) a readable list."""
    grouped: dict[str, dict[tuple[str, str, str | None, str | None], list[CheckRecord]]] = {
        k: defaultdict(list) for k in CHANGE_KINDS}
    for kind, col, check, was, now in changed(results, compare):
        grouped[kind][(check.case, col, was, now)].append(check)
    per_column: dict[str, Counter[str]] = defaultdict(Counter)
    lists: dict[str, list[dict[str, Any]]] = {}

    def order(row: tuple[str, str, str | None, str | None]) -> tuple[Any, ...]:
        case = cases.get(row[0])  # in matrix order; a case no longer described last
        return (case is None, str(case["file"]) if case else "", (case["line"] or 0) if case else 0, row[0], row[1])

    for kind, rows in grouped.items():
        lists[kind] = []
        for (case_id, col, was, now) in sorted(rows, key=order):
            checks = rows[(case_id, col, was, now)]
            per_column[col][kind] += len(checks)
            cell, case = anchor("c", case_id, col), cases.get(case_id)
            lists[kind].append({
                "case": case_id, "column": col, "old": was, "new": now, "old_letter": letter(was),
                "new_letter": letter(now), "n": len(checks), "codes": codes.of(checks),
                "op": case["op"] if case else "", "mode": case["mode"] if case else "",
                "search": case["search"] if case else case_id,
                "group": case["group"] if case else "", "suite_codes": case["suite_codes"] if case else "",
                "anchor": cell if cell in anchors else anchor("r", case_id) if case else None,
                "which": paths_and_dtypes(checks)})
    return {"since": run_view(compare.run), "problem": None, "limit": CHANGE_ROWS, "outside": outside(results, compare),
            "counts": {k: sum(e["n"] for e in lists[k]) for k in CHANGE_KINDS}, **lists,
            "per_column": [{"column": col, **{k: per_column[col][k] for k in CHANGE_KINDS}}
                           for col in sorted(per_column)]}
