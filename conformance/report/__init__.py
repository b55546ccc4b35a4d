"""The HTML report: one self-contained page rendered from results (conformance.results.record.Results).

This module loads results files and assembles the page's context; the overview's columns and tallies are in
report.overview, the views of a run, a case and known differences in report.views, the matrix and the details
of its cells (the page's data, which its script draws) in report.matrix, what changed since an earlier run in
report.changes, the benchmark section in report.bench, verdicts are ranked and counted in report.tally, and values
written as text in report.text. Python only prepares plain data (tallies, rows, anchors, formatted shapes, filter
codes); every piece of markup is in templates/, rendered with autoescape on, or drawn by the page's script from its
data as text. Everything taken from a results file (case ids, descriptions, messages, links) is untrusted text and
is never marked safe: the data is JSON in which no "<" is left (matrix.dumps).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jinja2

from conformance.report import bench as report_bench
from conformance.report.changes import change_counts, changes_view
from conformance.report.headline import headline
from conformance.report.matrix import QUIET, dumps, page_data
from conformance.report.overview import (
    GROUPS,
    MODES,
    backends_by_column,
    breakdown,
    by_path_axis,
    columns_of,
    origins,
    rejections_by_column,
    tally_by_column,
)
from conformance.report.tally import Tally, letter
from conformance.report.text import anchor, dtype_order
from conformance.report.views import Codes, axis_key, case_view, known_entries, run_view
from conformance.results import files as results_file
from conformance.results.files import as_results, write_atomic
from conformance.results.record import Results
from conformance.verdicts import FAILING, PASS, SKIPPED, VERDICTS

__all__ = ["Tally", "Unusable", "anchor", "change_counts", "letter", "load", "load_bench", "render", "report_text",
           "tally_by_column", "write_report"]

_ENV = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
                          autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
                          lstrip_blocks=True)


class Unusable(Exception):
    """A results file that cannot be used; the message names the file and the problem."""


def load(path: Path) -> Results:
    """A results file (of format /2, or /1 read into the same records), or Unusable saying in a line what is
    wrong with it."""
    try:
        return results_file.load(path)
    except FileNotFoundError:
        problem = "no such file"
    except (OSError, UnicodeDecodeError) as e:
        problem = f"cannot read it: {e}"
    except json.JSONDecodeError as e:
        problem = f"not a results file: {e}"
    except RecursionError:  # arrays or objects nested thousands deep: json (and anything after it) gives up
        problem = "not a results file: nested too deeply to read"
    except ValueError as e:  # a wrong "format", or a document without its run or checks
        problem = str(e) if str(e).startswith("malformed") else f"not a results file: {e}"
    except (TypeError, AttributeError) as e:  # the right format, but a record of the wrong shape
        problem = f"malformed results: {e}"
    raise Unusable(f"{path}: {problem}")


def load_bench(path: Path) -> dict[str, Any]:
    """A bench file (bench/broadcast_bench.py), or Unusable saying in a line what is wrong with it."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        report_bench.results_of(data)
    except FileNotFoundError:
        problem = "no such file"
    except (OSError, UnicodeDecodeError) as e:
        problem = f"cannot read it: {e}"
    except ValueError as e:  # json.JSONDecodeError is one
        problem = str(e) if not isinstance(e, json.JSONDecodeError) else f"not a bench file: {e}"
    else:
        return data
    raise Unusable(f"{path}: {problem}")


def _bench_source(path: Path) -> str:
    written = dt.datetime.fromtimestamp(Path(path).stat().st_mtime, dt.timezone.utc)
    return f"{path} (written {written:%Y-%m-%d %H:%M} UTC)"


def _bench_view(bench: dict[str, Any] | None, source: str | None, problem: str | None
                ) -> tuple[dict[str, Any] | None, str | None]:
    if bench is None:
        return None, problem
    try:
        return report_bench.view(bench, source), None
    except ValueError as e:
        return None, f"{source or 'the bench results'}: {e}"


def _ordered(names: set[str], order: tuple[str, ...]) -> list[str]:
    return sorted(names, key=lambda n: (order.index(n) if n in order else len(order), n))


def _context(results: Results, compare: Results | None, compare_problem: str | None,
             bench: dict[str, Any] | None, bench_problem: str | None) -> dict[str, Any]:
    checks = results.checks
    cases = {cid: case_view(cid, record) for cid, record in results.cases.items()}
    for c in checks:  # a check of a case the file does not describe still gets a row
        if c.case not in cases:
            cases[c.case] = case_view(c.case, None)
    # The suite filter's codes: a case lists its suites as indexes into the list the filter bar declares.
    suites = sorted({s for case in cases.values() for s in case["suites"]})
    suite_index = {s: str(i) for i, s in enumerate(suites)}
    for case in cases.values():
        case["suite_codes"] = " ".join(suite_index[s] for s in case["suites"])
    backends = backends_by_column(results)
    columns = columns_of(backends, checks)
    codes = Codes([*checks, *(compare.checks if compare is not None else [])])
    known = known_entries(checks)
    in_order = sorted(cases.values(), key=lambda c: (str(c["file"]), c["line"] or 0, c["id"]))
    data = page_data(in_order, columns, checks, codes, known, sorted({str(c["file"]) for c in in_order}))
    tallies = tally_by_column(results)
    rejections = rejections_by_column(results)
    # The cells with details: a check in them is neither a pass nor a skip.
    anchors = {anchor("c", c.case, c.column) for c in checks if c.verdict not in (PASS, SKIPPED)}
    changes = None
    if compare is not None and compare.run.started and compare.run == results.run:
        # pytest conformance --compare reports/results.json: the run overwrote that file before the report
        changes = {"problem": "the earlier results are this run's own: the file compared with was overwritten by "
                              "this run (--compare names the --results file?); compare with a copy of it"}
    elif compare is not None:
        changes = changes_view(results, compare, cases, anchors, codes)
    elif compare_problem:
        changes = {"problem": compare_problem}
    dtypes = {str(c.dtype) for c in checks if c.dtype}
    return {
        "headline": headline(tallies, complete=bool(results.run.complete),
                             collection_errors=len(results.collection_errors), changes=changes,
                             failed_items=len(results.failed_items)),
        "run": run_view(results.run),
        "runs": [run_view(r) for r in results.runs],
        "collection_errors": [{"where": ":".join(str(e[k]) for k in ("file", "line") if e.get(k) is not None),
                               "message": e.get("message")} for e in results.collection_errors],
        "failed_items": [{"item": f.get("item"), "when": f.get("when"), "message": f.get("message")}
                         for f in results.failed_items],
        "unmatched_known": [{"backend": u.get("backend"), "entry": json.dumps(u.get("entry"), sort_keys=True)}
                            for u in results.unmatched_known],
        "known_on_other_paths": results.known_on_other_paths,
        "legend": [{"verdict": v, "letter": short, "meaning": m} for v, (short, m) in VERDICTS.items()],
        "verdicts": [{"name": v, "letter": letter(v)} for v in VERDICTS] +
                    [{"name": v, "letter": "?"} for v in codes.verdicts if v not in VERDICTS],
        "codes": codes.page(checks),
        "failing": sorted(FAILING),
        "quiet": sorted(QUIET),
        "columns": [{"name": col, "anchor": anchor("col", col), "tally": tallies[col],
                     "rejections": rejections.get(col),
                     **backends.get(col, {"backend": col.split("@")[0], "version": None, "available": None,
                                          "reason": None, "hardware": [], "targets": None})} for col in columns],
        "ops": sorted({c["op"] for c in cases.values()}, key=lambda o: (o != "Broadcast", o)),
        "modes": _ordered({c["mode"] for c in cases.values()}, MODES),
        "groups": _ordered({c["group"] for c in cases.values()}, GROUPS),
        "suites": suites,
        "suite_choices": [(repo, [(s, s.partition(" ")[2]) for s in suites if s.split(" ", 1)[0] == repo])
                          for repo in dict.fromkeys(s.split(" ", 1)[0] for s in suites)],
        "breakdowns": [
            *([{"key": "op", "title": "By op",
                "rows": breakdown(checks, lambda c: (cases[c.case]["op"],), ("Broadcast",), columns)}]
              if len({c["op"] for c in cases.values()}) > 1 else []),
            {"key": "mode", "title": "By mode",
             "rows": breakdown(checks, lambda c: (cases[c.case]["mode"],), MODES, columns)},
            {"key": "group", "title": "By origin: case group, and upstream suite",
             "rows": origins(checks, cases, columns)},
            {"key": "dtype", "title": "By element type",
             "rows": breakdown([c for c in checks if c.dtype], lambda c: (str(c.dtype),),
                               sorted(dtypes, key=dtype_order), columns)}],
        "by_path_axis": [{**group, "anchor": anchor("axes", group["backend"]),
                          "axes": [(axis, axis_key(axis), rows) for axis, rows in group["axes"]]}
                         for group in by_path_axis(checks, columns)],
        "interpretations": sum(1 for c in in_order if c["interpretation"]),
        "cases": len(in_order),
        "has_details": bool(data["sec"]),
        "data": dumps(data),
        "known": sorted(known.values(), key=lambda k: (-k["checks"], k["label"])),
        "changes": changes,
        "bench": bench,
        "bench_problem": bench_problem,
    }


def render(results: Results | Mapping[str, Any], compare: Results | Mapping[str, Any] | None = None, *,
           compare_problem: str | None = None, bench: dict[str, Any] | None = None,
           bench_source: str | None = None, bench_problem: str | None = None) -> str:
    """The report page for `results` (one run or a merge, as a Results or its JSON document); with `compare`,
    also what changed since then; with `bench` (a bench file's contents, from `bench_source`), the benchmark
    section. `compare_problem` and `bench_problem` say why an intended comparison or benchmark could not be
    shown."""
    bench_view, bench_problem = _bench_view(bench, bench_source, bench_problem)
    return _ENV.get_template("report.html.j2").render(**_context(
        as_results(results), None if compare is None else as_results(compare), compare_problem, bench_view,
        bench_problem))


def write_report(results: Results | Mapping[str, Any], path: Path,
                 compare: Results | Mapping[str, Any] | Path | None = None,
                 bench: dict[str, Any] | Path | None = None) -> None:
    """Render to `path` (see report_text)."""
    write_atomic(Path(path), report_text(results, compare, bench))


def report_text(results: Results | Mapping[str, Any], compare: Results | Mapping[str, Any] | Path | None = None,
                bench: dict[str, Any] | Path | None = None) -> str:
    """The page. `compare` is earlier results or the path of their file (pytest's --compare), and `bench` a bench
    file's contents or its path; a file that cannot be used is named in the report instead of costing a finished
    run its report."""
    problem = bench_problem = source = None
    if isinstance(compare, (str, Path)):
        try:
            compare = load(Path(compare))
        except Unusable as e:
            compare, problem = None, str(e)
    if isinstance(bench, (str, Path)):
        bench_path = Path(bench)
        try:
            bench, source = load_bench(bench_path), _bench_source(bench_path)
        except Unusable as e:
            bench, bench_problem = None, str(e)
    return render(results, compare, compare_problem=problem, bench=bench, bench_source=source,
                  bench_problem=bench_problem)
