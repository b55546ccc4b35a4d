"""The adjoint of Broadcast: the gradient of the data, given delta, the gradient of the output.

nGraph Broadcast (004_f535a019e64b3d53.txt) defines it as ``arg_bar <- Sum(Delta, broadcast_axes)``. A Plan
(shapes.py) already says where the data was broadcast: along plan.new_axes (the output axes the data does not
have: nGraph's broadcast_axes, the axes axes_mapping skips, the leading axes of numpy and bidirectional mode),
and along the axes where a data dimension of 1 meets a larger (or 0) output dimension. One np.add.reduce over
those axes with keepdims=True gives the data's values in the data's axes lined up with the output, so the result
needs only a reshape. ``out=`` gets a copy of that result: a reduction straight into out may add in another
order, and a float sum depends on the order.

The sum is in delta's own type (``dtype=delta.dtype``: numpy's np.sum would widen int8 to int64): integers wrap,
float16 rounds at every step, and each element starts from +0, so a lone -0.0 sums to +0.0. Bool delta is a
TypeError: Sum is arithmetic, and nGraph's Sum refuses boolean data; so are strings, objects and dates. In
bidirectional mode this is the gradient of the data only: an axis where the target's 1 was stretched to the
data's dimension is not summed. Rules are checked first, as the ops check them.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike

from local_broadcast.ops import check_out
from local_broadcast.shapes import Plan, fast_plan, fast_plan_v0


def broadcast_adjoint(delta: ArrayLike, data_shape: Sequence[int], target_shape: object, axes_mapping: object = None,
                      mode: str = "numpy", *, op: str = "Broadcast-3", out: np.ndarray | None = None) -> np.ndarray:
    """The data gradient of Broadcast-3 (op="Broadcast-1", "Expand": those ops' rules), of shape data_shape.

    delta must have the forward op's output shape (else ValueError) and a number type (else TypeError); a
    broken rule of the forward op is its BroadcastError. ``out=``: as the ops take it (ops.py), of data_shape.
    """
    array = np.asarray(delta)
    dims = tuple(data_shape)
    call = _call(op, mode, array, dims, target_shape, axes_mapping)
    if any(d is None for d in dims):
        raise ValueError(f"data_shape={dims}, but should be known to run the op (None is a declared dimension) "
                         f"[{call()}]")
    dims = tuple(operator.index(d) for d in dims)
    return _sum(array, dims, fast_plan(dims, target_shape, axes_mapping, mode, op), out, call)


def broadcast_v0_adjoint(delta: ArrayLike, arg_shape: Sequence[int],
                         broadcast_axes: Sequence[int] | set[int] | np.ndarray, *,
                         out: np.ndarray | None = None) -> np.ndarray:
    """The arg gradient of nGraph Broadcast(arg, shape, broadcast_axes): Sum(delta, broadcast_axes).

    delta's shape is the forward op's ``shape``, so a delta that does not match arg_shape and broadcast_axes
    breaks rule v0_shape (or v0_axes_range), as that shape would.
    """
    array = np.asarray(delta)
    dims = tuple(operator.index(d) for d in arg_shape)
    found = fast_plan_v0(dims, array.shape, broadcast_axes)
    return _sum(array, dims, found, out, lambda: f"Broadcast-0 adjoint, arg {dims}, delta {array.shape}, "
                                                 f"broadcast_axes {_listed(broadcast_axes)}")


def _call(op: str, mode: str, delta: np.ndarray, data_shape: tuple[object, ...], target: object,
                 axes: object) -> Callable[[], str]:
    """The call, for messages: built only when one is raised."""
    mapping = "" if axes is None else f", axes_mapping {_listed(axes)}"
    return lambda: (f"{op} {mode} adjoint, data {data_shape}, target_shape {_listed(target)}{mapping}, "
                    f"delta {delta.shape}")


def _listed(value: object) -> object:
    return value.tolist() if isinstance(value, np.ndarray) else value


@lru_cache(maxsize=1024)
def summed_axes(data_shape: tuple[int, ...], plan: Plan) -> tuple[int, ...]:
    """The output axes the data was broadcast along: the added ones, and those a data dimension 1 stretched."""
    added = set(plan.new_axes)
    rest = iter(data_shape)
    # `axis in added` first: an added axis has no data dimension to take from rest.
    return tuple(axis for axis, size in enumerate(plan.shape) if axis in added or (next(rest) == 1 and size != 1))


def _sum(delta: np.ndarray, data_shape: tuple[int, ...], plan: Plan, out: np.ndarray | None,
         call: Callable[[], str]) -> np.ndarray:
    if delta.shape != plan.shape:
        raise ValueError(f"delta.shape={delta.shape}, but should be {plan.shape}, the output shape of the "
                         f"forward op [{call()}]")
    dtype = delta.dtype
    # ml_dtypes' bfloat16, float8 and 4-bit integers are numbers that numpy does not class as np.number.
    if not (np.issubdtype(dtype, np.number) or dtype.type.__module__ == "ml_dtypes"):
        raise TypeError(f"delta.dtype={dtype}, but should be a number type: the adjoint is a Sum, which is "
                        f"arithmetic (nGraph's Sum refuses boolean data) [{call()}]")
    if not dtype.isnative:
        raise TypeError(f"delta.dtype={dtype.str}, but should be in native byte order, the only one numpy sums "
                        f"in [{call()}]")
    axes = summed_axes(data_shape, plan)
    if out is not None:
        check_out(out, data_shape, dtype, call)
    # A 0-d sum is a numpy scalar: asarray makes it an array (any other sum is already a fresh one).
    summed = np.asarray(np.add.reduce(delta, axis=axes, dtype=dtype, keepdims=True)).reshape(data_shape)
    if out is None:
        return summed
    # Reducing straight into out may add in another order, and a float sum depends on the
    # order (1e308 - 1e308 + 3 is not 1e308 + 3 - 1e308): out gets the fresh sum's bits, copied.
    np.copyto(out, summed)
    return out
