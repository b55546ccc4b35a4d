"""The HTML report: one self-contained page rendered from a results dict (layout in conformance.results).

This module loads results files and assembles the page (columns, breakdowns, the template context); the views
of cases and checks are built in report_views, what changed since an earlier run in report_changes, the
benchmark section in report_bench, and verdicts are ranked and counted in report_tally. Python only prepares
plain data (tallies, rows, anchors, formatted shapes, filter codes); every piece of markup is in templates/,
rendered with autoescape on. Everything taken from a results file (case ids, descriptions, messages, links) is
untrusted text and is never marked safe.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import jinja2

from conformance import report_bench
from conformance import results as results_file
from conformance.report_changes import _changes, change_counts
from conformance.report_tally import Tally, letter
from conformance.report_views import QUIET, Codes, _anchor, _case_view, _dtype_order, _known_entries, _matrix, _run_view
from conformance.results import column, write_atomic
from conformance.verdicts import FAILING, VERDICTS

__all__ = ["Tally", "Unusable", "change_counts", "letter", "load", "load_bench", "render", "tally_by_column",
           "write_report"]

MODES = ("numpy", "explicit", "bidirectional")
GROUPS = ("spec_example", "rule", "interpretation", "edge", "upstream", "found", "generated")

_ENV = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
                          autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
                          lstrip_blocks=True)


class Unusable(Exception):
    """A results file that cannot be used; the message names the file and the problem."""


def load(path: Path) -> dict[str, Any]:
    """A results file, or Unusable saying in a line what is wrong with it."""
    try:
        data = results_file.load(path)
    except FileNotFoundError:
        problem = "no such file"
    except (OSError, UnicodeDecodeError) as e:
        problem = f"cannot read it: {e}"
    except ValueError as e:  # json.JSONDecodeError is one, and so is a wrong "format"
        problem = f"not a results file: {e}"
    else:
        checks = data.get("checks")
        if not isinstance(data.get("run"), dict) or not isinstance(checks, list):
            problem = "malformed results: no 'run' object or no 'checks' list"
        elif not all(isinstance(c, dict) and {"id", "case", "backend", "verdict"} <= c.keys() for c in checks):
            problem = "malformed results: a check without its id, case, backend or verdict"
        else:
            return data
    raise Unusable(f"{path}: {problem}")


def load_bench(path: Path) -> dict[str, Any]:
    """A bench file (bench/broadcast_bench.py), or Unusable saying in a line what is wrong with it."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        report_bench._results(data)
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


def _backends(results: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Backend info by column; a single run keys backends by name, a merged one by backend@version."""
    out = {}
    for key, info in results.get("backends", {}).items():
        name, version = info.get("name", key), info.get("version")
        out[f"{name}@{version}" if version else name] = {"backend": name, "version": version,
                                                         "available": info.get("available"),
                                                         "reason": info.get("reason"),
                                                         "hardware": info.get("hardware") or []}
    return out


def _columns(backends: dict[str, dict[str, Any]], checks: list[dict[str, Any]]) -> list[str]:
    seen = dict.fromkeys([*backends, *(column(c) for c in checks)])
    order = {col: i for i, col in enumerate(seen)}
    # Versions of one backend side by side, in the order the runs were given.
    return sorted(seen, key=lambda col: (backends[col]["backend"] if col in backends else col.split("@")[0],
                                         order[col]))


def tally_by_column(results: dict[str, Any]) -> dict[str, Tally]:
    by_col: dict[str, list[str]] = defaultdict(list)
    for c in results.get("checks", []):
        by_col[column(c)].append(c["verdict"])
    return {col: Tally.of(by_col[col]) for col in _columns(_backends(results), results.get("checks", []))}


def _breakdown(checks: list[dict[str, Any]], names_of: Callable[[dict[str, Any]], Iterable[str]],
               order: Iterable[str], columns: list[str]) -> list[dict[str, Any]]:
    """Tallies per (name, column), a check counting under each of names_of(check); rows in `order` first, then
    any other name."""
    verdicts: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for c in checks:
        for name in names_of(c):
            verdicts[name][column(c)].append(c["verdict"])
    order = list(order)
    names = [n for n in order if n in verdicts] + sorted(set(verdicts) - set(order))
    return [{"name": n, "tallies": [Tally.of(verdicts[n][col]) for col in columns]} for n in names]


def _origins(checks: list[dict[str, Any]], cases: dict[str, dict[str, Any]], columns: list[str]
             ) -> list[dict[str, Any]]:
    """Tallies per case group; the upstream group's row lists its suites (a case from several counts in each)."""
    groups = _breakdown(checks, lambda c: (cases[c["case"]]["group"],), GROUPS, columns)
    suites = _breakdown([c for c in checks if cases[c["case"]]["suites"]], lambda c: cases[c["case"]]["suites"],
                        (), columns)
    return [{**row, "suites": [{**s, "repo": s["name"].split(" ", 1)[0], "path": s["name"].partition(" ")[2]}
                               for s in suites] if row["name"] == "upstream" else []} for row in groups]


def _bench_view(bench: dict[str, Any] | None, source: str | None, problem: str | None
                ) -> tuple[dict[str, Any] | None, str | None]:
    if bench is None:
        return None, problem
    try:
        return report_bench.view(bench, source), None
    except ValueError as e:
        return None, f"{source or 'the bench results'}: {e}"


def _context(results: dict[str, Any], compare: dict[str, Any] | None, compare_problem: str | None,
             bench: dict[str, Any] | None, bench_problem: str | None) -> dict[str, Any]:
    checks = results.get("checks", [])
    cases = {cid: _case_view(cid, raw) for cid, raw in results.get("cases", {}).items()}
    for c in checks:  # a check of a case the file does not describe still gets a row
        cases.setdefault(c["case"], _case_view(c["case"], {}))
    # The suite filter's codes: a case lists its suites as indexes into the list the filter bar declares.
    suites = sorted({s for case in cases.values() for s in case["suites"]})
    suite_index = {s: str(i) for i, s in enumerate(suites)}
    for case in cases.values():
        case["suite_codes"] = " ".join(suite_index[s] for s in case["suites"])
    backends = _backends(results)
    columns = _columns(backends, checks)
    codes = Codes([*checks, *(compare or {}).get("checks", [])])
    known = _known_entries(checks)
    files, details = _matrix(cases, columns, checks, codes, known)
    tallies = tally_by_column(results)
    anchors = {s["anchor"] for d in details for s in d["sections"]}
    changes = None
    if compare is not None and compare.get("run") and compare.get("run") == results.get("run"):
        # pytest conformance --compare reports/results.json: the run overwrote that file before the report
        changes = {"problem": "the earlier results are this run's own: the file compared with was overwritten by "
                              "this run (--compare names the --results file?); compare with a copy of it"}
    elif compare is not None:
        changes = _changes(results, compare, cases, anchors, codes)
    elif compare_problem:
        changes = {"problem": compare_problem}
    return {
        "run": _run_view(results.get("run", {})),
        "runs": [_run_view(r) for r in results.get("runs", [])],
        "collection_errors": [{"where": ":".join(str(e[k]) for k in ("file", "line") if e.get(k) is not None),
                               "message": e.get("message")} for e in results.get("collection_errors", [])],
        "unmatched_known": [{"backend": u.get("backend"), "entry": json.dumps(u.get("entry"), sort_keys=True)}
                            for u in results.get("unmatched_known", [])],
        "legend": [{"verdict": v, "letter": short, "meaning": m} for v, (short, m) in VERDICTS.items()],
        "verdicts": [{"name": v, "letter": letter(v)} for v in VERDICTS] +
                    [{"name": v, "letter": "?"} for v in codes.verdicts if v not in VERDICTS],
        "codes": codes.page(checks),
        "failing": sorted(FAILING),
        "quiet": sorted(QUIET),
        "columns": [{"name": col, "anchor": _anchor("col", col), "tally": tallies[col],
                     **backends.get(col, {"backend": col.split("@")[0], "version": None, "available": None,
                                          "reason": None, "hardware": []})} for col in columns],
        "modes": sorted({c["mode"] for c in cases.values()},
                        key=lambda m: (MODES.index(m) if m in MODES else len(MODES), m)),
        "groups": sorted({c["group"] for c in cases.values()},
                         key=lambda g: (GROUPS.index(g) if g in GROUPS else len(GROUPS), g)),
        "suites": suites,
        "suite_choices": [(repo, [(s, s.partition(" ")[2]) for s in suites if s.split(" ", 1)[0] == repo])
                          for repo in dict.fromkeys(s.split(" ", 1)[0] for s in suites)],
        "breakdowns": [
            {"key": "mode", "title": "By mode", "rows": _breakdown(checks, lambda c: (cases[c["case"]]["mode"],),
                                                                   MODES, columns)},
            {"key": "group", "title": "By origin: case group, and upstream suite",
             "rows": _origins(checks, cases, columns)},
            {"key": "dtype", "title": "By element type",
             "rows": _breakdown([c for c in checks if c.get("dtype")], lambda c: (c["dtype"],),
                                sorted({c["dtype"] for c in checks if c.get("dtype")}, key=_dtype_order),
                                columns)}],
        "interpretations": [row for rows in files.values() for row in rows if row["case"]["interpretation"]],
        "files": sorted(files.items()),
        "details": details,
        "known": sorted(known.values(), key=lambda k: (-k["checks"], k["label"])),
        "changes": changes,
        "bench": bench,
        "bench_problem": bench_problem,
    }


def render(results: dict[str, Any], compare: dict[str, Any] | None = None, *,
           compare_problem: str | None = None, bench: dict[str, Any] | None = None,
           bench_source: str | None = None, bench_problem: str | None = None) -> str:
    """The report page for `results` (one run or a merge); with `compare`, also what changed since then; with
    `bench` (a bench file's contents, from `bench_source`), the benchmark section. `compare_problem` and
    `bench_problem` say why an intended comparison or benchmark could not be shown."""
    bench_view, bench_problem = _bench_view(bench, bench_source, bench_problem)
    return _ENV.get_template("report.html.j2").render(**_context(results, compare, compare_problem, bench_view,
                                                                 bench_problem))


def write_report(results: dict[str, Any], path: Path, compare: dict[str, Any] | Path | None = None,
                 bench: dict[str, Any] | Path | None = None) -> None:
    """Render to `path`. `compare` is an earlier results dict or the path of its file (pytest's --compare), and
    `bench` a bench file's contents or its path; a file that cannot be used is named in the report instead of
    costing a finished run its report."""
    problem = bench_problem = source = None
    if isinstance(compare, (str, Path)):
        try:
            compare = load(Path(compare))
        except Unusable as e:
            compare, problem = None, str(e)
    if isinstance(bench, (str, Path)):
        try:
            bench, source = load_bench(Path(bench)), _bench_source(Path(bench))
        except Unusable as e:
            bench, bench_problem = None, str(e)
    write_atomic(Path(path), render(results, compare, compare_problem=problem, bench=bench, bench_source=source,
                                    bench_problem=bench_problem))
