"""The report's columns (backend@version) and the overview's tallies: per column, and broken down by mode, by
origin (case group, and upstream suite), by element type and, per backend, by path axis value."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from conformance.report.tally import Tally
from conformance.report.text import path_axes, path_items
from conformance.results.record import CheckRecord, Results
from conformance.verdicts import CRASH, ERROR, OUT_OF_MEMORY, TIMEOUT, WRONG_RULE

MODES = ("numpy", "explicit", "bidirectional")
# verdicts of a check whose error is no rejection by the runtime
NOT_REJECTIONS = frozenset({CRASH, TIMEOUT, OUT_OF_MEMORY, ERROR})
GROUPS = ("spec_example", "rule", "interpretation", "edge", "upstream", "found", "generated")


def backends_by_column(results: Results) -> dict[str, dict[str, Any]]:
    """Backend info by column; a single run keys backends by name, a merged one by backend@version."""
    out = {}
    for key, info in results.backends.items():
        name, version = info.name or key, info.version
        out[f"{name}@{version}" if version else name] = {"backend": name, "version": version,
                                                         "available": info.available, "reason": info.reason,
                                                         "hardware": info.hardware or [],
                                                         "targets": targets_view(info.targets)}
    return out


def targets_view(targets: dict[str, Any]) -> dict[str, Any] | None:
    """Where a backend ran, for the header: its axis, the values it ran on, those absent here with the reason."""
    if not targets:
        return None
    values = targets.get("values") or {}
    return {"axis": targets.get("axis"), "ran": [v for v, why in values.items() if why is None],
            "absent": [{"value": v, "reason": why} for v, why in values.items() if why is not None]}


def columns_of(backends: dict[str, dict[str, Any]], checks: list[CheckRecord]) -> list[str]:
    seen = dict.fromkeys([*backends, *(c.column for c in checks)])
    order = {col: i for i, col in enumerate(seen)}
    # Versions of one backend side by side, in the order the runs were given.
    return sorted(seen, key=lambda col: (backends[col]["backend"] if col in backends else col.split("@")[0],
                                         order[col]))


def tally_by_column(results: Results) -> dict[str, Tally]:
    by_col: dict[str, list[str]] = defaultdict(list)
    for c in results.checks:
        by_col[c.column].append(c.verdict)
    return {col: Tally.of(by_col[col]) for col in columns_of(backends_by_column(results), results.checks)}


def rejections_by_column(results: Results) -> dict[str, dict[str, Any]]:
    """Per column, the rejections of inputs the spec rejects: how many, by stage, and how many were for another
    rule than the one broken (wrong_rule, known or not) or matched no pattern of the backend's table of messages
    (unclassified: conformance/rejections)."""
    out: dict[str, dict[str, Any]] = defaultdict(lambda: {"total": 0, "wrong_rule": 0, "unclassified": 0,
                                                          "stages": defaultdict(int)})
    for c in results.checks:
        actual, verdict = c.actual, (c.known or {}).get("verdict") or c.verdict  # a known difference's own verdict
        if c.expected is None or c.expected.reject is None or actual is None or actual.error is None \
                or verdict in NOT_REJECTIONS:
            continue
        row = out[c.column]
        row["total"] += 1
        row["stages"][actual.stage or "?"] += 1
        wrong = verdict == WRONG_RULE
        row["wrong_rule"] += wrong
        row["unclassified"] += actual.rule is None and not wrong
    return {col: {**row, "stages": dict(row["stages"])} for col, row in out.items()}


# A breakdown row's name: a mode, group, suite or element type, or a path axis and its value.
Name = str | tuple[str, str]


def breakdown(checks: list[CheckRecord], names_of: Callable[[CheckRecord], Iterable[Name]], order: Iterable[Name],
              columns: list[str]) -> list[dict[str, Any]]:
    """Tallies per (name, column), a check counting under each of names_of(check); rows in `order` first, then
    any other name."""
    verdicts: dict[Name, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for c in checks:
        for name in names_of(c):
            verdicts[name][c.column].append(c.verdict)
    order = list(order)
    names = [n for n in order if n in verdicts] + sorted(set(verdicts) - set(order))
    return [{"name": n, "tallies": [Tally.of(verdicts[n][col]) for col in columns]} for n in names]


def origins(checks: list[CheckRecord], cases: dict[str, dict[str, Any]], columns: list[str]
            ) -> list[dict[str, Any]]:
    """Tallies per case group; the upstream group's row lists its suites (a case from several counts in each)."""
    groups = breakdown(checks, lambda c: (cases[c.case]["group"],), GROUPS, columns)
    suites = breakdown([c for c in checks if cases[c.case]["suites"]], lambda c: cases[c.case]["suites"], (),
                       columns)
    return [{**row, "suites": [{**s, "repo": s["name"].split(" ", 1)[0], "path": s["name"].partition(" ")[2]}
                               for s in suites] if row["name"] == "upstream" else []} for row in groups]


def by_path_axis(checks: list[CheckRecord], columns: list[str]) -> list[dict[str, Any]]:
    """Per backend, tallies per path axis value and column of that backend: a row per (axis, value) its checks
    name, grouped by axis, axes and values in order of first appearance. A check counts under each axis of its
    path; a check of no path (not applicable before any path was chosen) under none."""
    by_backend: dict[str, list[CheckRecord]] = defaultdict(list)
    for c in checks:
        by_backend[c.backend].append(c)
    backend_of = {c.column: c.backend for c in checks}
    out = []
    for backend in dict.fromkeys(backend_of[col] for col in columns if col in backend_of):
        cols = [col for col in columns if backend_of.get(col) == backend]
        axes = path_axes(dict.fromkeys(map(path_items, by_backend[backend])))
        rows = breakdown(by_backend[backend], path_items, [(a, v) for a, values in axes.items() for v in values], cols)
        if rows:
            out.append({"backend": backend, "columns": cols,
                        "axes": [(axis, [r for r in rows if r["name"][0] == axis]) for axis in axes]})
    return out
