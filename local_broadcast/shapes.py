"""Shape inference and validation: every rule of the spec, one ``if`` each, in the reference's order.

The result is a Plan: the output shape plus the axes at which length-1 axes are inserted into the data so
that it lines up with the output. The copy kernel needs nothing else, so no rule is re-derived there.

Order of checks (the same as reference/broadcast.py, so both name the same rule for an input that breaks
several): mode, then whether axes_mapping is given and is 1-D, then target_shape, then the mode's own rules.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

import numpy as np

from local_broadcast.errors import BroadcastError

# Which modes each op accepts; Broadcast-1 predates bidirectional, ONNX Expand has only that rule.
OP_MODES: dict[str, tuple[str, ...]] = {
    "Broadcast-1": ("numpy", "explicit"),
    "Broadcast-3": ("numpy", "explicit", "bidirectional"),
    "Expand": ("bidirectional",),
}


@dataclass(frozen=True)
class Plan:
    """How to build the output: its shape, and where data gets length-1 axes to reach that rank."""

    shape: tuple[int, ...]
    new_axes: tuple[int, ...]


def _show(value: object) -> str:
    try:
        return str(np.asarray(value).tolist())
    except ValueError:  # ragged nesting: numpy cannot even build the array
        return repr(value)


def _int_vector(op: str, mode: str | None, name: str, value: object, not_1d_rule: str) -> tuple[int, ...]:
    """A 1-D tensor of any integer type (list, tuple or ndarray) as Python ints, which cannot overflow."""
    try:
        array = np.asarray(value)
    except ValueError:
        raise BroadcastError(op, not_1d_rule, f"{name} {value!r}, which is not rectangular", mode) from None
    if array.ndim != 1:
        raise BroadcastError(op, not_1d_rule, f"{name} of rank {array.ndim}: {array.tolist()}", mode)
    # np.asarray([]) is float64, so only a non-empty tensor has a meaningful element type.
    if array.size and not (np.issubdtype(array.dtype, np.integer) or array.dtype == object):
        raise TypeError(f"{op}: {name} must be an integer tensor (T_SHAPE); got dtype {array.dtype}")
    try:
        return tuple(operator.index(v) for v in array.tolist())
    except TypeError:
        raise TypeError(f"{op}: {name} must hold integers (T_SHAPE); got {array.tolist()}") from None


def _check_mode(op: str, mode: str) -> None:
    if op not in OP_MODES:
        raise ValueError(f"op must be one of {', '.join(OP_MODES)}; got {op!r}")
    if op == "Broadcast-1" and mode == "bidirectional":
        raise BroadcastError(op, "bidirectional_not_in_v1", f"mode {mode!r}", mode)
    if mode not in OP_MODES[op]:
        accepted = ", ".join(OP_MODES[op])
        raise BroadcastError(op, "unknown_mode", f"mode {mode!r} ({op} accepts {accepted})", mode)


def _axes_mapping(op: str, mode: str, axes_mapping: object) -> tuple[int, ...] | None:
    if mode != "explicit":
        if axes_mapping is not None:
            raise BroadcastError(op, "axes_mapping_unexpected", f"axes_mapping {_show(axes_mapping)}", mode)
        return None
    if axes_mapping is None:
        raise BroadcastError(op, "axes_mapping_missing", "axes_mapping None", mode)
    return _int_vector(op, mode, "axes_mapping", axes_mapping, "axes_mapping_not_1d")


def _target_shape(op: str, mode: str, target_shape: object) -> tuple[int, ...]:
    target = _int_vector(op, mode, "target_shape", target_shape, "target_shape_not_1d")
    if any(t < 0 for t in target):
        raise BroadcastError(op, "target_shape_negative", f"target_shape {list(target)}", mode)
    return target


def _numpy_plan(op: str, data: tuple[int, ...], target: tuple[int, ...]) -> Plan:
    """Broadcast rules, "Numpy broadcast", one-directional: only data is stretched, never the target."""
    if len(target) < len(data):
        raise BroadcastError(op, "numpy_rank", f"data shape {data}, target_shape {list(target)}", "numpy")
    for axis in range(1, len(data) + 1):
        d, t = data[-axis], target[-axis]
        if d != t and d != 1:
            raise BroadcastError(op, "numpy_dim", f"data dimension {d} vs target {t} at axis {-axis} "
                                 f"(data shape {data}, target_shape {list(target)})", "numpy")
    return Plan(target, tuple(range(len(target) - len(data))))


def _bidirectional_plan(op: str, data: tuple[int, ...], target: tuple[int, ...]) -> Plan:
    """Broadcast rules, "Bidirectional broadcast": the shape of numpy.array(data) * numpy.ones(target)."""
    rank = max(len(data), len(target))
    padded_data = (1,) * (rank - len(data)) + data
    padded_target = (1,) * (rank - len(target)) + target
    shape = []
    for d, t in zip(padded_data, padded_target, strict=True):
        if d != t and d != 1 and t != 1:
            raise BroadcastError(op, "bidirectional_dim", f"data dimension {d} vs target {t} "
                                 f"(data shape {data}, target_shape {list(target)})", "bidirectional")
        # Whichever side is not 1 wins, so a target dim of 1 never shrinks the data (and 1 vs 0 gives 0).
        shape.append(t if d == 1 else d)
    return Plan(tuple(shape), tuple(range(rank - len(data))))


def _explicit_plan(op: str, data: tuple[int, ...], target: tuple[int, ...], axes: tuple[int, ...]) -> Plan:
    """Explicit mode: data axis i lands on output axis axes_mapping[i]; the other output axes replicate."""
    got = f"axes_mapping {list(axes)}"
    if len(axes) != len(data):
        raise BroadcastError(op, "explicit_length", f"{got} for data shape {data}", "explicit")
    if any(a < 0 for a in axes):
        raise BroadcastError(op, "explicit_negative", got, "explicit")
    if any(a >= len(target) for a in axes):
        raise BroadcastError(op, "explicit_range", f"{got} for target_shape {list(target)}", "explicit")
    # The spec states "sorted" only in prose; it rules out transposing data on the fly.
    if any(a > b for a, b in pairwise(axes)):
        raise BroadcastError(op, "explicit_unsorted", got, "explicit")
    if any(a == b for a, b in pairwise(axes)):
        raise BroadcastError(op, "explicit_duplicate", got, "explicit")
    for i, (d, a) in enumerate(zip(data, axes, strict=True)):
        # A data dimension of 1 mapped to N replicates: the suite's reading of a point the spec leaves open.
        if d != target[a] and d != 1:
            raise BroadcastError(op, "explicit_dim", f"data dimension {d} (axis {i}) mapped to target axis "
                                 f"{a} of size {target[a]} (data shape {data}, target_shape {list(target)})",
                                 "explicit")
    mapped = set(axes)
    return Plan(target, tuple(a for a in range(len(target)) if a not in mapped))


def plan(data_shape: Sequence[int], target_shape: object, axes_mapping: object = None, mode: str = "numpy",
         op: str = "Broadcast-3") -> Plan:
    """Validate a Broadcast-1/3 (or Expand) call and say how to build its output."""
    _check_mode(op, mode)
    axes = _axes_mapping(op, mode, axes_mapping)
    target = _target_shape(op, mode, target_shape)
    data = tuple(operator.index(d) for d in data_shape)
    if mode == "numpy":
        return _numpy_plan(op, data, target)
    if mode == "bidirectional":
        return _bidirectional_plan(op, data, target)
    assert axes is not None  # _axes_mapping returns axes for explicit mode or raises
    return _explicit_plan(op, data, target, axes)


def output_shape(data_shape: Sequence[int], target_shape: object, axes_mapping: object = None,
                 mode: str = "numpy", op: str = "Broadcast-3") -> tuple[int, ...]:
    """The output shape of Broadcast-1/3 (op="Broadcast-1" / "Broadcast-3"), or BroadcastError."""
    return plan(data_shape, target_shape, axes_mapping, mode, op).shape


def declared_shape(data_shape: Sequence[int | None], target_shape: object, axes_mapping: object = None,
                   mode: str = "numpy", op: str = "Broadcast-3") -> tuple[int | None, ...]:
    """The output shape a graph can declare before running when some data dimensions (None) are unknown.

    An unknown dimension is checked as a 1, which every rule accepts against any target dimension; the
    output then knows it except in bidirectional mode facing a target dimension of 1, where the data's
    own (unknown) size wins.
    """
    known = plan([1 if d is None else d for d in data_shape], target_shape, axes_mapping, mode, op).shape
    if mode != "bidirectional":
        return known
    offset = len(known) - len(data_shape)
    return tuple(None if i >= offset and data_shape[i - offset] is None and size == 1 else size
                 for i, size in enumerate(known))


def plan_v0(arg_shape: Sequence[int], shape: object, broadcast_axes: object) -> Plan:
    """nGraph Broadcast(arg, shape, broadcast_axes): broadcast_axes are the output axes that are added."""
    op = "Broadcast-0"
    out = _int_vector(op, None, "shape", shape, "target_shape_not_1d")
    # AxisSet is a set: accept a Python set, and let a repeated axis collapse as it would in one.
    if isinstance(broadcast_axes, (set, frozenset)):
        broadcast_axes = sorted(broadcast_axes)
    axes = tuple(sorted(set(_int_vector(op, None, "broadcast_axes", broadcast_axes, "axes_mapping_not_1d"))))
    if any(a < 0 or a >= len(out) for a in axes):
        raise BroadcastError(op, "v0_axes_range", f"broadcast_axes {list(axes)} for shape {list(out)}")
    kept = tuple(s for i, s in enumerate(out) if i not in axes)
    arg = tuple(operator.index(d) for d in arg_shape)
    if kept != arg:
        raise BroadcastError(op, "v0_shape", f"shape {list(out)} without axes {list(axes)} is {list(kept)}, "
                             f"arg shape {list(arg)}")
    # Checked last: a negative kept dimension already fails v0_shape above (as in the reference), so only
    # a negative size on an added axis is left to catch here.
    if any(s < 0 for s in out):
        raise BroadcastError(op, "target_shape_negative", f"shape {list(out)}")
    return Plan(out, axes)


def _key(value: object) -> tuple[int, ...] | None:
    """value as a tuple of ints when it plainly is a 1-D integer vector, else None (take the checked path).

    ``type(v) is int`` on purpose: True == 1 hashes alike, and a bool target_shape must still be refused.
    """
    if type(value) is list or type(value) is tuple:
        for v in value:
            if type(v) is not int:
                return None
        return tuple(value)
    if type(value) is np.ndarray and value.ndim == 1 and value.dtype.kind in "iu":
        return tuple(value.tolist())
    return None


@lru_cache(maxsize=1024)
def _cached_plan(data_shape: tuple[int, ...], target: tuple[int, ...], axes: tuple[int, ...] | None, mode: str,
                 op: str) -> Plan:
    return plan(data_shape, target, axes, mode, op)


@lru_cache(maxsize=1024)
def _cached_plan_v0(arg_shape: tuple[int, ...], shape: tuple[int, ...], axes: tuple[int, ...]) -> Plan:
    return plan_v0(arg_shape, shape, axes)


def fast_plan(data_shape: tuple[int, ...], target_shape: object, axes_mapping: object, mode: str, op: str) -> Plan:
    """plan(), memoised for the common call with plain integer vectors: a repeated small call then costs a
    dict lookup instead of a few microseconds of checks. Anything else takes plan() itself, so every
    rejection and its message are plan()'s (lru_cache never stores an exception)."""
    target = _key(target_shape)
    axes = None if axes_mapping is None else _key(axes_mapping)
    if target is None or (axes is None and axes_mapping is not None) or type(mode) is not str:
        return plan(data_shape, target_shape, axes_mapping, mode, op)
    return _cached_plan(data_shape, target, axes, mode, op)


def fast_plan_v0(arg_shape: tuple[int, ...], shape: object, broadcast_axes: object) -> Plan:
    """plan_v0(), memoised like fast_plan. A set of axes is sorted first, as plan_v0 itself does."""
    if isinstance(broadcast_axes, (set, frozenset)) and all(type(v) is int for v in broadcast_axes):
        broadcast_axes = sorted(broadcast_axes)
    target, axes = _key(shape), _key(broadcast_axes)
    if target is None or axes is None:
        return plan_v0(arg_shape, shape, broadcast_axes)
    return _cached_plan_v0(arg_shape, target, axes)
