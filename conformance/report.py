"""The HTML report: one self-contained page rendered from a results dict (layout in conformance.results).

Python only prepares plain data here (tallies, rows, anchors, formatted shapes, filter codes); every piece of
markup is in templates/, rendered with autoescape on. Everything taken from a results file (case ids,
descriptions, messages, links) is untrusted text and is never marked safe.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from conformance import results as results_file
from conformance.results import column, write_atomic
from conformance.verdicts import (
    ACCEPTED_INVALID,
    CRASH,
    ERROR,
    FAILING,
    KNOWN,
    NOT_APPLICABLE,
    OUT_OF_MEMORY,
    PASS,
    REJECTED_VALID,
    SKIPPED,
    TIMEOUT,
    VERDICTS,
    WRONG_DTYPE,
    WRONG_SHAPE,
    WRONG_VALUES,
)

# Worst first: a matrix cell shows the first of these among its checks.
SEVERITY = (CRASH, TIMEOUT, OUT_OF_MEMORY, ERROR, WRONG_VALUES, WRONG_SHAPE, WRONG_DTYPE, ACCEPTED_INVALID,
            REJECTED_VALID, KNOWN, PASS, NOT_APPLICABLE, SKIPPED)
# Verdicts listed as one line per reason in a cell's details rather than as a block of their own.
BRIEF = frozenset({NOT_APPLICABLE, SKIPPED})
QUIET = BRIEF | {PASS}  # no block of their own
MODES = ("numpy", "explicit", "bidirectional")
GROUPS = ("spec_example", "rule", "interpretation", "edge", "upstream", "found")
CHANGE_ROWS = 400  # per kind of change; the counts above the lists always cover every check

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


@dataclass(frozen=True)
class Tally:
    """How many checks ended with each verdict."""

    counts: dict[str, int]

    @classmethod
    def of(cls, verdicts: Iterable[str]) -> Tally:
        return cls(dict(Counter(verdicts)))

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def passed(self) -> int:
        return self.counts.get(PASS, 0)

    @property
    def known(self) -> int:
        return self.counts.get(KNOWN, 0)

    @property
    def applicable(self) -> int:
        return self.total - self.counts.get(NOT_APPLICABLE, 0) - self.counts.get(SKIPPED, 0)

    @property
    def failing(self) -> int:
        """Applicable checks that neither passed nor are a known difference (unknown verdicts included)."""
        return self.applicable - self.passed - self.known

    @property
    def rate(self) -> float | None:
        """pass / applicable; a known difference is not a pass, an opt-out is not counted at all."""
        return self.passed / self.applicable if self.applicable else None

    @property
    def worst(self) -> str | None:
        return min(self.counts, key=_rank) if self.counts else None

    @property
    def worst_letter(self) -> str:
        return letter(self.worst)

    @property
    def others(self) -> list[tuple[str, str, int]]:
        """(verdict, letter, count) of every verdict but pass, worst first."""
        return [(v, letter(v), self.counts[v]) for v in sorted(self.counts, key=_rank) if v != PASS]


def letter(verdict: str | None) -> str:
    return VERDICTS[verdict][0] if verdict in VERDICTS else "?"


def _rank(verdict: str) -> int:
    # A verdict this code does not know ranks worst: a results file from a newer suite must not look green.
    return SEVERITY.index(verdict) if verdict in SEVERITY else -1


def _anchor(*parts: str) -> str:
    """An element id that survives a URL fragment and getElementById whatever a case id or column holds;
    the escaping is one-to-one and never produces '~' or '=', so parts stay apart and filter hashes differ."""
    return "~".join(re.sub(r"[^A-Za-z0-9_.@-]", lambda m: f":{ord(m.group()):x}:", str(p)) for p in parts)


def _web_link(link: Any) -> str | None:
    # Only http(s) becomes an href: a results file could carry a javascript: URL.
    return link if isinstance(link, str) and re.match(r"https?://", link, re.IGNORECASE) else None


def _shape(shape: Any) -> str | None:
    if shape is None:
        return None
    if not (isinstance(shape, list) and all(isinstance(d, int) or d is None for d in shape)):
        return json.dumps(shape)
    dims = ["?" if d is None else str(d) for d in shape]  # None: a dynamic dimension in a declared shape
    return f"({dims[0]},)" if len(dims) == 1 else f"({', '.join(dims)})"


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value)


def _outcome(expected: dict[str, Any] | None) -> str | None:
    if not expected:
        return None
    if "reject" in expected:
        return f"reject: {expected['reject']}"
    return " ".join(s for s in (_shape(expected.get("shape")), expected.get("dtype")) if s)


def _duration(seconds: Any) -> str | None:
    if not isinstance(seconds, (int, float)):
        return None
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes} min {secs:02d} s" if minutes < 60 else f"{minutes // 60} h {minutes % 60:02d} min"


def _dtype_order(name: str) -> tuple[int, int, str]:
    """bool, then integers and floats by width (i8 u8 … i64 u64 f16 f32 f64), then anything else by name."""
    m = re.fullmatch(r"([iuf])(\d+)", name)
    if name == "bool":
        return (0, 0, name)
    return (1 if m[1] in "iu" else 2, int(m[2]), name) if m else (3, 0, name)


def _run_view(run: dict[str, Any]) -> dict[str, Any]:
    return {"started": run.get("started"), "finished": run.get("finished"),
            "complete": bool(run.get("complete")), "suite_commit": run.get("suite_commit"),
            "python": run.get("python"), "platform": run.get("platform"), "cpu": run.get("cpu"),
            "argv": " ".join(run.get("argv") or []) or None, "wall_time": _duration(run.get("wall_time")),
            "packages": sorted((run.get("packages") or {}).items())}


def _case_view(case_id: str, raw: dict[str, Any]) -> dict[str, Any]:
    view = {"id": case_id, "file": raw.get("file") or "(unknown file)", "line": raw.get("line"),
            "group": raw.get("group") or "-", "mode": raw.get("mode") or "-", "versions": raw.get("versions"),
            "data_shape": _shape(raw.get("data_shape")), "target_shape": _json(raw.get("target_shape")),
            "axes_mapping": _json(raw.get("axes_mapping")),
            "expect": _outcome(raw.get("expect")), "spec_ref": raw.get("spec_ref"),
            "description": raw.get("description"), "source": raw.get("source"),
            "interpretation": raw.get("interpretation"),
            # As written, less the indentation of the list it sits in.
            "text": textwrap.dedent(raw["text"]) if isinstance(raw.get("text"), str) else None}
    view["search"] = " ".join(str(view[k]) for k in ("id", "description", "file", "group", "spec_ref",
                                                      "source", "interpretation") if view[k])
    return view


class Codes:
    """Short codes for the check-level filters: each check of a cell is 'variant.dtype.verdict' as indexes into
    the lists the page declares once, so the page can re-tally a cell for any variant and dtype."""

    def __init__(self, checks: Iterable[dict[str, Any]]) -> None:
        checks = list(checks)
        self.variants = sorted({str(c.get("variant") or "") for c in checks})
        self.dtypes = sorted({str(c.get("dtype") or "") for c in checks}, key=_dtype_order)
        self.verdicts = sorted({*VERDICTS, *(c["verdict"] for c in checks)}, key=lambda v: (_rank(v), v))
        self._index = {name: {x: i for i, x in enumerate(xs)}
                       for name, xs in (("variant", self.variants), ("dtype", self.dtypes))}
        self._verdict = {v: i for i, v in enumerate(self.verdicts)}

    def of(self, checks: Iterable[dict[str, Any]]) -> str:
        return " ".join(f"{self._index['variant'][str(c.get('variant') or '')]}."
                        f"{self._index['dtype'][str(c.get('dtype') or '')]}.{self._verdict[c['verdict']]}"
                        for c in checks)

    def page(self, checks: list[dict[str, Any]]) -> dict[str, Any]:
        """What the filter bar declares: the code lists, and the choices offered (variants by backend)."""
        by_backend: dict[str, set[str]] = defaultdict(set)
        for c in checks:
            if c.get("variant"):
                by_backend[c["backend"]].add(c["variant"])
        return {"variants": self.variants, "dtypes": self.dtypes, "verdicts": self.verdicts,
                "letters": [letter(v) for v in self.verdicts],
                "variant_choices": [(b, sorted(vs)) for b, vs in sorted(by_backend.items())],
                "dtype_choices": [d for d in self.dtypes if d]}


def _known_key(known: dict[str, Any]) -> str:
    return str(known.get("id") or json.dumps([known.get(k) for k in ("reason", "link", "reproducer")]))


def _known_entries(checks: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each known difference once (a check only names it): reason, link and reproducer are long and shared
    by many checks, so repeating them per check would multiply the page."""
    entries: dict[str, dict[str, Any]] = {}
    for c in checks:
        known = c.get("known")  # also on a check whose verdict differs from the entry's: it names the entry
        if not isinstance(known, dict):
            continue
        key = _known_key(known)
        if key not in entries:
            label = str(known.get("id") or f"known difference {len(entries) + 1}")
            entries[key] = {"label": label, "anchor": _anchor("kd", label), "reason": known.get("reason"),
                            "link": known.get("link"), "href": _web_link(known.get("link")),
                            "reproducer": known.get("reproducer"), "where": known.get("where"),
                            "verdict": known.get("verdict"), "columns": Counter(), "cells": {}}
        entry = entries[key]
        entry["columns"][column(c)] += 1
        entry["cells"].setdefault((c["case"], column(c)), _anchor("c", c["case"], column(c)))
    for entry in entries.values():
        entry["checks"] = sum(entry["columns"].values())
        entry["columns"] = sorted(entry["columns"].items())
        entry["cells"] = [{"case": case, "column": col, "anchor": anchor}
                          for (case, col), anchor in sorted(entry["cells"].items())]
    return entries


def _outcome_views(checks: list[dict[str, Any]], known: dict[str, dict[str, Any]],
                   codes: Codes) -> list[dict[str, Any]]:
    """The non-pass checks of one cell as blocks of evidence. Checks that differ only in variant (and so in
    id and rerun command) share a block: a backend usually fails the same way in every variant, and one block
    naming the variants reads better, and weighs less, than the same evidence again and again."""
    blocks: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for c in checks:
        evidence = {k: v for k, v in c.items() if k not in ("id", "variant", "rerun", "duration")}
        blocks[json.dumps(evidence, sort_keys=True, default=str)].append(c)
    return [_block_view(cs, known, codes) for cs in blocks.values()]


def _block_view(checks: list[dict[str, Any]], known: dict[str, dict[str, Any]], codes: Codes) -> dict[str, Any]:
    check = checks[0]
    actual = check.get("actual") or {}
    diff = check.get("first_diff")
    message = check.get("message") or ""
    return {"verdict": check["verdict"], "letter": letter(check["verdict"]), "dtype": check.get("dtype"),
            "variants": [c.get("variant") for c in checks], "codes": codes.of(checks),
            "checks": [{"id": c.get("id"), "rerun": c.get("rerun") or c.get("id")} for c in checks],
            # The summary line holds the message's first line; a longer message is shown whole below it.
            "headline": message.split("\n", 1)[0], "message": message if "\n" in message.strip() else None,
            "expected": _outcome(check.get("expected")),
            "actual_shape": _shape(actual.get("shape")), "actual_dtype": actual.get("dtype"),
            # The shape declared before running matters when it is not the shape that came out.
            "declared_shape": (_shape(actual.get("declared_shape"))
                               if actual.get("declared_shape") != actual.get("shape") else None),
            "error": actual.get("error"), "stage": actual.get("stage"),
            "first_diff": diff and {"index": _shape(diff.get("index")), "expected": diff.get("expected"),
                                    "actual": diff.get("actual"), "count": diff.get("count"),
                                    "size": diff.get("size")},
            "known": known.get(_known_key(check["known"])) if isinstance(check.get("known"), dict) else None}


def _brief(checks: list[dict[str, Any]], codes: Codes) -> list[dict[str, Any]]:
    """Not-applicable and skipped checks, one entry per (verdict, reason) naming the variants it covers."""
    grouped: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for c in checks:
        grouped[(c["verdict"], c.get("message") or "no reason given")].append(c)
    return [{"verdict": v, "letter": letter(v), "reason": reason, "codes": codes.of(cs),
             "which": ", ".join("/".join(p for p in (c.get("variant"), c.get("dtype")) if p) for c in cs
                                if c.get("variant") or c.get("dtype"))}
            for (v, reason), cs in grouped.items()]


def _backends(results: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Backend info by column; a single run keys backends by name, a merged one by backend@version."""
    out = {}
    for key, info in results.get("backends", {}).items():
        name, version = info.get("name", key), info.get("version")
        out[f"{name}@{version}" if version else name] = {"backend": name, "version": version,
                                                         "available": info.get("available"),
                                                         "reason": info.get("reason")}
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


def _breakdown(checks: list[dict[str, Any]], name_of: Callable[[dict[str, Any]], str], order: Iterable[str],
               columns: list[str]) -> list[dict[str, Any]]:
    """Tallies per (name_of(check), column), rows in `order` first, then any other name."""
    verdicts: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for c in checks:
        verdicts[name_of(c)][column(c)].append(c["verdict"])
    order = list(order)
    names = [n for n in order if n in verdicts] + sorted(set(verdicts) - set(order))
    return [{"name": n, "tallies": [Tally.of(verdicts[n][col]) for col in columns]} for n in names]


CHANGE_KINDS = ("new_failures", "fixes", "changed", "added", "removed")
Change = tuple[str, str, dict[str, Any], str | None, str | None]


def _changed(results: dict[str, Any], compare: dict[str, Any]) -> Iterable[Change]:
    """(kind, column, check, verdict before, verdict now) of every check, matched by id and column, whose
    verdict differs between `compare` (before) and `results` (now)."""
    new = {(c["id"], column(c)): c for c in results.get("checks", [])}
    old = {(c["id"], column(c)): c for c in compare.get("checks", [])}
    for key in [*new, *(k for k in old if k not in new)]:
        before, after = old.get(key), new.get(key)
        was = before["verdict"] if before else None
        now = after["verdict"] if after else None
        if was != now:
            kind = ("added" if before is None else "removed" if after is None else
                    "new_failures" if was == PASS else "fixes" if now == PASS else "changed")
            yield kind, key[1], after or before or {}, was, now


def _which(checks: list[dict[str, Any]]) -> list[tuple[list[str], list[str]]]:
    """The variants and element types of some checks, compactly: variants with the same element types together."""
    by_variant: dict[str, list[str]] = defaultdict(list)
    for c in checks:
        by_variant[str(c.get("variant") or "")].append(str(c.get("dtype") or ""))
    by_dtypes: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for variant, dtypes in sorted(by_variant.items()):
        by_dtypes[tuple(sorted(set(dtypes), key=_dtype_order))].append(variant)
    return [([v for v in variants if v], [d for d in dtypes if d]) for dtypes, variants in by_dtypes.items()]


def change_counts(results: dict[str, Any], compare: dict[str, Any]) -> dict[str, int]:
    counts = Counter(kind for kind, *_ in _changed(results, compare))
    return {kind: counts[kind] for kind in CHANGE_KINDS}


def _changes(results: dict[str, Any], compare: dict[str, Any], cases: dict[str, dict[str, Any]],
             anchors: set[str], codes: Codes) -> dict[str, Any]:
    """What changed since `compare`, one row per case, column and change of verdict: that keeps a mass change
    (a new known difference on hundreds of checks) a readable list."""
    grouped: dict[str, dict[tuple[str, str, str | None, str | None], list[dict[str, Any]]]] = {
        k: defaultdict(list) for k in CHANGE_KINDS}
    for kind, col, check, was, now in _changed(results, compare):
        grouped[kind][(check["case"], col, was, now)].append(check)
    per_column: dict[str, Counter[str]] = defaultdict(Counter)
    lists: dict[str, list[dict[str, Any]]] = {}

    def order(row: tuple[str, str, str | None, str | None]) -> tuple[Any, ...]:
        case = cases.get(row[0])  # in matrix order; a case no longer described last
        return (case is None, case["file"] if case else "", (case["line"] or 0) if case else 0, row[0], row[1])

    for kind, rows in grouped.items():
        lists[kind] = []
        for (case_id, col, was, now) in sorted(rows, key=order):
            checks = rows[(case_id, col, was, now)]
            per_column[col][kind] += len(checks)
            cell, case = _anchor("c", case_id, col), cases.get(case_id)
            lists[kind].append({
                "case": case_id, "column": col, "old": was, "new": now, "old_letter": letter(was),
                "new_letter": letter(now), "n": len(checks), "codes": codes.of(checks),
                "mode": case["mode"] if case else "", "search": case["search"] if case else case_id,
                "anchor": cell if cell in anchors else _anchor("r", case_id) if case else None,
                "which": _which(checks)})
    return {"since": _run_view(compare.get("run", {})), "problem": None, "limit": CHANGE_ROWS,
            "counts": {k: sum(e["n"] for e in lists[k]) for k in CHANGE_KINDS}, **lists,
            "per_column": [{"column": col, **{k: per_column[col][k] for k in CHANGE_KINDS}}
                           for col in sorted(per_column)]}


def _matrix(cases: dict[str, dict[str, Any]], columns: list[str], checks: list[dict[str, Any]], codes: Codes,
            known: dict[str, dict[str, Any]]) -> tuple[dict[str, list[dict[str, Any]]], list[dict[str, Any]]]:
    """Matrix rows by case file, and the details of each case with a cell holding more than passes and skips:
    the case once, then one section per such cell."""
    by_cell: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for c in checks:
        by_cell[(c["case"], column(c))].append(c)
    files: dict[str, list[dict[str, Any]]] = defaultdict(list)
    details = []
    for case in sorted(cases.values(), key=lambda c: (c["file"], c["line"] or 0, c["id"])):
        cells, sections = [], []
        for col in columns:
            found = sorted(by_cell[(case["id"], col)], key=lambda c: (_rank(c["verdict"]), str(c.get("id"))))
            tally = Tally.of(c["verdict"] for c in found)
            anchor = None
            if any(v not in (PASS, SKIPPED) for v in tally.counts):
                anchor = _anchor("c", case["id"], col)
                shown = _outcome_views([c for c in found if c["verdict"] not in QUIET], known, codes)
                sections.append({"column": col, "anchor": anchor, "tally": tally, "checks": shown,
                                 "failing": any(c["verdict"] not in (KNOWN, *QUIET) for c in found),
                                 "known": list({id(k["known"]): k["known"] for k in shown if k["known"]}.values()),
                                 "brief": _brief([c for c in found if c["verdict"] in BRIEF], codes)})
            cells.append({"column": col, "tally": tally, "anchor": anchor, "codes": codes.of(found)})
        files[case["file"]].append({"case": case, "cells": cells, "anchor": _anchor("r", case["id"])})
        if sections:
            details.append({"case": case, "anchor": _anchor("d", case["id"]), "sections": sections,
                            "failing": any(s["failing"] for s in sections)})
    return files, details


def _context(results: dict[str, Any], compare: dict[str, Any] | None, compare_problem: str | None
             ) -> dict[str, Any]:
    checks = results.get("checks", [])
    cases = {cid: _case_view(cid, raw) for cid, raw in results.get("cases", {}).items()}
    for c in checks:  # a check of a case the file does not describe still gets a row
        cases.setdefault(c["case"], _case_view(c["case"], {}))
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
                                          "reason": None})} for col in columns],
        "modes": sorted({c["mode"] for c in cases.values()},
                        key=lambda m: (MODES.index(m) if m in MODES else len(MODES), m)),
        "breakdowns": [
            {"key": "mode", "title": "By mode", "rows": _breakdown(checks, lambda c: cases[c["case"]]["mode"],
                                                                   MODES, columns)},
            {"key": "group", "title": "By case group",
             "rows": _breakdown(checks, lambda c: cases[c["case"]]["group"], GROUPS, columns)},
            {"key": "dtype", "title": "By element type",
             "rows": _breakdown([c for c in checks if c.get("dtype")], lambda c: c["dtype"],
                                sorted({c["dtype"] for c in checks if c.get("dtype")}, key=_dtype_order),
                                columns)}],
        "interpretations": [row for rows in files.values() for row in rows if row["case"]["interpretation"]],
        "files": sorted(files.items()),
        "details": details,
        "known": sorted(known.values(), key=lambda k: (-k["checks"], k["label"])),
        "changes": changes,
    }


def render(results: dict[str, Any], compare: dict[str, Any] | None = None, *,
           compare_problem: str | None = None) -> str:
    """The report page for `results` (one run or a merge); with `compare`, also what changed since then.
    `compare_problem` says why an intended comparison could not be made."""
    return _ENV.get_template("report.html.j2").render(**_context(results, compare, compare_problem))


def write_report(results: dict[str, Any], path: Path, compare: dict[str, Any] | Path | None = None) -> None:
    """Render to `path`. `compare` is an earlier results dict or the path of its file (pytest's --compare);
    a file that cannot be used is named in the report instead of costing a finished run its report."""
    problem = None
    if isinstance(compare, (str, Path)):
        try:
            compare = load(Path(compare))
        except Unusable as e:
            compare, problem = None, str(e)
    write_atomic(Path(path), render(results, compare, compare_problem=problem))
