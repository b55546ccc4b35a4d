"""The per-case and per-check views of the report: matrix rows and cells, the details of a cell that holds
more than passes and skips, known-difference entries, and the filter codes of checks.

Plain data only (anchors, formatted shapes, codes); the markup is in templates/. Everything taken from a results
file is untrusted text and is never marked safe.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from conformance.report_tally import Tally, _rank, letter
from conformance.results import column
from conformance.verdicts import KNOWN, NOT_APPLICABLE, PASS, SKIPPED, VERDICTS

# Verdicts listed as one line per reason in a cell's details rather than as a block of their own.
BRIEF = frozenset({NOT_APPLICABLE, SKIPPED})
QUIET = BRIEF | {PASS}  # no block of their own


def _anchor(*parts: str) -> str:
    """An element id that survives a URL fragment and getElementById whatever a case id or column holds;
    the escaping is one-to-one and never produces '~' or '=', so parts stay apart and filter hashes differ."""
    return "~".join(re.sub(r"[^A-Za-z0-9_.@-]", lambda m: f":{ord(m.group()):x}:", str(p)) for p in parts)


# "<owner/repo> <path>: <test>", several joined by "; " (a test's own text may hold "; " or ": " too).
_SUITE = re.compile(r"(?:^|;\s*)([\w.-]+/[\w.-]+ [^\s:;]+):")
NO_SUITE = "(no upstream suite named)"


def upstream_suites(source: Any) -> list[str]:
    """The upstream suites (repository and file) a case's `source` names, each once, in order."""
    found = _SUITE.findall(source) if isinstance(source, str) else []
    return list(dict.fromkeys(found)) or [NO_SUITE]


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
    # Where an upstream case comes from, for the overview by origin and the suite filter.
    view["suites"] = upstream_suites(view["source"]) if view["group"] == "upstream" else []
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
