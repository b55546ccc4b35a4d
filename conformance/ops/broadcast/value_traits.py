"""The traits of a Broadcast case that speak of the values a check feeds (conformance/known/, conformance/ops/broadcast/
traits.py holds the rest and merges these in): conformance/data.py puts the values a lossy copy changes first in
every input, so whether an input holds one depends on its element count only, and each of these holds only where
the spec gives a non-empty output that shows the value."""

from __future__ import annotations

import math
from collections.abc import Callable

import ml_dtypes
import numpy as np

from conformance.data import DTYPES, make_data, salt, specials_held
from conformance.ops.broadcast.params import BroadcastParams as Case
from conformance.ops.broadcast.params import outcome, to_json

INT32_MAX = 2**31 - 1
F32_MAX = float(np.finfo(np.float32).max)


def _bits(a: np.ndarray) -> np.ndarray:
    return a.view(f"u{a.dtype.itemsize}")


def _quiet64(a: np.ndarray) -> np.ndarray:
    """An f64 array's bits with every NaN made quiet, as arithmetic makes it."""
    bits = _bits(a)
    return np.where(np.isnan(a), bits | np.uint64(1 << 51), bits)


# What a lossy copy changes, by the element type whose special values show it: the i64/u64 round trip through
# int32, wrapping (OpenVINO from 2025.4) or clamping (before); f64 through f32; a NaN's payload; a subnormal.
Changed = tuple[str, Callable[[np.ndarray], np.ndarray]]
I64_BEYOND_INT32: Changed = ("i64", lambda v: (v < -2**31) | (v > INT32_MAX))
U64_BEYOND_UINT32: Changed = ("u64", lambda v: v.astype(np.int32).astype(np.uint64) != v)
U64_BEYOND_INT32: Changed = ("u64", lambda v: v > INT32_MAX)
U32_BEYOND_INT32: Changed = ("u32", lambda v: v > INT32_MAX)
# OpenVINO's CPU plugin converts f64 to f32 clamping to f32's finite range first: infinities come back finite
F64_INEXACT_IN_F32: Changed = ("f64", lambda v: _bits(np.clip(v, -F32_MAX, F32_MAX).astype(np.float32)
                                                      .astype(np.float64)) != _bits(v))
# ... and where an op computes with the value (Add), which makes a NaN quiet on both sides (bit 51 set)
F64_INEXACT_IN_F32_QUIETED: Changed = ("f64", lambda v: _quiet64(np.clip(v, -F32_MAX, F32_MAX).astype(np.float32)
                                                                 .astype(np.float64)) != _quiet64(v))
# every float type holds the same kinds at the same places (conformance.data.FLOAT_KINDS): bf16 speaks for all
NAN_PAYLOAD: Changed = ("bf16", lambda v: np.isnan(v.astype(np.float32)) & ((_bits(v) & 0x7FFF) != 0x7FC0))
SIGNALLING_NAN: Changed = ("bf16", lambda v: np.isnan(v.astype(np.float32)) & ((_bits(v) & 0x40) == 0))
SUBNORMAL: Changed = ("bf16", lambda v: (v.astype(np.float64) != 0)
                      & (np.abs(v.astype(np.float64)) < float(ml_dtypes.finfo(DTYPES["bf16"]).tiny)))
# finite f32 beyond bf16's largest finite value (which OpenVINO's CPU plugin clamps f32 Constants to under bf16)
BF16_MAX = float(ml_dtypes.finfo(ml_dtypes.bfloat16).max)
F32_BEYOND_BF16_MAX: Changed = ("f32", lambda v: np.isfinite(v) & (np.abs(v.astype(np.float64)) > BF16_MAX))
NEGATIVE_ZERO: Changed = ("bf16", lambda v: _bits(v) == 0x8000)


def static_shape(case: Case) -> tuple[int, ...] | None:
    """The data shape, where every dimension of it is known."""
    dims = tuple(d for d in case.data_shape if d is not None)
    return dims if len(dims) == len(case.data_shape) else None


def spec_output(case: Case) -> tuple[int, ...] | None:
    """The spec's output shape, where the inputs are valid and it is known."""
    shape, _ = outcome(case)
    if shape is None:
        return None
    dims = tuple(int(d) for d in shape if d is not None)
    return dims if len(dims) == len(shape) else None


def output_has_at_least(count: int) -> Callable[[Case], bool]:
    """A trait's test: the spec's output (valid inputs, a known shape) has ``count`` elements or more."""
    return lambda case: (o := spec_output(case)) is not None and math.prod(o) >= count


def _salt(case: Case) -> str:
    """The salt of the case's data (conformance.data.salt), as the harness makes it (conformance/run/execute.py)."""
    return salt(to_json(case))


def _shows(case: Case, changed: Changed) -> bool:
    """The input holds a special value that ``changed`` flags (in the type it names), and the output shows it."""
    out, data = spec_output(case), static_shape(case)
    if out is None or math.prod(out) <= 0 or data is None:
        return False
    dtype, flags = changed
    with np.errstate(over="ignore", invalid="ignore"):
        return bool(np.any(flags(specials_held(data, dtype, _salt(case)))))


def _one_f64_value_zero_in_f32(case: Case) -> bool:
    """The data holds one element, and its f64 value is not -0.0 but is 0 once cast to f32 (+0.0, an f64 subnormal,
    f64's smallest normal: anything below half f32's smallest subnormal), and the output has elements."""
    data, out = static_shape(case), spec_output(case)
    if data is None or math.prod(data) != 1 or out is None or math.prod(out) == 0:
        return False
    value = specials_held(data, "f64", _salt(case))[:1]
    with np.errstate(over="ignore", invalid="ignore"):
        return int(_bits(value)[0]) != 1 << 63 and bool(value.astype(np.float32)[0] == 0)


def _payload_nan_in_tail(case: Case, block: int = 8) -> bool:
    """The float16 output (the case's f16 data broadcast to the spec's shape) holds a NaN with a payload among its
    last n mod ``block`` elements in flat order (n: its element count)."""
    out, data = spec_output(case), static_shape(case)
    if case.mode == "explicit" or out is None or data is None or not 0 < math.prod(out) <= 2**20:
        return False  # explicit mode maps axes as numpy does not
    try:
        values = np.broadcast_to(make_data(data, "f16", _salt(case)), out).reshape(-1).view(np.uint16)
    except ValueError:  # an output the data does not broadcast to by numpy's rule
        return False
    tail = values[len(values) - len(values) % block:]
    return bool(np.any(((tail & 0x7C00) == 0x7C00) & ((tail & 0x3FF) != 0) & ((tail & 0x3FF) != 0x200)))


def _same_reversed_counting_nans_equal(t: np.ndarray) -> bool:
    """With its dimensions of 1 left out, the tensor's shape reads the same reversed, and reversing its axes keeps,
    in flat order, a NaN wherever it has one and the same value elsewhere (-0.0 as 0.0), while its bits change."""
    squeezed = tuple(d for d in t.shape if d != 1)
    if squeezed != squeezed[::-1]:
        return False
    flat, turned = t.reshape(-1), np.ascontiguousarray(t.transpose()).reshape(-1)
    nan = np.isnan(flat)
    return (bool(np.array_equal(nan, np.isnan(turned))) and bool(np.all(flat[~nan] == turned[~nan]))
            and not np.array_equal(_bits(flat), _bits(turned)))


def _transposed_equal_counting_nans_equal(case: Case) -> bool:
    """The f32 data or the spec's output (the tensors the Transpose context turns) is
    ``_same_reversed_counting_nans_equal``, and the output's shape is not the data's; every float type holds the
    same kinds at the same places: f32 speaks for all but the float8 types (whose NaNs are fewer)."""
    data, out = static_shape(case), spec_output(case)
    if case.mode == "explicit" or data is None or out is None or not 0 < math.prod(out) <= 2**16:
        return False  # explicit mode maps axes as numpy does not
    if tuple(out) == data:
        return False  # a broadcast that changes nothing: the context's two Transposes meet and cancel
    values = make_data(data, "f32", _salt(case))
    try:
        output = np.broadcast_to(values, out)
    except ValueError:
        return False
    return _same_reversed_counting_nans_equal(values) or _same_reversed_counting_nans_equal(output)


VALUE_TRAITS: dict[str, tuple[Callable[[Case], bool], str]] = {
    "f16_nan_payload_in_last_partial_8": (_payload_nan_in_tail, "the output (of f16 data) holds a NaN with a payload "
                                          "among its last n mod 8 elements (n: its element count), in flat order"),
    "i64_data_beyond_int32": (lambda c: _shows(c, I64_BEYOND_INT32),
                              "an i64 input holds a value int32 cannot carry, and the output shows it"),
    "u64_data_beyond_uint32": (lambda c: _shows(c, U64_BEYOND_UINT32),
                               "a u64 input holds a value of 2**32 or more that an int32 round trip changes, and "
                               "the output shows it"),
    "u64_data_beyond_int32": (lambda c: _shows(c, U64_BEYOND_INT32),
                              "a u64 input holds a value above 2**31 - 1, and the output shows it"),
    "f64_data_inexact_in_f32": (lambda c: _shows(c, F64_INEXACT_IN_F32),
                                "an f64 input holds a value that f32 cannot carry once clamped to f32's finite "
                                "range (infinities included), and the output shows it"),
    "f64_data_inexact_in_f32_quieted": (lambda c: _shows(c, F64_INEXACT_IN_F32_QUIETED),
                                        "an f64 input holds a value that f32 cannot carry once clamped to f32's "
                                        "finite range, NaNs made quiet on both sides (as an Add makes them), and the "
                                        "output shows it"),
    "nan_payload_in_data": (lambda c: _shows(c, NAN_PAYLOAD),
                            "a float input holds a NaN with a payload (a signalling NaN has one), and the output "
                            "shows it"),
    "signalling_nan_in_data": (lambda c: _shows(c, SIGNALLING_NAN),
                               "a float input holds a signalling NaN, and the output shows it"),
    "u32_data_beyond_int32": (lambda c: _shows(c, U32_BEYOND_INT32),
                              "a u32 input holds a value above 2**31 - 1, and the output shows it"),
    "subnormal_in_data": (lambda c: _shows(c, SUBNORMAL),
                          "a float input holds a subnormal (the smallest or the largest, of either sign), and the "
                          "output shows it"),
    "f32_data_beyond_bf16_max": (lambda c: _shows(c, F32_BEYOND_BF16_MAX),
                                 "an f32 input holds a finite value beyond bf16's largest (f32's max or lowest), "
                                 "and the output shows it"),
    "negative_zero_in_data": (lambda c: _shows(c, NEGATIVE_ZERO),
                              "a float input holds -0.0, and the output shows it"),
    "transposed_equal_counting_nans_equal": (_transposed_equal_counting_nans_equal,
                                             "the float data or the output, its axes reversed, holds a NaN where it "
                                             "held one and the same value elsewhere in flat order (its dimensions "
                                             "of 1 left out, the shape reads the same reversed), with other bits; "
                                             "the output's shape is not the data's"),
    "f64_one_value_zero_in_f32": (_one_f64_value_zero_in_f32,
                                  "the data holds one element, whose f64 value is not -0.0 but is 0 in f32 (+0.0, an "
                                  "f64 subnormal or f64's smallest normal), and the output has elements"),
}
