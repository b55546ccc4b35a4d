"""The elementwise functions a case runs: how many inputs each takes, how they broadcast, the element types the suite
feeds it and its result in numpy on inputs already broadcast to one shape. A backend maps these names to its own
ops (conformance/backends/openvino_elementwise.py: ``add`` is OpenVINO's Add); the local backend runs them all.

Element types are the few where results are exact and every runtime agrees on what exact means: f32 and i32 for
arithmetic, order and comparison (values are chosen so that nothing rounds or overflows: values.py), bool for
the logical ops, i32 and bool for the bitwise ops. Broadcasting does not depend on the element type; copying does,
and that is the Broadcast cases' concern.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import reduce

import numpy as np


@dataclass(frozen=True)
class Function:
    name: str
    arities: tuple[int, ...]  # the input counts it takes
    direction: str  # "multidirectional" or "unidirectional" (reference/elementwise.py)
    dtypes: tuple[str, ...]  # element types fed (of the inputs after a Select's condition)
    values: str  # the kind of values fed (values.py)
    compute: Callable[..., np.ndarray]  # numpy, on inputs of one shape
    first_rank: int | None = None  # the rank the first input must have (Gemm's A @ B is a matrix), or any


def _variadic(ufunc: np.ufunc) -> Callable[..., np.ndarray]:
    return lambda *inputs: reduce(ufunc, inputs)


def _squared_difference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    difference = np.subtract(a, b)
    return np.multiply(difference, difference)


def _mean(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.divide(np.add(a, b), a.dtype.type(2))


def _prelu(data: np.ndarray, slope: np.ndarray) -> np.ndarray:
    return np.where(data < 0, np.multiply(data, slope), data)


_NUMBERS = ("f32", "i32")
FUNCTIONS: dict[str, Function] = {f.name: f for f in [
    Function("add", (2, 3), "multidirectional", _NUMBERS, "arithmetic", _variadic(np.add)),
    Function("subtract", (2,), "multidirectional", _NUMBERS, "arithmetic", np.subtract),
    Function("multiply", (2,), "multidirectional", _NUMBERS, "arithmetic", np.multiply),
    Function("squared_difference", (2,), "multidirectional", _NUMBERS, "arithmetic", _squared_difference),
    Function("maximum", (2, 3), "multidirectional", _NUMBERS, "order", _variadic(np.maximum)),
    Function("minimum", (2, 3), "multidirectional", _NUMBERS, "order", _variadic(np.minimum)),
    Function("equal", (2,), "multidirectional", _NUMBERS, "comparison", np.equal),
    Function("less", (2,), "multidirectional", _NUMBERS, "comparison", np.less),
    Function("logical_and", (2,), "multidirectional", ("bool",), "bits", np.logical_and),
    Function("logical_or", (2,), "multidirectional", ("bool",), "bits", np.logical_or),
    Function("logical_xor", (2,), "multidirectional", ("bool",), "bits", np.logical_xor),
    Function("bitwise_and", (2,), "multidirectional", ("i32", "bool"), "bits", np.bitwise_and),
    Function("bitwise_or", (2,), "multidirectional", ("i32", "bool"), "bits", np.bitwise_or),
    Function("bitwise_xor", (2,), "multidirectional", ("i32", "bool"), "bits", np.bitwise_xor),
    Function("mean", (2,), "multidirectional", ("f32",), "arithmetic", _mean),  # of two: (a + b) / 2 is exact
    # shift amounts below the type's width (a wider shift is undefined in C++ and differs between runtimes)
    Function("bitshift_left", (2,), "multidirectional", ("u8", "u32"), "shift", np.left_shift),
    Function("bitshift_right", (2,), "multidirectional", ("u8", "u32"), "shift", np.right_shift),
    # select(condition, then, else): the condition is boolean, the element type is the other two's
    Function("select", (3,), "multidirectional", ("f32", "i32"), "select", np.where),
    # prelu(data, slope): the slope is stretched to data, never data to the slope
    Function("prelu", (2,), "unidirectional", ("f32",), "prelu", _prelu),
    # gemm_c(y, c): ONNX Gemm's C, stretched to Y = A @ B of shape (M, N); the backend makes Y of the first input by
    # a product with the identity (exact for the nonzero values fed), so the result is y + c
    Function("gemm_c", (2,), "unidirectional", ("f32",), "gemm", np.add, first_rank=2),
]}


def applicable(arity: int, direction: str, first_rank: int | None = None) -> tuple[str, ...]:
    """The functions that take this many inputs, broadcast in this direction (a first input of this rank)."""
    return tuple(f.name for f in FUNCTIONS.values() if arity in f.arities and f.direction == direction
                 and (f.first_rank is None or f.first_rank == first_rank))
