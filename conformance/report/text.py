"""How the report writes values as text: element ids, shapes, outcomes, durations, a check's path; and the order
of element types and of path axes. Shared by every report module; it imports none of them.

Everything given here comes from a results file and is untrusted: these functions return plain text (escaped
by the templates), and only an http(s) link ever becomes an href.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from conformance.results.record import CheckRecord, Expected


def anchor(*parts: str) -> str:
    """An element id that survives a URL fragment and getElementById whatever a case id or column holds;
    the escaping is one-to-one and never produces '~' or '=', so parts stay apart and filter hashes differ."""
    return "~".join(re.sub(r"[^A-Za-z0-9_.@-]", lambda m: f":{ord(m.group()):x}:", str(p)) for p in parts)


def web_link(link: Any) -> str | None:
    """`link` if it is an http(s) URL, else None: a results file could carry a javascript: URL."""
    return link if isinstance(link, str) and re.match(r"https?://", link, re.IGNORECASE) else None


def shape(dims: Any) -> str | None:
    """(2, 3) for a shape, ? for a dimension unknown before running; anything else as JSON."""
    if dims is None:
        return None
    if not (isinstance(dims, list) and all(isinstance(d, int) or d is None for d in dims)):
        return json.dumps(dims)
    shown = ["?" if d is None else str(d) for d in dims]
    return f"({shown[0]},)" if len(shown) == 1 else f"({', '.join(shown)})"


def outcome(expected: Expected | None) -> str | None:
    """An expected outcome in a line: its shape and dtype, or the rule a rejection must name."""
    if expected is None:
        return None
    if expected.reject is not None:
        return f"reject: {expected.reject}"
    return " ".join(s for s in (shape(expected.shape), expected.dtype) if s) or None


def duration(seconds: Any) -> str | None:
    if not isinstance(seconds, (int, float)):
        return None
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes} min {secs:02d} s" if minutes < 60 else f"{minutes // 60} h {minutes % 60:02d} min"


def dtype_order(name: str) -> tuple[int, int, str]:
    """bool, then integers and floats by width (i8 u8 … i64 u64 f16 f32 f64), then anything else by name."""
    m = re.fullmatch(r"([iuf])(\d+)", name)
    if name == "bool":
        return (0, 0, name)
    return (1 if m[1] in "iu" else 2, int(m[2]), name) if m else (3, 0, name)


def path_items(check: CheckRecord) -> tuple[tuple[str, str], ...]:
    """A check's path as (axis, value) pairs, in the order its record lists them; () for a check of no path (one
    not applicable before any path was chosen, or a /1 label this suite cannot read)."""
    path = check.path
    return tuple((str(a), str(v)) for a, v in path.items()) if isinstance(path, Mapping) else ()


def path_text(check: CheckRecord) -> str:
    """A check's path for people, axis by axis ("opset 3, target_shape Parameter"); its label where a file names
    no axes (a /1 label this suite cannot read), and "" for a check of no path."""
    return ", ".join(f"{name} {value}" for name, value in path_items(check)) or str(check.variant or "")


def path_axes(paths: Iterable[tuple[tuple[str, str], ...]]) -> dict[str, list[str]]:
    """The axes some paths (as path_items gives them) name, each with its values, in order of first appearance: a
    results file does not record the order a backend declares its axes in, but its paths list them in that order."""
    seen: dict[str, dict[str, None]] = {}
    for path in paths:
        for axis, value in path:
            seen.setdefault(axis, {})[value] = None
    return {axis: list(values) for axis, values in seen.items()}


def paths_and_dtypes(checks: Iterable[CheckRecord]) -> list[tuple[list[str], list[str]]]:
    """The paths and element types of some checks, compactly: paths with the same element types together."""
    by_path: dict[str, list[str]] = defaultdict(list)
    for c in checks:
        by_path[path_text(c)].append(str(c.dtype or ""))
    by_dtypes: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for path, dtypes in sorted(by_path.items()):
        by_dtypes[tuple(sorted(set(dtypes), key=dtype_order))].append(path)
    return [([p for p in paths if p], [d for d in dtypes if d]) for dtypes, paths in by_dtypes.items()]


# Lines of a runtime's error that say where, not what: "Exception from src/inference/src/cpp/infer_request.cpp:224:",
# "Check 'x' failed at src/core/src/op/broadcast.cpp:40:", a Python traceback's 'File "x.py", line 61, in run'.
_WHERE_ONLY = re.compile(r"(?:Exception from \S+:\d+:?|Check '.*' failed at \S+:\d+:?|File \".*\", line \d+(?:, in .*)?"
                         r"|Traceback \(most recent call last\):|\^+|~+)")


def key_line(error: str) -> str:
    """The line of a runtime's (multi-line) error that says what went wrong: the last one that is not a location
    alone. OpenVINO writes where first, through every layer it passed ("Exception from ...:224:"), and what last
    ("unsupported src_prc: f8e4m3"); a Python traceback ends with the exception."""
    lines = [line.strip() for line in error.splitlines() if line.strip()]
    telling = [line for line in lines if not _WHERE_ONLY.fullmatch(line)]
    return (telling or lines or [""])[-1]


def told(message: str, error: str | None) -> str:
    """A check's message with the runtime's multi-line error it quotes cut to its key line: the details show the
    error in full once, below it."""
    if not error or "\n" not in error.strip() or error not in message:
        return message
    return message.replace(error, key_line(error))
