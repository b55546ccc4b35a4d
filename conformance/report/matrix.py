"""The matrix of cases x columns and the details of its cells: a row per case with a cell per column, and for
each cell holding more than passes and skips, its checks as blocks of evidence.

Plain data only; the markup is in templates/_matrix.html.j2 and _details.html.j2.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from conformance.report.tally import Tally, letter, rank
from conformance.report.text import anchor, outcome, path_text, paths_and_dtypes, shape
from conformance.report.views import Codes, known_key
from conformance.results.record import CheckRecord
from conformance.verdicts import KNOWN, NOT_APPLICABLE, PASS, SKIPPED

# Verdicts listed as one line per reason in a cell's details rather than as a block of their own.
BRIEF = frozenset({NOT_APPLICABLE, SKIPPED})
QUIET = BRIEF | {PASS}  # no block of their own
# What checks sharing a block may differ in: which check it is and how it was run, not what it found.
_NOT_EVIDENCE = ("id", "path", "variant", "rerun", "duration")


def outcome_views(checks: list[CheckRecord], known: dict[str, dict[str, Any]], codes: Codes) -> list[dict[str, Any]]:
    """The non-pass checks of one cell as blocks of evidence. Checks that differ only in path (and so in id and
    rerun command) share a block: a backend usually fails the same way on every path, and one block naming the
    paths reads better, and weighs less, than the same evidence again and again."""
    blocks: dict[str, list[CheckRecord]] = defaultdict(list)
    for c in checks:
        evidence = {k: v for k, v in c.to_json().items() if k not in _NOT_EVIDENCE}
        blocks[json.dumps(evidence, sort_keys=True, default=str)].append(c)
    return [block_view(cs, known, codes) for cs in blocks.values()]


def block_view(checks: list[CheckRecord], known: dict[str, dict[str, Any]], codes: Codes) -> dict[str, Any]:
    check = checks[0]
    actual = check.actual
    diff = check.first_diff
    message = str(check.message or "")
    return {"verdict": check.verdict, "letter": letter(check.verdict), "dtype": check.dtype,
            "paths": [path_text(c) for c in checks], "codes": codes.of(checks),
            "checks": [{"id": c.id, "rerun": c.rerun or c.id} for c in checks],
            # The summary line holds the message's first line; a longer message is shown whole below it.
            "headline": message.split("\n", 1)[0], "message": message if "\n" in message.strip() else None,
            "expected": outcome(check.expected),
            "actual_shape": shape(actual.shape) if actual else None, "actual_dtype": actual and actual.dtype,
            # The shape declared before running matters when it is not the shape that came out.
            "declared_shape": (shape(actual.declared_shape)
                               if actual and actual.declared_shape != actual.shape else None),
            "error": actual and actual.error, "stage": actual and actual.stage,
            "first_diff": diff and {"index": shape(diff.index), "expected": diff.expected, "actual": diff.actual,
                                    "count": diff.count, "size": diff.size},
            "known": known.get(known_key(check.known)) if isinstance(check.known, dict) else None}


def brief(checks: list[CheckRecord], codes: Codes) -> list[dict[str, Any]]:
    """Not-applicable and skipped checks, one entry per (verdict, reason) naming the paths it covers."""
    grouped: dict[tuple[str, str], list[CheckRecord]] = defaultdict(list)
    for c in checks:
        grouped[(c.verdict, str(c.message or "no reason given"))].append(c)
    return [{"verdict": v, "letter": letter(v), "reason": reason, "codes": codes.of(cs), "which": paths_and_dtypes(cs)}
            for (v, reason), cs in grouped.items()]


def matrix(cases: dict[str, dict[str, Any]], columns: list[str], checks: list[CheckRecord], codes: Codes,
           known: dict[str, dict[str, Any]]) -> tuple[dict[str, list[dict[str, Any]]], list[dict[str, Any]]]:
    """Matrix rows by case file, and the details of each case with a cell holding more than passes and skips:
    the case once, then one section per such cell."""
    by_cell: dict[tuple[str, str], list[CheckRecord]] = defaultdict(list)
    for c in checks:
        by_cell[(c.case, c.column)].append(c)
    files: dict[str, list[dict[str, Any]]] = defaultdict(list)
    details = []
    for case in sorted(cases.values(), key=lambda c: (str(c["file"]), c["line"] or 0, c["id"])):
        cells, sections = [], []
        for col in columns:
            found = sorted(by_cell[(case["id"], col)], key=lambda c: (rank(c.verdict), str(c.id)))
            tally = Tally.of(c.verdict for c in found)
            cell = None
            if any(v not in (PASS, SKIPPED) for v in tally.counts):
                cell = anchor("c", case["id"], col)
                shown = outcome_views([c for c in found if c.verdict not in QUIET], known, codes)
                sections.append({"column": col, "anchor": cell, "tally": tally, "checks": shown,
                                 "failing": any(c.verdict not in (KNOWN, *QUIET) for c in found),
                                 "known": list({id(k["known"]): k["known"] for k in shown if k["known"]}.values()),
                                 "brief": brief([c for c in found if c.verdict in BRIEF], codes)})
            cells.append({"column": col, "tally": tally, "anchor": cell, "codes": codes.of(found)})
        files[case["file"]].append({"case": case, "cells": cells, "anchor": anchor("r", case["id"])})
        if sections:
            details.append({"case": case, "anchor": anchor("d", case["id"]), "sections": sections,
                            "failing": any(s["failing"] for s in sections)})
    return files, details
