"""Reference Broadcast: one short function per mode, shape rules one per ``if``.

Spec files (../shared/spec/):
  000_ece0cbba5cb063a0.txt  Broadcast-3 (numpy, explicit, bidirectional)
  001/002                   Broadcast-1 (numpy, explicit)
  003_38ca088f58e9a6c7.txt  Broadcast rules for elementwise operations
  004_f535a019e64b3d53.txt  nGraph Broadcast(arg, shape, broadcast_axes)

Each rejection raises BroadcastRuleError whose ``rule`` is one of RULES; case files name the same rule
in ``expect: {reject: RULE}``.

A data dimension may be None: unknown when the graph is built (``?`` in a case file). The rules then say
what they can: a rule is broken only by known dimensions, and an output dimension is None only where it
is the unknown one (bidirectional, facing a target dimension of 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np

MODES = ("numpy", "explicit", "bidirectional")

RULES = {
    "unknown_mode": "mode is one of numpy, explicit, bidirectional",
    "target_shape_not_1d": "target_shape is a 1-D tensor",
    "target_shape_negative": "target_shape values are non-negative",
    "axes_mapping_unexpected": "axes_mapping is given in explicit mode only",
    "axes_mapping_missing": "explicit mode needs axes_mapping",
    "axes_mapping_not_1d": "axes_mapping is a 1-D tensor",
    "explicit_length": "axes_mapping has one entry per data axis",
    "explicit_negative": "axes_mapping values are non-negative",
    "explicit_range": "axes_mapping values are less than the target rank",
    "explicit_unsorted": "axes_mapping is sorted",
    "explicit_duplicate": "axes_mapping has no repeated axis",
    "explicit_dim": "a data dimension equals its mapped target dimension, or is 1",
    "numpy_rank": "target rank is at least the data rank",
    "numpy_dim": "a right-aligned data dimension equals the target dimension, or is 1",
    "bidirectional_dim": "right-aligned dimensions are equal, or one of them is 1",
    "v0_axes_range": "broadcast_axes are less than the output rank",
    "v0_shape": "shape with broadcast_axes removed equals the arg shape",
}


class BroadcastRuleError(ValueError):
    """An input breaks a rule of the spec; ``rule`` is the key in RULES."""

    def __init__(self, op: str, rule: str, detail: str) -> None:
        self.op = op
        self.rule = rule
        super().__init__(f"{op}: {RULES[rule]} [{rule}]; got {detail}")


def _check_target(op: str, target_shape: object) -> tuple[int, ...]:
    target = np.asarray(target_shape)
    if target.ndim != 1:
        raise BroadcastRuleError(op, "target_shape_not_1d", f"target_shape of rank {target.ndim}")
    if (target < 0).any():
        raise BroadcastRuleError(op, "target_shape_negative", f"target_shape {target.tolist()}")
    return tuple(int(t) for t in target)


def _check_axes_given(op: str, mode: str, axes_mapping: object) -> tuple[int, ...] | None:
    if mode not in MODES:
        raise BroadcastRuleError(op, "unknown_mode", f"mode {mode!r}")
    if mode != "explicit":
        if axes_mapping is not None:
            raise BroadcastRuleError(op, "axes_mapping_unexpected", f"axes_mapping {axes_mapping} in {mode} mode")
        return None
    if axes_mapping is None:
        raise BroadcastRuleError(op, "axes_mapping_missing", "no axes_mapping")
    axes = np.asarray(axes_mapping)
    if axes.ndim != 1:
        raise BroadcastRuleError(op, "axes_mapping_not_1d", f"axes_mapping of rank {axes.ndim}")
    return tuple(int(a) for a in axes)


Dims = tuple[int | None, ...]  # None: a dimension unknown until run time


def numpy_shape(op: str, data_shape: Dims, target: tuple[int, ...]) -> tuple[int, ...]:
    """Rules 1-4 of "Numpy broadcast", one-directional: data is stretched to target, never the reverse."""
    if len(target) < len(data_shape):
        raise BroadcastRuleError(op, "numpy_rank", f"data shape {data_shape}, target_shape {list(target)}")
    for d, t in zip(data_shape[::-1], target[::-1], strict=False):  # right-aligned
        if d is not None and d != t and d != 1:
            raise BroadcastRuleError(op, "numpy_dim", f"data dimension {d} vs target {t} "
                                     f"(data shape {data_shape}, target_shape {list(target)})")
    return target


def bidirectional_shape(op: str, data_shape: Dims, target: tuple[int, ...]) -> Dims:
    """"Bidirectional broadcast": the shape of numpy.array(input) * numpy.ones(target_shape). An unknown data
    dimension facing t != 1 must be 1 or t, so the output has t there; facing 1, it is the output's."""
    rank = max(len(data_shape), len(target))
    d_pad = (1,) * (rank - len(data_shape)) + data_shape
    t_pad = (1,) * (rank - len(target)) + target
    for d, t in zip(d_pad, t_pad, strict=True):
        if d is not None and d != t and d != 1 and t != 1:
            raise BroadcastRuleError(op, "bidirectional_dim", f"data dimension {d} vs target {t} "
                                     f"(data shape {data_shape}, target_shape {list(target)})")
    return tuple(t if d == 1 or (d is None and t != 1) else d for d, t in zip(d_pad, t_pad, strict=True))


def explicit_shape(op: str, data_shape: Dims, target: tuple[int, ...],
                   axes: tuple[int, ...]) -> tuple[int, ...]:
    """Explicit mode: data axis i goes to output axis axes_mapping[i]; the other output axes replicate."""
    if len(axes) != len(data_shape):
        raise BroadcastRuleError(op, "explicit_length", f"axes_mapping {list(axes)} for data rank {len(data_shape)}")
    if any(a < 0 for a in axes):
        raise BroadcastRuleError(op, "explicit_negative", f"axes_mapping {list(axes)}")
    if any(a >= len(target) for a in axes):
        raise BroadcastRuleError(op, "explicit_range", f"axes_mapping {list(axes)} for target rank {len(target)}")
    if any(a > b for a, b in zip(axes, axes[1:], strict=False)):
        raise BroadcastRuleError(op, "explicit_unsorted", f"axes_mapping {list(axes)}")
    if any(a == b for a, b in zip(axes, axes[1:], strict=False)):
        raise BroadcastRuleError(op, "explicit_duplicate", f"axes_mapping {list(axes)}")
    for d, a in zip(data_shape, axes, strict=True):
        # A data dimension of 1 mapped to N is accepted: the suite's reading of a point the spec leaves open
        # (see cases/interpretations.yaml).
        if d is not None and d != target[a] and d != 1:
            raise BroadcastRuleError(op, "explicit_dim", f"data dimension {d} mapped to target axis {a} "
                                     f"of size {target[a]}")
    return target


def output_shape(data_shape: Sequence[int | None], target_shape: object, axes_mapping: object = None,
                 mode: str = "numpy", op: str = "Broadcast-3") -> Dims:
    """The output shape the spec prescribes, or BroadcastRuleError naming the broken rule. With an unknown
    (None) data dimension: the shape a graph can declare before running, None where it cannot be known."""
    op = f"{op}({mode})"
    axes = _check_axes_given(op, mode, axes_mapping)
    target = _check_target(op, target_shape)
    data_shape = tuple(None if d is None else int(d) for d in data_shape)
    if mode == "numpy":
        return numpy_shape(op, data_shape, target)
    if mode == "bidirectional":
        return bidirectional_shape(op, data_shape, target)
    assert axes is not None
    return explicit_shape(op, data_shape, target, axes)


def broadcast(data: np.ndarray, target_shape: object, axes_mapping: object = None,
              mode: str = "numpy") -> np.ndarray:
    """Broadcast-3 in any mode (Broadcast-1 is the same without bidirectional): a new array of data's dtype."""
    # data.shape has no unknown (None) dimension, so neither has the output shape.
    shape = cast(tuple[int, ...], output_shape(data.shape, target_shape, axes_mapping, mode))
    if mode == "explicit":
        # Give data the output's rank: its own dimensions on the mapped axes, 1 on the others.
        aligned = [1] * len(shape)
        for d, a in zip(data.shape, np.asarray(axes_mapping).tolist(), strict=True):
            aligned[a] = d
        data = data.reshape(aligned)
    return np.broadcast_to(data, shape).copy()


def broadcast_numpy(data: np.ndarray, target_shape: object) -> np.ndarray:
    return broadcast(data, target_shape, None, "numpy")


def broadcast_bidirectional(data: np.ndarray, target_shape: object) -> np.ndarray:
    """Also ONNX Expand (opsets 8 and 13), which has exactly this rule."""
    return broadcast(data, target_shape, None, "bidirectional")


def broadcast_explicit(data: np.ndarray, target_shape: object, axes_mapping: object) -> np.ndarray:
    return broadcast(data, target_shape, axes_mapping, "explicit")


def v0_axes(op: str, arg_shape: tuple[int, ...], shape: tuple[int, ...], broadcast_axes: Sequence[int],
            name: str = "shape") -> tuple[int, ...]:
    """broadcast_axes as a sorted tuple (an AxisSet), checked: "The shape of arg must match shape with elements
    in broadcast_axes removed." ``name`` says which argument ``shape`` is: the forward op's, or delta's."""
    axes = sorted(set(int(a) for a in broadcast_axes))
    if any(a < 0 or a >= len(shape) for a in axes):
        raise BroadcastRuleError(op, "v0_axes_range", f"broadcast_axes {axes} for {name} {list(shape)}")
    kept = tuple(s for i, s in enumerate(shape) if i not in axes)
    if kept != arg_shape:
        raise BroadcastRuleError(op, "v0_shape", f"{name} {list(shape)} without axes {axes} is {list(kept)}, "
                                 f"arg shape {list(arg_shape)}")
    return tuple(axes)


def broadcast_v0(arg: np.ndarray, shape: Sequence[int], broadcast_axes: Sequence[int]) -> np.ndarray:
    """nGraph Broadcast(arg, shape, broadcast_axes): output[C] = arg[p(C)], p drops the broadcast axes."""
    op = "Broadcast-0"
    shape = _check_target(op, shape)
    axes = v0_axes(op, arg.shape, shape, broadcast_axes)
    return np.broadcast_to(np.expand_dims(arg, axes), shape).copy()


# --- The adjoint (004_f535a019e64b3d53.txt): the gradient of Broadcast ---------------------------------------

def _check_delta(op: str, delta: np.ndarray) -> None:
    """Sum is arithmetic: delta holds numbers (nGraph's Sum refuses boolean data: "Element type of data input
    must be numeric"), in native byte order (numpy sums in no other)."""
    # ml_dtypes' bfloat16, float8 and 4-bit integers are numbers that numpy does not class as np.number.
    if not (np.issubdtype(delta.dtype, np.number) or delta.dtype.type.__module__ == "ml_dtypes"):
        raise TypeError(f"{op}: delta has a number element type (the adjoint is a Sum); got dtype {delta.dtype}")
    if not delta.dtype.isnative:
        raise TypeError(f"{op}: delta is in native byte order; got dtype {delta.dtype.str}")


def broadcast_adjoint(delta: np.ndarray, data_shape: Sequence[int], target_shape: object,
                      axes_mapping: object = None, mode: str = "numpy") -> np.ndarray:
    """The gradient of Broadcast-1/3 with respect to data, given delta, the gradient of its output.

    004 defines it for nGraph Broadcast, whose broadcast_axes are the output axes that data does not have:
    "arg_bar <- Sum(Delta, broadcast_axes)". Broadcast-1/3 also stretch a data dimension of 1 to the output's,
    so data was broadcast along the added axes *and* those: delta is summed over both, then shaped as data.

    The sum is in delta's own type (numpy's, from +0: a lone -0.0 sums to +0.0, integers wrap). In
    bidirectional mode it is the gradient of data only: an axis where the target's 1 was stretched to the
    data's dimension is not summed (target_shape is an index, it has no gradient).
    """
    op = f"Broadcast-3({mode}) adjoint"
    delta = np.asarray(delta)
    data_shape = tuple(data_shape)
    if None in data_shape:
        raise ValueError(f"{op}: data_shape is known to run the op; got {data_shape}")
    shape = output_shape(data_shape, target_shape, axes_mapping, mode)
    if delta.shape != shape:
        raise ValueError(f"{op}: delta has the output shape of the forward op; got delta shape {delta.shape}, "
                         f"output shape {shape}")
    _check_delta(op, delta)
    # Where each data axis lands in the output: axes_mapping, or right-aligned as broadcast() lines them up.
    if mode == "explicit":
        data_axes = [int(a) for a in np.asarray(axes_mapping).tolist()]
    else:
        data_axes = list(range(len(shape) - len(data_shape), len(shape)))
    added = [a for a in range(len(shape)) if a not in data_axes]
    stretched = [a for d, a in zip(data_shape, data_axes, strict=True) if d == 1 and shape[a] != 1]
    summed = np.sum(delta, axis=tuple(sorted(added + stretched)), dtype=delta.dtype)
    return np.asarray(summed).reshape(data_shape)  # a 0-d sum is a numpy scalar


def broadcast_v0_adjoint(delta: np.ndarray, arg_shape: Sequence[int], broadcast_axes: Sequence[int]) -> np.ndarray:
    """The gradient of nGraph Broadcast(arg, shape, broadcast_axes) with respect to arg, as 004 defines it:

        For a coordinate C, let p(C) be a coordinate with the axes in broadcast_axes removed. [...] Then
        output_C = arg_p(C).                    Backprop:  arg_bar <- Sum(Delta, broadcast_axes).

    delta has the output's shape (``shape`` of the forward op). The sum is in delta's type, as in
    broadcast_adjoint.
    """
    op = "Broadcast-0 adjoint"
    delta = np.asarray(delta)
    axes = v0_axes(op, tuple(int(d) for d in arg_shape), delta.shape, broadcast_axes, "delta shape")
    _check_delta(op, delta)
    return np.asarray(np.sum(delta, axis=axes, dtype=delta.dtype))
