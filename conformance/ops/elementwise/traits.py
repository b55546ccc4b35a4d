"""Named properties of an elementwise case's inputs, for known differences (``inputs: [...]`` in
conformance/known/<backend>.yaml): a bug is described by what its inputs are, not by a list of cases."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache

import numpy as np

from conformance.data import salt
from conformance.ops.base import Shape
from conformance.ops.elementwise import functions, params
from conformance.ops.elementwise.params import ElementwiseParams


def _aligned(p: ElementwiseParams) -> list[tuple[int, ...]]:
    rank = max(len(s) for s in p.shapes)
    return [(1,) * (rank - len(s)) + s for s in p.shapes]


def _stretched(p: ElementwiseParams) -> bool:
    """Some dimension 1 faces a larger one (not only a missing axis)."""
    return any(1 in dims and max(dims) > 1 for dims in zip(*_aligned(p), strict=True))


def _first_grows(p: ElementwiseParams) -> bool:
    out = [max(dims) if 0 not in dims else 0 for dims in zip(*_aligned(p), strict=True)]
    return tuple(out) != p.shapes[0]


@lru_cache(maxsize=4096)
def _fed(p: ElementwiseParams, function: str, dtype: str = "f32") -> tuple[np.ndarray, ...] | None:
    """The inputs a check of ``function`` in ``dtype`` is fed (as conformance/run/execute.py feeds them), or None
    where the case does not run the function in that type or is rejected."""
    if function not in params.versions(p) or dtype not in functions.FUNCTIONS[function].dtypes or \
            params.outcome(p)[1] is not None:
        return None
    return tuple(params.make_inputs(p, dtype, salt(params.to_json(p)), function).values())


def _shows(function: str, change: Callable[[np.ndarray], np.ndarray]) -> Callable[[ElementwiseParams], bool]:
    """The case's output of ``function`` in f32 differs, bit for bit, when its float inputs are changed so."""
    def holds(p: ElementwiseParams) -> bool:
        fed = _fed(p, function)
        if fed is None:
            return False
        right = params.expected(p, dict(enumerate(fed)), function)  # type: ignore[arg-type]
        changed = [change(a) if a.dtype == np.float32 else a for a in fed]
        wrong = params.expected(p, dict(enumerate(changed)), function)  # type: ignore[arg-type]
        return not np.array_equal(right.view(f"u{right.itemsize}"), wrong.view(f"u{wrong.itemsize}"))
    return holds


def _flushed(a: np.ndarray) -> np.ndarray:
    """As the CPU plugin loads an f32 Constant holding a subnormal: every value with zero exponent bits (the
    subnormals, and -0.0 beside them) becomes +0.0 (ov-cpu-constant-data-subnormals-flushed)."""
    bits = a.view(np.uint32)
    if not ((bits & 0x7F800000) == 0).any() or not (((bits & 0x7F800000) == 0) & ((bits & 0x7FFFFF) != 0)).any():
        return a
    return np.where((bits & 0x7F800000) == 0, np.float32(0.0), a).astype(np.float32)


BF16_MAX = np.array(0x7F7F0000, np.uint32).view(np.float32)


def _clamped(a: np.ndarray) -> np.ndarray:
    """Clamped to bf16's finite range, staying f32 (ov-cpu-bf16-precision-clamps-f32-constant-data)."""
    finite = np.isfinite(a)
    return np.where(finite & (a > BF16_MAX), BF16_MAX, np.where(finite & (a < -BF16_MAX), -BF16_MAX, a)
                    ).astype(np.float32)


def _computed(function: str, dtype: str, runtime: Callable[..., np.ndarray]) -> Callable[[ElementwiseParams], bool]:
    """The case's output of ``function`` in ``dtype`` differs, bit for bit, when ``runtime`` computes it from the
    inputs broadcast to one shape (a model of how a runtime gets it wrong)."""
    def holds(p: ElementwiseParams) -> bool:
        fed = _fed(p, function, dtype)
        if fed is None:
            return False
        right = params.expected(p, dict(enumerate(fed)), function)  # type: ignore[arg-type]
        with np.errstate(all="ignore"):
            wrong = np.asarray(runtime(*np.broadcast_arrays(*fed))).astype(right.dtype)
        return not np.array_equal(right.view(f"u{right.itemsize}"), wrong.view(f"u{wrong.itemsize}"))
    return holds


def _shifted_u8_saturated(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x << y computed as x * 2**y and stored to u8 with saturation (not wrapped)."""
    return np.minimum(x.astype(np.int64) << y.astype(np.int64), 255)


def _shifted_u8_rounded(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x >> y computed as x / 2**y in f32 and rounded to nearest, ties to even (not floored)."""
    return np.rint(x.astype(np.float32) / np.float32(2) ** y.astype(np.float32))


def _shifted_u32_as_int32_in_f32(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x >> y computed as x / 2**y on the bits of both read as int32, divided in f32 and rounded toward zero."""
    wide = (x.astype(np.uint32).view(np.int32).astype(np.float32) /
            (np.uint32(1) << y.astype(np.uint32)).view(np.int32).astype(np.float32))
    return np.trunc(wide).astype(np.int64).astype(np.int32).view(np.uint32)


def _beyond_int32(shift: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    """The u32 result of ``shift`` with every value above 2**31 - 1 saturated to 2**31 - 1."""
    return lambda x, y: np.minimum(shift(x.astype(np.uint64), y.astype(np.uint64)) & 0xFFFFFFFF, 2**31 - 1)


def _as_scalars(p: ElementwiseParams, which: Callable[[tuple[int, ...]], bool]) -> tuple[Shape | None, str | None]:
    """The outcome once every input whose shape ``which`` picks is replaced by a scalar (a runtime that reads an
    input without elements as one)."""
    return params.outcome(replace(p, shapes=tuple(() if which(s) else s for s in p.shapes)))


def _empty(shape: tuple[int, ...]) -> bool:
    return 0 in shape


def _empty_vector(shape: tuple[int, ...]) -> bool:
    return shape == (0,)


def _empty_as_scalar_valid(p: ElementwiseParams) -> bool:
    """The inputs follow the rules once every input without elements is replaced by a scalar."""
    return _as_scalars(p, _empty)[1] is None


def _empty_vector_as_scalar_changes_output(p: ElementwiseParams) -> bool:
    shape, rule = params.outcome(p)
    return rule is None and (0,) in p.shapes and _as_scalars(p, _empty_vector) != (shape, None)


def _empty_vector_as_scalar_valid(p: ElementwiseParams) -> bool:
    return params.outcome(p)[1] is not None and (0,) in p.shapes and _as_scalars(p, _empty_vector)[1] is None


def _negative_zero_minus_zero(p: ElementwiseParams) -> bool:
    """subtract in f32 meets -0.0 - +0.0 (-0.0 by IEEE 754) at some output element."""
    fed = _fed(p, "subtract")
    if fed is None:
        return False
    a, b = np.broadcast_arrays(*fed)
    return bool((np.signbit(a) & (a == 0) & ~np.signbit(b) & (b == 0)).any())


def _negative_zero_selected_from_then(p: ElementwiseParams) -> bool:
    """select in f32 picks a -0.0 of its second input (the value for a true condition) at some output element."""
    fed = _fed(p, "select")
    if fed is None:
        return False
    condition, then, _ = np.broadcast_arrays(*fed)
    return bool((condition & (then == 0) & np.signbit(then)).any())


def _slope_1d_off_channel(p: ElementwiseParams) -> bool:
    """PRelu-style: data of rank 2 or more and a 1-D slope longer than 1 that is not as long as data's axis 1 (the
    channel axis a 1-D slope follows in OpenVINO's PRelu where the lengths match)."""
    data, slope = p.shapes[0], p.shapes[-1]
    return len(p.shapes) == 2 and len(data) >= 2 and len(slope) == 1 and slope[0] > 1 and slope[0] != data[1]


def _slope_1d_on_channel(p: ElementwiseParams) -> bool:
    """PRelu-style: data of rank 2 or more and a 1-D slope longer than 1 as long as data's axis 1 (OpenVINO's PRelu
    lays such a slope along axis 1, its channel axis, whatever data's last axis is)."""
    data, slope = p.shapes[0], p.shapes[-1]
    return len(p.shapes) == 2 and len(data) >= 2 and len(slope) == 1 and slope[0] > 1 and slope[0] == data[1]


def _slope_1d_length_once_in_first(p: ElementwiseParams) -> bool:
    """PRelu-style: a 1-D slope whose length is exactly one of data's dimensions (onnx's reference PRelu lays it
    along that axis when numpy cannot broadcast it)."""
    data, slope = p.shapes[0], p.shapes[-1]
    return len(p.shapes) == 2 and len(slope) == 1 and list(data).count(slope[0]) == 1


def _prelu_channel_slope_shows(p: ElementwiseParams) -> bool:
    """prelu in f32: the output changes when a 1-D slope as long as data's axis 1 is laid along that axis instead
    of data's last axis (valid cases only: nothing is computed for a rejection)."""
    fed = _fed(p, "prelu")
    if fed is None or not _slope_1d_on_channel(p):
        return False
    data, slope = fed
    right = params.expected(p, dict(enumerate(fed)), "prelu")  # type: ignore[arg-type]
    along = slope.reshape((1, slope.size) + (1,) * (data.ndim - 2))
    wrong = np.where(data < 0, np.multiply(data, along), data).astype(right.dtype)
    return not np.array_equal(right.view(f"u{right.itemsize}"), wrong.view(f"u{wrong.itemsize}"))


def _zero_second_input_dropped(*xs: np.ndarray) -> np.ndarray:
    """x + y taken as x where y holds only +0.0 (two inputs; the sum otherwise)."""
    if len(xs) == 2 and not xs[1].view(np.uint32).any():
        return xs[0]
    return np.asarray(sum(xs[1:], xs[0]))


def _first_axis1_is_1(p: ElementwiseParams) -> bool:
    """The first input is of rank 2 or more with a dimension 1 on axis 1."""
    return len(p.shapes[0]) >= 2 and p.shapes[0][1] == 1


def _else_selection_scalar_in_merge(p: ElementwiseParams) -> bool:
    """ONNX Runtime's Where selects then-values (condition, then) and else-values (condition, else) apart and merges
    the two selections two at a time (where_op.cc); the merge keeps the then-selection's span as it is where the
    else-selection is a scalar over the innermost span: it has one element, or on the innermost axis where the two
    are not both 1 it is 1 and the then-selection is not."""
    if len(p.shapes) != 3:
        return False
    condition, then, other = p.shapes
    try:
        x = np.broadcast_shapes(condition, then)
        y = np.broadcast_shapes(condition, other)
    except ValueError:
        return False
    if int(np.prod(y)) == 1:
        return True
    rank = max(len(x), len(y))
    x, y = (1,) * (rank - len(x)) + x, (1,) * (rank - len(y)) + y
    for dx, dy in zip(reversed(x), reversed(y), strict=True):
        if dx != 1 or dy != 1:
            return dy == 1
    return False


VALUE_TRAITS: dict[str, tuple[Callable[[ElementwiseParams], bool], str]] = {
    **{f"{f}_f32_output_shows_constant_flush": (_shows(f, _flushed), f"{f} in f32: the output changes when the "
                                                "inputs' subnormals (and -0.0 beside them) are flushed to +0.0")
       for f in ("maximum", "minimum", "select")},
    **{f"{f}_f32_output_shows_bf16_clamp": (_shows(f, _clamped), f"{f} in f32: the output changes when the "
                                            "inputs are clamped to bf16's finite range")
       for f in ("maximum", "minimum", "select")},
    "subtract_f32_negative_zero_minus_zero": (_negative_zero_minus_zero, "subtract in f32 meets -0.0 - +0.0"),
    "select_f32_negative_zero_from_then": (_negative_zero_selected_from_then, "select in f32 picks a -0.0 of its "
                                                                              "second input"),
    "add_f32_output_shows_zero_start_sum": (_computed("add", "f32", lambda *xs: sum(xs)),
                                            "add in f32: the output changes when the inputs are summed from an "
                                            "integer 0 (0 + -0.0 is +0.0), as Python's sum does"),
    "add_f32_output_shows_zero_second_input_dropped": (
        _computed("add", "f32", _zero_second_input_dropped),
        "add in f32 of two inputs: the output changes when a second input of only +0.0 is dropped (x + 0 taken as "
        "x, which keeps a -0.0 of x)"),
    "prelu_f32_output_shows_channel_slope": (_prelu_channel_slope_shows, "prelu in f32: the output changes when a "
                                             "1-D slope as long as data's axis 1 is laid along that axis"),
    "mean_f32_output_shows_plus_zero_added": (_computed("mean", "f32", lambda a, b: (a + b) / np.float32(2) + 0),
                                              "mean in f32: the output changes when +0.0 is added to it (a -0.0 "
                                              "becomes +0.0)"),
    "bitshift_left_u8_output_shows_saturation": (_computed("bitshift_left", "u8", _shifted_u8_saturated),
                                                 "bitshift_left in u8: a result above 255 (saturated to 255 "
                                                 "instead of losing its high bits)"),
    "bitshift_right_u8_output_shows_rounding": (_computed("bitshift_right", "u8", _shifted_u8_rounded),
                                                "bitshift_right in u8: the output changes when x / 2**y is rounded "
                                                "to nearest instead of floored"),
    "bitshift_right_u32_output_shows_int32_f32_division": (
        _computed("bitshift_right", "u32", _shifted_u32_as_int32_in_f32),
        "bitshift_right in u32: the output changes when x / 2**y is computed on int32 bits in f32, rounded toward "
        "zero"),
    "bitshift_left_u32_output_beyond_int32": (_computed("bitshift_left", "u32", _beyond_int32(np.left_shift)),
                                              "bitshift_left in u32: a result above 2**31 - 1"),
    "bitshift_right_u32_output_beyond_int32": (_computed("bitshift_right", "u32", _beyond_int32(np.right_shift)),
                                               "bitshift_right in u32: a result above 2**31 - 1"),
}

TRAITS: dict[str, tuple[Callable[[ElementwiseParams], bool], str]] = {
    "equal_shapes": (lambda p: len(set(p.shapes)) == 1, "every input has the same shape"),
    "ranks_differ": (lambda p: len({len(s) for s in p.shapes}) > 1, "the inputs' ranks differ"),
    "rank0_input": (lambda p: any(len(s) == 0 for s in p.shapes), "an input is of rank 0 (a scalar)"),
    "all_rank0": (lambda p: all(len(s) == 0 for s in p.shapes), "every input is of rank 0"),
    "scalar_first_1d_second": (lambda p: len(p.shapes[0]) == 0 and len(p.shapes[1]) == 1,
                               "the first input is a scalar and the second (PRelu's slope) of rank 1"),
    "zero_size": (lambda p: any(0 in s for s in p.shapes), "an input has a dimension 0"),
    "one_stretched": (_stretched, "a dimension 1 is stretched to a larger one"),
    "first_grows": (_first_grows, "the first input is smaller than the broadcast shape"),
    "three_inputs": (lambda p: len(p.shapes) == 3, "three inputs"),
    "output_rank_above_6": (lambda p: max(len(s) for s in p.shapes) > 6, "an input of rank 7 or more"),
    "valid": (lambda p: params.outcome(p)[1] is None, "the inputs follow the rules (the case expects a shape)"),
    "empty_as_scalar_valid": (_empty_as_scalar_valid, "the inputs would follow the rules if every input without "
                                                      "elements were a scalar"),
    "empty_vector_as_scalar_changes_output": (
        _empty_vector_as_scalar_changes_output,
        "valid inputs whose output shape changes if every input of shape (0,) were a scalar"),
    "empty_vector_as_scalar_valid": (
        _empty_vector_as_scalar_valid,
        "invalid inputs that would follow the rules if every input of shape (0,) were a scalar"),
    "numpy_dim_broken": (lambda p: params.outcome(p)[1] == "numpy_dim", "right-aligned dimensions neither equal "
                                                                         "nor 1"),
    "slope_1d_off_channel": (_slope_1d_off_channel, "a 1-D second input (PRelu's slope) longer than 1 that is not "
                                                     "as long as the first input's axis 1, of rank 2 or more"),
    "slope_1d_on_channel": (_slope_1d_on_channel, "a 1-D second input (PRelu's slope) longer than 1 as long as the "
                                                   "first input's axis 1, of rank 2 or more"),
    "slope_1d_length_once_in_first": (_slope_1d_length_once_in_first, "a 1-D second input (PRelu's slope) whose "
                                                                       "length is exactly one of the first input's "
                                                                       "dimensions"),
    "first_axis1_is_1": (_first_axis1_is_1, "the first input is of rank 2 or more with a dimension 1 on axis 1"),
    "select_else_selection_scalar_in_merge": (_else_selection_scalar_in_merge, "three inputs whose else-selection "
                                              "(condition and else broadcast) is a scalar over the innermost span of "
                                              "ONNX Runtime's merge with the then-selection"),
    **VALUE_TRAITS,
}
