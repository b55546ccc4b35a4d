"""The report's views of a run, of a case and of known differences, and the filter codes of checks.

Plain data only (anchors, formatted text, codes); the markup is in templates/. Everything taken from a results
file is untrusted text and is never marked safe. A case's own rows (its op's parameters) come from its op
(``Op.details``); the report knows nothing of any op's parameters.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
import textwrap
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from conformance import ops
from conformance.known.entries import KNOWN_DIR, REPRODUCERS_DIR, is_reproducer_path
from conformance.report.specs import spec_links
from conformance.report.tally import letter, rank
from conformance.report.text import anchor, dtype_order, duration, outcome, path_axes, path_items, path_text, web_link
from conformance.results.record import CaseRecord, CheckRecord, RunInfo
from conformance.verdicts import VERDICTS

# "<owner/repo> <path>: <test>", several joined by "; " (a test's own text may hold "; " or ": " too).
_SUITE = re.compile(r"(?:^|;\s*)([\w.-]+/[\w.-]+ [^\s:;]+):")
NO_SUITE = "(no upstream suite named)"


def upstream_suites(source: Any) -> list[str]:
    """The upstream suites (repository and file) a case's `source` names, each once, in order."""
    found = _SUITE.findall(source) if isinstance(source, str) else []
    return list(dict.fromkeys(found)) or [NO_SUITE]


def run_view(run: RunInfo) -> dict[str, Any]:
    packages = run.packages if isinstance(run.packages, Mapping) else {}
    return {"started": run.started, "finished": run.finished, "complete": bool(run.complete),
            "suite_commit": run.suite_commit, "python": run.python, "platform": run.platform, "cpu": run.cpu,
            # the command line that ran; a file written before it was recorded has pytest's arguments only, shown as
            # such ("pytest" and its arguments, the way it was started unknown)
            "argv": run.command or (shlex.join([*([] if str(run.argv[0]).endswith("pytest") else ["pytest"]),
                                                *map(str, run.argv)]) if run.argv else None),
            "argv_guessed": not run.command and bool(run.argv), "wall_time": duration(run.wall_time),
            "packages": sorted((str(k), v) for k, v in packages.items())}


def op_of(name: Any) -> ops.Op | None:
    """The op a results file names, if this process knows it: a built-in op, or an op package already imported
    (by the run that wrote the results). A results file is untrusted: the report never imports what it names."""
    if not isinstance(name, str) or (name not in ops.BUILTIN and name not in sys.modules):
        return None
    try:
        return ops.get(name)
    except (ImportError, ValueError, TypeError):  # OpNotFound is a ValueError
        return None


def op_rows(op: ops.Op | None, params: Any) -> list[tuple[str, str]]:
    """A case's parameters as (label, text) rows: the op's own, or each parameter as JSON for an op unknown here."""
    if op is not None:
        try:
            return [(str(label), str(value)) for label, value in op.details(params)]
        except Exception:  # noqa: BLE001  (an op's code on untrusted params: fall back to the raw rows)
            pass
    return [(str(k), json.dumps(v)) for k, v in params.items()] if isinstance(params, Mapping) else []


def _kind(op: ops.Op | None, params: Any) -> str:
    """What the matrix's "mode" column, filter and breakdown show: the op's first field, after the op's name but
    for Broadcast, the suite's first op (its mode: "numpy"; an elementwise case's auto_broadcast: "elementwise
    numpy", never counted with Broadcast's numpy mode)."""
    field = op.fields[0] if op is not None and op.fields else None
    value = params.get(field) if field is not None and isinstance(params, Mapping) else None
    if op is None or op.name == "broadcast":
        return "-" if value is None else str(value)
    return op.name if value is None else f"{op.name} {value}"


def case_view(case_id: str, record: CaseRecord | None) -> dict[str, Any]:
    record = record or CaseRecord()
    op = op_of(record.op)
    view: dict[str, Any] = {"id": case_id, "file": record.file or "(unknown file)", "line": record.line,
            "group": record.group or "-", "op": op.title if op is not None else str(record.op),
            "mode": _kind(op, record.params), "params": op_rows(op, record.params),
            "expect": outcome(record.expect), "spec_ref": record.spec_ref, "description": record.description,
            "source": record.source, "interpretation": record.interpretation,
            # As written, less the indentation of the list it sits in.
            "text": textwrap.dedent(record.text) if isinstance(record.text, str) else None}
    view["spec_links"] = spec_links(record.spec_ref, view["mode"] if record.op == "broadcast" else None)
    # Where an upstream case comes from, for the overview by origin and the suite filter.
    view["suites"] = upstream_suites(view["source"]) if view["group"] == "upstream" else []
    view["search"] = " ".join(str(view[k]) for k in ("id", "description", "file", "group", "spec_ref",
                                                      "source", "interpretation") if view[k])
    return view


# The URL keys of the filter bar's own fields (FIELDS in templates/_page.js.j2) and of a linked check: a path
# axis of one of these names is kept in the URL as "path.<axis>" instead.
FILTER_KEYS = frozenset({"col", "op", "mode", "group", "suite", "variant", "dtype", "v", "q", "check"})


def axis_key(axis: str) -> str:
    """The name of a path axis's filter, in the filter bar and the URL: the axis's own name where it is free."""
    return f"path.{axis}" if axis in FILTER_KEYS or axis.startswith("path.") else axis


class Codes:
    """Short codes for the check-level filters: each check of a cell is 'path.dtype.verdict' as indexes into the
    lists the page declares once, so the page can re-tally a cell for any path, path axis value and dtype. A path
    is coded by its label (the check's "variant", which the path filter chooses) and its axes (which the axis
    filters choose): one label may name different paths on different backends (opset13-init has a context on
    onnxruntime, none on openvino-onnx), so each (label, axes) has its own code, and the page declares each
    code's label and axis values."""

    def __init__(self, checks: Iterable[CheckRecord]) -> None:
        checks = list(checks)
        paths = dict.fromkeys((str(c.variant or ""), path_items(c)) for c in checks)  # in order of first appearance
        self.paths = sorted(paths)
        self.axes = path_axes(items for _, items in paths)
        self.dtypes = sorted({str(c.dtype or "") for c in checks}, key=dtype_order)
        self.verdicts = sorted({*VERDICTS, *(c.verdict for c in checks)}, key=lambda v: (rank(v), v))
        self._path = {x: i for i, x in enumerate(self.paths)}
        self._dtype = {x: i for i, x in enumerate(self.dtypes)}
        self._verdict = {v: i for i, v in enumerate(self.verdicts)}

    def path_code(self, check: CheckRecord) -> int:
        return self._path[(str(check.variant or ""), path_items(check))]

    def dtype_code(self, check: CheckRecord) -> int:
        return self._dtype[str(check.dtype or "")]

    def verdict_code(self, verdict: str) -> int:
        return self._verdict[verdict]

    def path_texts(self) -> list[str]:
        """Each path code's path as text.path_text writes it: axis by axis, or the label of a path of no axes."""
        return [", ".join(f"{a} {v}" for a, v in items) or label for label, items in self.paths]

    def of(self, checks: Iterable[CheckRecord]) -> str:
        return " ".join(f"{self.path_code(c)}.{self.dtype_code(c)}.{self.verdict_code(c.verdict)}" for c in checks)

    def page(self, checks: list[CheckRecord]) -> dict[str, Any]:
        """What the filter bar declares: the code lists (each path's label, and its axis values as 'axis.value'
        indexes into `axes`), and the choices offered (paths by backend, each axis's values)."""
        by_backend: dict[str, dict[str, str]] = defaultdict(dict)
        for c in checks:
            if c.variant:
                by_backend[c.backend].setdefault(str(c.variant), path_text(c))
        axis_index = {axis: (i, {v: j for j, v in enumerate(values)}) for i, (axis, values) in
                      enumerate(self.axes.items())}
        return {"variants": [label for label, _ in self.paths],
                "path_axes": [" ".join(f"{axis_index[a][0]}.{axis_index[a][1][v]}" for a, v in items)
                              for _, items in self.paths],
                "axes": [[axis, values] for axis, values in self.axes.items()],
                "dtypes": self.dtypes, "verdicts": self.verdicts, "letters": [letter(v) for v in self.verdicts],
                "variant_choices": [(b, sorted(paths.items())) for b, paths in sorted(by_backend.items())],
                "axis_choices": [{"key": axis_key(axis), "axis": axis, "index": i, "options": values}
                                 for i, (axis, values) in enumerate(self.axes.items())],
                "dtype_choices": [d for d in self.dtypes if d]}


def known_key(known: Mapping[str, Any]) -> str:
    return str(known.get("id") or json.dumps([known.get(k) for k in ("reason", "link", "reproducer")]))


def reproducer_view(reproducer: Any) -> dict[str, Any] | None:
    """An entry's reproducer as the report shows it. Entries name a script relative to conformance/known/ (e.g.
    reproducers/openvino/<id>.py): its text is read now, from this checkout, so a results file does not carry it.
    Older results hold the script's text inline, shown as it is. Only a .py file under
    conformance/known/reproducers/ is read: a results file is untrusted, and its path must not open other files."""
    if not isinstance(reproducer, str) or not reproducer.strip():
        return None
    if not is_reproducer_path(reproducer):
        return {"file": None, "text": reproducer, "missing": None}
    name = reproducer.strip()
    path = (KNOWN_DIR / name).resolve()
    if path.is_relative_to(REPRODUCERS_DIR.resolve()) and path.is_file():
        try:
            return {"file": name, "text": path.read_text(encoding="utf-8", errors="replace"), "missing": None}
        except OSError as e:
            return {"file": name, "text": None, "missing": f"cannot read it here: {e.strerror or e}"}
    return {"file": name, "text": None, "missing": "not in this checkout's conformance/known/reproducers/"}


def known_entries(checks: list[CheckRecord]) -> dict[str, dict[str, Any]]:
    """Each known difference once (a check only names it): reason, link and reproducer are long and shared
    by many checks, so repeating them per check would multiply the page. `index` is the entry's place in the page's
    data (matrix.page_data), from which the page lists the cells it explains."""
    entries: dict[str, dict[str, Any]] = {}
    for c in checks:
        known = c.known  # also on a check whose verdict differs from the entry's: it names the entry
        if not isinstance(known, Mapping):
            continue
        key = known_key(known)
        if key not in entries:
            label = str(known.get("id") or f"known difference {len(entries) + 1}")
            entries[key] = {"label": label, "anchor": anchor("kd", label), "reason": known.get("reason"),
                            "link": known.get("link"), "href": web_link(known.get("link")),
                            "reproducer": reproducer_view(known.get("reproducer")), "where": known.get("where"),
                            "verdict": known.get("verdict"), "may_pass": known.get("may_pass"),
                            "columns": Counter(), "index": len(entries)}
        entry = entries[key]
        entry["columns"][c.column] += 1
    for entry in entries.values():
        entry["checks"] = sum(entry["columns"].values())
        entry["columns"] = sorted(entry["columns"].items())
    return entries
