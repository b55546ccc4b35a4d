"""The public operations: validate with shapes.plan*, then copy with kernel.replicate (or view).

Spec files (/work/shared/spec/): 000 Broadcast-3, 001/002 Broadcast-1, 003 broadcast rules, 004 nGraph
Broadcast (v0). ONNX Expand (opsets 8 and 13) is the bidirectional rule.

Every op returns one of three things:
``copy=True`` (default)  a new C-contiguous, writeable array that shares no memory with the data or with any
                         other live array (a large one may reuse the memory of an output the caller dropped:
                         pool.py);
``out=array``            the same, written into ``array`` (C-contiguous, writeable, exact shape and dtype,
                         else TypeError or ValueError), which is returned; it may overlap the data;
``copy=False``           a read-only view of the data with stride 0 along the broadcast axes: no copy, but it
                         changes when the data does.
Rules are checked first: a call that breaks one raises BroadcastError whatever ``out`` is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike

from local_broadcast.kernel import replicate, view
from local_broadcast.shapes import Plan, fast_plan, fast_plan_v0


def broadcast_v3(data: ArrayLike, target_shape: object, axes_mapping: object = None, mode: str = "numpy", *,
                 out: np.ndarray | None = None, copy: bool = True) -> np.ndarray:
    """OpenVINO Broadcast-3 in mode numpy, explicit or bidirectional; BroadcastError on a broken rule."""
    array = np.asarray(data)
    found = fast_plan(array.shape, target_shape, axes_mapping, mode, "Broadcast-3")
    return _result(array, found, out, copy, lambda: _call("Broadcast-3", mode, array, target_shape, axes_mapping))


def broadcast_v1(data: ArrayLike, target_shape: object, axes_mapping: object = None, mode: str = "numpy", *,
                 out: np.ndarray | None = None, copy: bool = True) -> np.ndarray:
    """OpenVINO Broadcast-1: numpy or explicit mode; bidirectional is rule bidirectional_not_in_v1."""
    array = np.asarray(data)
    found = fast_plan(array.shape, target_shape, axes_mapping, mode, "Broadcast-1")
    return _result(array, found, out, copy, lambda: _call("Broadcast-1", mode, array, target_shape, axes_mapping))


def expand(data: ArrayLike, shape: object, *, out: np.ndarray | None = None, copy: bool = True) -> np.ndarray:
    """ONNX Expand: bidirectional, so the output can be larger than ``shape`` (data (3, 1), shape [2, 1, 6]
    gives (2, 3, 6))."""
    array = np.asarray(data)
    found = fast_plan(array.shape, shape, None, "bidirectional", "Expand")
    return _result(array, found, out, copy, lambda: _call("Expand", None, array, shape, None))


def broadcast_v0(arg: ArrayLike, shape: Sequence[int] | np.ndarray,
                 broadcast_axes: Sequence[int] | set[int] | np.ndarray, *,
                 out: np.ndarray | None = None, copy: bool = True) -> np.ndarray:
    """nGraph Broadcast(arg, shape, broadcast_axes): output[C] = arg[p(C)], p drops the broadcast_axes."""
    array = np.asarray(arg)
    found = fast_plan_v0(array.shape, shape, broadcast_axes)
    return _result(array, found, out, copy,
                   lambda: f"Broadcast-0, arg {array.shape}, shape {_listed(shape)}, "
                           f"broadcast_axes {_listed(broadcast_axes)}")


def _listed(value: object) -> object:
    return value.tolist() if isinstance(value, np.ndarray) else value


def _call(op: str, mode: str | None, data: np.ndarray, target: object, axes: object) -> str:
    where = op if mode is None else f"{op} {mode}"
    mapping = "" if axes is None else f", axes_mapping {_listed(axes)}"
    return f"{where}, data {data.shape}, target_shape {_listed(target)}{mapping}"


def _result(data: np.ndarray, plan: Plan, out: np.ndarray | None, copy: bool, call: Callable[[], str]) -> np.ndarray:
    if out is None:
        return replicate(data, plan) if copy else view(data, plan)
    if not copy:
        raise ValueError(f"copy=False with out=: a view is never written into out; pass one of them [{call()}]")
    check_out(out, plan.shape, data.dtype, call)
    return replicate(data, plan, out)


def check_out(out: object, shape: tuple[int, ...], dtype: np.dtype, call: Callable[[], str]) -> None:
    """out must be an ndarray the kernel can fill as it is: no cast, no reshape, no hidden copy."""
    if not isinstance(out, np.ndarray):
        raise TypeError(f"type(out)={type(out).__name__}, but should be numpy.ndarray [{call()}]")
    if out.dtype != dtype:  # != also tells byte orders apart: '>f8' is not float64
        raise TypeError(f"out.dtype={out.dtype.str} ({out.dtype}), but should be {dtype.str} ({dtype}): "
                        f"Broadcast copies the data's own type, it never casts [{call()}]")
    if out.shape != shape:
        raise ValueError(f"out.shape={out.shape}, but should be {shape} [{call()}]")
    flags = out.flags
    if not flags.writeable:
        raise ValueError(f"out.flags.writeable=False, but should be True [{call()}]")
    if not flags.c_contiguous:
        raise ValueError(f"out.flags.c_contiguous=False, but should be True: the kernel writes whole rows of a "
                         f"C-ordered array; pass np.empty(shape, dtype) or a C-contiguous slice [{call()}]")
