"""The HTML report: one self-contained page rendered from a results dict (layout in conformance.results).

Python only prepares plain data here (tallies, rows, anchors, formatted shapes); every piece of markup is
in templates/, rendered with autoescape on. Everything taken from a results file (case ids, descriptions,
messages, links) is untrusted text and is never marked safe.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from conformance.results import column, write_atomic
from conformance.verdicts import (
    ACCEPTED_INVALID,
    CRASH,
    ERROR,
    FAILING,
    KNOWN,
    NOT_APPLICABLE,
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
SEVERITY = (CRASH, TIMEOUT, ERROR, WRONG_VALUES, WRONG_SHAPE, WRONG_DTYPE, ACCEPTED_INVALID, REJECTED_VALID,
            KNOWN, PASS, NOT_APPLICABLE, SKIPPED)
# Verdicts listed as one line per reason in a cell's details rather than as a block of their own.
BRIEF = frozenset({NOT_APPLICABLE, SKIPPED})
QUIET = BRIEF | {PASS}  # no block of their own
MODES = ("numpy", "explicit", "bidirectional")
GROUPS = ("spec_example", "rule", "interpretation", "edge", "upstream", "found")

_ENV = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
                          autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
                          lstrip_blocks=True)


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
    return "~".join(re.sub(r"[^A-Za-z0-9_.]", lambda m: f"-{ord(m.group()):x}-", str(p)) for p in parts)


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
            "interpretation": raw.get("interpretation"), "text": raw.get("text")}
    view["search"] = " ".join(str(view[k]) for k in ("id", "description", "file", "group", "spec_ref",
                                                      "source", "interpretation") if view[k])
    return view


def _check_view(check: dict[str, Any], col: str) -> dict[str, Any]:
    actual = check.get("actual") or {}
    diff = check.get("first_diff")
    known = check.get("known")
    return {"id": check.get("id"), "anchor": _anchor("k", check.get("id"), col), "verdict": check["verdict"],
            "letter": letter(check["verdict"]), "variant": check.get("variant"), "dtype": check.get("dtype"),
            "message": check.get("message"), "expected": _outcome(check.get("expected")),
            "actual_shape": _shape(actual.get("shape")), "actual_dtype": actual.get("dtype"),
            "declared_shape": _shape(actual.get("declared_shape")), "error": actual.get("error"),
            "stage": actual.get("stage"), "rerun": check.get("rerun"),
            "duration": _duration(check.get("duration")),
            "first_diff": diff and {"index": _shape(diff.get("index")), "expected": diff.get("expected"),
                                    "actual": diff.get("actual")},
            "known": known and {"reason": known.get("reason"), "link": known.get("link"),
                                "href": _web_link(known.get("link")), "reproducer": known.get("reproducer")}}


def _brief(checks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Not-applicable and skipped checks, one entry per (verdict, reason) naming the variants it covers."""
    grouped: dict[tuple[str, str], list[str]] = defaultdict(list)
    for c in checks:
        reason = c.get("message") or "no reason given"
        grouped[(c["verdict"], reason)].append(f"{c.get('variant')}/{c.get('dtype')}")
    return [{"verdict": v, "letter": letter(v), "reason": reason, "which": ", ".join(which)}
            for (v, reason), which in grouped.items()]


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
    checks = results.get("checks", [])
    return {col: Tally.of(c["verdict"] for c in checks if column(c) == col)
            for col in _columns(_backends(results), checks)}


def _breakdown(checks: list[dict[str, Any]], cases: dict[str, dict[str, Any]], key: str,
               order: tuple[str, ...], columns: list[str]) -> list[dict[str, Any]]:
    verdicts: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for c in checks:
        verdicts[cases[c["case"]][key]][column(c)].append(c["verdict"])
    names = [n for n in order if n in verdicts] + sorted(set(verdicts) - set(order))
    return [{"name": n, "tallies": [Tally.of(verdicts[n][col]) for col in columns]} for n in names]


def _changes(results: dict[str, Any], compare: dict[str, Any], anchors: set[str]) -> dict[str, Any]:
    """Verdict changes keyed by (check id, column): new failures, fixes, other changes, added, removed."""
    new = {(c["id"], column(c)): c for c in results.get("checks", [])}
    old = {(c["id"], column(c)): c for c in compare.get("checks", [])}
    lists: dict[str, list[dict[str, Any]]] = {k: [] for k in ("new_failures", "fixes", "changed", "added",
                                                              "removed")}

    def entry(key: tuple[str, str], before: dict[str, Any] | None, after: dict[str, Any] | None) -> dict:
        check = after or before or {}
        cell = _anchor("c", check.get("case"), key[1])
        was, now = before and before["verdict"], after and after["verdict"]
        return {"id": key[0], "column": key[1], "case": check.get("case"), "variant": check.get("variant"),
                "dtype": check.get("dtype"), "old": was, "new": now, "old_letter": letter(was),
                "new_letter": letter(now), "anchor": cell if now and cell in anchors else None}

    for key, after in new.items():
        before = old.get(key)
        if before is None:
            lists["added"].append(entry(key, None, after))
        elif before["verdict"] != after["verdict"]:
            kind = ("new_failures" if before["verdict"] == PASS else
                    "fixes" if after["verdict"] == PASS else "changed")
            lists[kind].append(entry(key, before, after))
    lists["removed"] = [entry(key, before, None) for key, before in old.items() if key not in new]
    return {"since": _run_view(compare.get("run", {})), **lists}


def _matrix(cases: dict[str, dict[str, Any]], columns: list[str], checks: list[dict[str, Any]]
            ) -> tuple[dict[str, list[dict[str, Any]]], list[dict[str, Any]]]:
    """Matrix rows by case file, and a details section for each cell with more than passes and skips."""
    by_cell: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for c in checks:
        by_cell[(c["case"], column(c))].append(c)
    files: dict[str, list[dict[str, Any]]] = defaultdict(list)
    sections = []
    for case in sorted(cases.values(), key=lambda c: (c["file"], c["line"] or 0, c["id"])):
        cells = []
        for col in columns:
            found = sorted(by_cell[(case["id"], col)], key=lambda c: (_rank(c["verdict"]), str(c.get("id"))))
            tally = Tally.of(c["verdict"] for c in found)
            anchor = None
            if any(v not in (PASS, SKIPPED) for v in tally.counts):
                anchor = _anchor("c", case["id"], col)
                sections.append({"case": case, "column": col, "anchor": anchor, "tally": tally,
                                 "checks": [_check_view(c, col) for c in found if c["verdict"] not in QUIET],
                                 "brief": _brief([c for c in found if c["verdict"] in BRIEF])})
            cells.append({"column": col, "tally": tally, "anchor": anchor})
        files[case["file"]].append({"case": case, "cells": cells, "anchor": _anchor("r", case["id"])})
    return files, sections


def _context(results: dict[str, Any], compare: dict[str, Any] | None) -> dict[str, Any]:
    checks = results.get("checks", [])
    cases = {cid: _case_view(cid, raw) for cid, raw in results.get("cases", {}).items()}
    for c in checks:  # a check of a case the file does not describe still gets a row
        cases.setdefault(c["case"], _case_view(c["case"], {}))
    backends = _backends(results)
    columns = _columns(backends, checks)
    files, sections = _matrix(cases, columns, checks)
    tallies = tally_by_column(results)
    seen_verdicts = {c["verdict"] for c in checks}
    run = results.get("run", {})
    return {
        "run": _run_view(run),
        "runs": [_run_view(r) for r in results.get("runs", [])],
        "collection_errors": [{"where": ":".join(str(e[k]) for k in ("file", "line") if e.get(k) is not None),
                               "message": e.get("message")} for e in results.get("collection_errors", [])],
        "unmatched_known": [{"backend": u.get("backend"), "entry": json.dumps(u.get("entry"), sort_keys=True)}
                            for u in results.get("unmatched_known", [])],
        "legend": [{"verdict": v, "letter": short, "meaning": m} for v, (short, m) in VERDICTS.items()],
        "verdicts": [{"name": v, "letter": letter(v)}
                     for v in [*VERDICTS, *sorted(seen_verdicts - set(VERDICTS))]],
        "failing": sorted(FAILING),
        "quiet": sorted(QUIET),
        "columns": [{"name": col, "anchor": _anchor("col", col), "tally": tallies[col],
                     **backends.get(col, {"backend": col.split("@")[0], "version": None, "available": None,
                                          "reason": None})} for col in columns],
        "modes": sorted({c["mode"] for c in cases.values()},
                        key=lambda m: (MODES.index(m) if m in MODES else len(MODES), m)),
        "by_mode": _breakdown(checks, cases, "mode", MODES, columns),
        "by_group": _breakdown(checks, cases, "group", GROUPS, columns),
        "interpretations": [row for rows in files.values() for row in rows if row["case"]["interpretation"]],
        "files": sorted(files.items()),
        "sections": sections,
        "changes": None if compare is None else _changes(results, compare, {s["anchor"] for s in sections}),
    }


def render(results: dict[str, Any], compare: dict[str, Any] | None = None) -> str:
    """The report page for `results` (one run or a merge); with `compare`, also what changed since then."""
    return _ENV.get_template("report.html.j2").render(**_context(results, compare))


def write_report(results: dict[str, Any], path: Path, compare: dict[str, Any] | None = None) -> None:
    write_atomic(Path(path), render(results, compare))
