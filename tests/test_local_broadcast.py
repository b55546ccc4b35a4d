"""Tests of local_broadcast: spec examples, every error branch, and agreement with ``reference``."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import reference
from conformance.run.plan import nominal_bytes
from local_broadcast import (
    RULES,
    BroadcastError,
    broadcast_v0,
    broadcast_v1,
    broadcast_v3,
    declared_shape,
    expand,
    output_shape,
)
from tests.strategies import DIMS, valid_target

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOAT_DTYPES = [np.float16, np.float32, np.float64]


def numbered(shape: tuple[int, ...], dtype: type = np.int64) -> np.ndarray:
    """Data whose every element differs, so a value copied to the wrong place shows."""
    return np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)


def by_definition(data: np.ndarray, shape: tuple[int, ...], axes: list[int] | None) -> np.ndarray:
    """output[C] = data[p(C)], element by element: p picks the data's axes of C and sends a length-1
    data axis to index 0. Independent of both implementations, which copy whole views."""
    out_rank = len(shape)
    if axes is None:  # numpy and bidirectional: right-aligned
        axes = list(range(max(out_rank, data.ndim) - data.ndim, max(out_rank, data.ndim)))
    expected = np.empty(shape, dtype=data.dtype)
    for c in np.ndindex(*shape):
        expected[c] = data[tuple(0 if n == 1 else c[a] for n, a in zip(data.shape, axes, strict=True))]
    return expected


def outcome(call: Callable[[], np.ndarray]) -> tuple[object, ...]:
    """What a call did, comparable across implementations: the rule it broke, or the exact result."""
    try:
        result = call()
    except (BroadcastError, reference.BroadcastRuleError) as error:
        return ("reject", error.rule)
    return ("ok", result.shape, result.dtype, result.tobytes())


# --- golden table ------------------------------------------------------------------------------------------
# [id, data shape, target_shape, axes_mapping, mode, expected shape or the rule it breaks];
# zero-size dimensions and scalars first.
GOLDEN = [
    ("scalar_to_scalar_numpy", (), [], None, "numpy", ()),
    ("scalar_to_zero", (), [0], None, "numpy", (0,)),
    ("one_to_zero_numpy", (1,), [0], None, "numpy", (0,)),
    ("zero_to_zero_numpy", (0,), [0], None, "numpy", (0,)),
    ("zero_to_3x0_numpy", (0,), [3, 0], None, "numpy", (3, 0)),
    ("zero_to_one_numpy_rejected", (0,), [1], None, "numpy", "numpy_dim"),
    ("one_to_zero_explicit", (1,), [3, 0], [1], "explicit", (3, 0)),
    ("zero_explicit", (0,), [0, 2], [0], "explicit", (0, 2)),
    ("zero_vs_one_bidirectional", (0,), [1], None, "bidirectional", (0,)),
    ("one_vs_zero_bidirectional", (1,), [0], None, "bidirectional", (0,)),
    ("2x0_vs_1x1_bidirectional", (2, 0), [1, 1], None, "bidirectional", (2, 0)),
    ("scalar_to_2x3_numpy", (), [2, 3], None, "numpy", (2, 3)),
    ("scalar_explicit_no_axes", (), [2, 3], [], "explicit", (2, 3)),
    ("scalar_to_scalar_bidirectional", (), [], None, "bidirectional", ()),
    # Broadcast-1 / Broadcast-3 XML examples (001, 000)
    ("v1_xml_numpy", (16, 1, 1), [1, 16, 50, 50], None, "numpy", (1, 16, 50, 50)),
    ("v1_xml_explicit_c", (16,), [1, 16, 50, 50], [1], "explicit", (1, 16, 50, 50)),
    ("v1_xml_explicit_hw", (50, 50), [1, 50, 50, 16], [1, 2], "explicit", (1, 50, 50, 16)),
    ("v3_xml_bidirectional", (16, 1, 1), [1, 1, 50, 50], None, "bidirectional", (1, 16, 50, 50)),
    ("v3_bidirectional_larger_than_target", (3, 1), [2, 1, 6], None, "bidirectional", (2, 3, 6)),
    # The 11 worked examples of the broadcast rules (003), as bidirectional with data=A, target=B
    ("rules_01_scalars", (), [], None, "bidirectional", ()),
    ("rules_02", (2, 3), [1], None, "bidirectional", (2, 3)),
    ("rules_03", (3,), [2, 3], None, "bidirectional", (2, 3)),
    ("rules_04_scalar_b", (2, 3, 5), [], None, "bidirectional", (2, 3, 5)),
    ("rules_05", (2, 1, 5), [1, 4, 5], None, "bidirectional", (2, 4, 5)),
    ("rules_06", (6, 5), [2, 1, 5], None, "bidirectional", (2, 6, 5)),
    ("rules_07", (2, 1, 5), [4, 1], None, "bidirectional", (2, 4, 5)),
    ("rules_08", (3, 2, 1, 4), [5, 4], None, "bidirectional", (3, 2, 5, 4)),
    ("rules_09", (1, 5, 3), [5, 2, 1, 3], None, "bidirectional", (5, 2, 5, 3)),
    ("rules_10_mismatch", (3,), [2], None, "bidirectional", "bidirectional_dim"),
    ("rules_11_mismatch_leftmost", (3, 1, 5), [4, 4, 5], None, "bidirectional", "bidirectional_dim"),
]


@pytest.mark.parametrize(("data_shape", "target", "axes", "mode", "expected"),
                         [row[1:] for row in GOLDEN], ids=[row[0] for row in GOLDEN])
def test_golden(data_shape: tuple[int, ...], target: list[int], axes: list[int] | None, mode: str,
                expected: tuple[int, ...] | str) -> None:
    data = numbered(data_shape)
    assert outcome(lambda: broadcast_v3(data, target, axes, mode)) == outcome(
        lambda: reference.broadcast(data, target, axes, mode))
    if isinstance(expected, str):
        with pytest.raises(BroadcastError) as info:
            broadcast_v3(data, target, axes, mode)
        assert info.value.rule == expected
        return
    assert output_shape(data_shape, target, axes, mode) == expected
    out = broadcast_v3(data, target, axes, mode)
    assert out.shape == expected
    np.testing.assert_array_equal(out, by_definition(data, expected, axes))
    if mode != "bidirectional":  # Broadcast-1 has the same numpy and explicit modes
        np.testing.assert_array_equal(broadcast_v1(data, target, axes, mode), out)
    else:
        np.testing.assert_array_equal(expand(data, target), out)


@pytest.mark.parametrize(("shape", "axes", "expected"), [
    ([2, 3], [0], [["a", "b", "c"], ["a", "b", "c"]]),
    ([3, 2], [1], [["a", "a"], ["b", "b"], ["c", "c"]]),
    ([3, 2], {1}, [["a", "a"], ["b", "b"], ["c", "c"]]),  # AxisSet given as a Python set
], ids=["shape_2x3_axes_0", "shape_3x2_axes_1", "axes_as_set"])
def test_v0_spec_examples(shape: list[int], axes: object, expected: list[list[str]]) -> None:
    """nGraph (004): arg [a, b, c] with Shape{2, 3}, AxisSet{0} and with Shape{3, 2}, AxisSet{1}."""
    out = broadcast_v0(np.array(["a", "b", "c"]), shape, axes)
    assert out.dtype == np.dtype("<U1")
    assert out.tolist() == expected


def test_v0_definition_with_two_added_axes() -> None:
    """p([d0, d1, d2, d3, d4]) = [d0, d2, d4] for broadcast_axes {1, 3} (004, Mathematical Definition)."""
    arg = numbered((2, 3, 4))
    out = broadcast_v0(arg, [2, 5, 3, 2, 4], [3, 1])
    for c in np.ndindex(*out.shape):
        assert out[c] == arg[c[0], c[2], c[4]]


# --- every error branch ------------------------------------------------------------------------------------
ERRORS: list[tuple[str, Callable[[], object], str, str]] = [
    ("unknown_mode", lambda: broadcast_v3(np.ones(2), [2], None, "nearest"), "unknown_mode",
     "mode 'nearest'"),
    ("unknown_mode_before_axes", lambda: broadcast_v3(np.ones(2), [2], [0], "Numpy"), "unknown_mode",
     "Broadcast-3(Numpy)"),
    ("v1_unknown_mode", lambda: broadcast_v1(np.ones(2), [2], None, "x"), "unknown_mode",
     "Broadcast-1 accepts numpy, explicit"),
    ("v1_bidirectional", lambda: broadcast_v1(np.ones(2), [2], None, "bidirectional"),
     "bidirectional_not_in_v1", "Broadcast-1(bidirectional): mode must be numpy or explicit"),
    ("v1_output_shape_bidirectional", lambda: output_shape((2,), [2], None, "bidirectional", "Broadcast-1"),
     "bidirectional_not_in_v1", "bidirectional is new in Broadcast-3"),
    ("target_2d", lambda: broadcast_v3(np.ones(3), [[2, 3]]), "target_shape_not_1d",
     "target_shape must be a 1-D tensor [target_shape_not_1d]; got target_shape of rank 2: [[2, 3]]"),
    ("target_0d", lambda: broadcast_v3(np.ones(3), np.int64(3)), "target_shape_not_1d", "of rank 0: 3"),
    ("target_ragged", lambda: broadcast_v3(np.ones(3), [[2], [3, 4]]), "target_shape_not_1d",
     "not rectangular"),
    ("target_negative", lambda: broadcast_v3(np.ones(3), [-1, 3]), "target_shape_negative",
     "got target_shape [-1, 3]"),
    ("target_negative_bidirectional", lambda: expand(np.ones(3), [-1]), "target_shape_negative",
     "Expand(bidirectional)"),
    ("numpy_axes_unexpected", lambda: broadcast_v3(np.ones(3), [2, 3], [1]), "axes_mapping_unexpected",
     "Broadcast-3(numpy): axes_mapping must be given in explicit mode only"),
    ("numpy_empty_axes_unexpected", lambda: broadcast_v3(np.ones(3), [3], []), "axes_mapping_unexpected",
     "got axes_mapping []"),
    ("axes_unexpected_before_target", lambda: broadcast_v3(np.ones(3), [[3]], [0], "bidirectional"),
     "axes_mapping_unexpected", "Broadcast-3(bidirectional)"),
    ("explicit_axes_missing", lambda: broadcast_v3(np.ones(3), [3], None, "explicit"), "axes_mapping_missing",
     "got axes_mapping None"),
    ("axes_2d", lambda: broadcast_v3(np.ones(3), [2, 3], [[1]], "explicit"), "axes_mapping_not_1d",
     "axes_mapping of rank 2: [[1]]"),
    ("axes_0d_before_target", lambda: broadcast_v3(np.ones(3), [[2, 3]], 1, "explicit"),
     "axes_mapping_not_1d", "of rank 0"),
    ("explicit_length", lambda: broadcast_v3(np.ones((2, 3)), [2, 3], [0], "explicit"), "explicit_length",
     "axes_mapping [0] for data shape (2, 3)"),
    ("explicit_negative", lambda: broadcast_v3(np.ones((2, 3)), [2, 3], [-1, 1], "explicit"),
     "explicit_negative", "axes_mapping values must be non-negative"),
    ("explicit_negative_before_unsorted", lambda: broadcast_v3(np.ones((2, 3)), [2, 3], [1, -1], "explicit"),
     "explicit_negative", "[1, -1]"),
    ("explicit_range", lambda: broadcast_v3(np.ones((2, 3)), [2, 3], [0, 2], "explicit"), "explicit_range",
     "axes_mapping [0, 2] for target_shape [2, 3]"),
    ("explicit_range_before_unsorted", lambda: broadcast_v3(np.ones((2, 3)), [2, 3], [5, 0], "explicit"),
     "explicit_range", "less than the target rank"),
    ("explicit_unsorted", lambda: broadcast_v3(np.ones((2, 3)), [3, 2, 3], [2, 1], "explicit"),
     "explicit_unsorted",
     "Broadcast-3(explicit): axes_mapping must be sorted [explicit_unsorted]; got axes_mapping [2, 1]"),
    ("explicit_duplicate", lambda: broadcast_v3(np.ones((3, 3)), [3, 3], [1, 1], "explicit"),
     "explicit_duplicate", "must not repeat an axis"),
    ("explicit_dim", lambda: broadcast_v1(np.ones((2, 3)), [2, 4], [0, 1], "explicit"), "explicit_dim",
     "data dimension 3 (axis 1) mapped to target axis 1 of size 4"),
    ("explicit_dim_zero_to_one", lambda: broadcast_v3(np.ones(0), [1], [0], "explicit"), "explicit_dim",
     "data dimension 0"),
    ("numpy_rank", lambda: broadcast_v3(np.ones((2, 3)), [3]), "numpy_rank",
     "data shape (2, 3), target_shape [3]"),
    ("numpy_rank_scalar_target", lambda: broadcast_v1(np.ones(1), []), "numpy_rank", "target_shape []"),
    ("numpy_dim", lambda: broadcast_v3(np.ones((2, 3)), [2, 4]), "numpy_dim", "data dimension 3 vs target 4"),
    ("numpy_dim_one_way", lambda: broadcast_v3(np.ones((3, 1)), [1, 1]), "numpy_dim",
     "data dimension 3 vs target 1"),
    ("bidirectional_dim", lambda: broadcast_v3(np.ones((2, 3)), [2, 4], None, "bidirectional"),
     "bidirectional_dim", "data dimension 3 vs target 4"),
    ("expand_dim", lambda: expand(np.ones(3), [2]), "bidirectional_dim", "Expand(bidirectional)"),
    ("output_shape_dim", lambda: output_shape((2,), [3]), "numpy_dim", "data shape (2,)"),
    ("v0_axes_range", lambda: broadcast_v0(np.ones(3), [2, 3], [2]), "v0_axes_range",
     "Broadcast-0: broadcast_axes must be output axes"),
    ("v0_axes_negative", lambda: broadcast_v0(np.ones(3), [2, 3], [-1]), "v0_axes_range",
     "got broadcast_axes [-1] for shape [2, 3]"),
    ("v0_shape", lambda: broadcast_v0(np.ones(3), [3, 2], [0]), "v0_shape",
     "shape [3, 2] without axes [0] is [2], arg shape [3]"),
    ("v0_shape_not_1d", lambda: broadcast_v0(np.ones(3), [[3]], []), "target_shape_not_1d",
     "got shape of rank 2"),
    ("v0_axes_not_1d", lambda: broadcast_v0(np.ones(3), [2, 3], [[0]]), "axes_mapping_not_1d",
     "got broadcast_axes of rank 2"),
    ("v0_negative_added_axis", lambda: broadcast_v0(np.ones(3), [-2, 3], [0]), "target_shape_negative",
     "got shape [-2, 3]"),
]


@pytest.mark.parametrize(("call", "rule", "fragment"), [row[1:] for row in ERRORS],
                         ids=[row[0] for row in ERRORS])
def test_error(call: Callable[[], object], rule: str, fragment: str) -> None:
    with pytest.raises(BroadcastError) as info:
        call()
    assert type(info.value) is BroadcastError
    assert info.value.rule == rule
    assert fragment in str(info.value)
    assert f"[{rule}]" in str(info.value)


def test_every_rule_has_an_error_test() -> None:
    assert {row[2] for row in ERRORS} == set(RULES)


def test_rules_are_the_reference_rules_plus_v1() -> None:
    assert set(RULES) == set(reference.RULES) | {"bidirectional_not_in_v1"}


def test_error_attributes_and_pickle() -> None:
    with pytest.raises(BroadcastError) as info:
        broadcast_v3(np.ones((2, 3)), [3, 2, 3], [2, 1], "explicit")
    error = info.value
    assert isinstance(error, ValueError)
    assert (error.op, error.mode, error.rule) == ("Broadcast-3", "explicit", "explicit_unsorted")
    copy = pickle.loads(pickle.dumps(error))
    assert (str(copy), copy.op, copy.mode, copy.rule) == (str(error), error.op, error.mode, error.rule)


@pytest.mark.parametrize("value", [[2.0, 3.0], np.array([True, False]), ["2", "3"]],
                         ids=["float", "bool", "str"])
def test_target_shape_must_be_integer(value: object) -> None:
    """T_SHAPE is an integer type; anything else is a usage error, not a rule of the spec."""
    with pytest.raises(TypeError, match="target_shape must"):
        broadcast_v3(np.ones(1), value)


def test_unknown_op_is_a_usage_error() -> None:
    with pytest.raises(ValueError, match="op must be one of"):
        output_shape((1,), [1], op="Broadcast-2")


# --- agreement with reference ------------------------------------------------------------------------------
def special_values(dtype: np.dtype) -> np.ndarray:
    """Values a copy must keep bit for bit: signed zeros, NaNs with payloads, infinities, subnormals,
    extremes."""
    if dtype == np.bool_:
        return np.array([True, False])
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return np.array([info.min, info.max, 0, 1, info.max - 1], dtype=dtype)
    if np.issubdtype(dtype, np.complexfloating):
        real = special_values(np.dtype(np.float32 if dtype == np.complex64 else np.float64))
        values = np.empty(len(real), dtype=dtype)
        # Set the parts directly: real + 1j * imag would compute inf * 0 and lose the NaN payloads.
        values.real, values.imag = real, real[::-1]
        return values
    info = np.finfo(dtype)
    uint = np.dtype(f"u{dtype.itemsize}")
    bits = dtype.itemsize * 8
    mantissa = info.nmant
    quiet = ((1 << (bits - 1)) - 1) ^ ((1 << (mantissa - 1)) - 1)  # exponent all ones, quiet bit set
    nans = np.array([quiet | 0x23, quiet | (1 << (bits - 1)) | 0x5], dtype=uint).view(dtype)
    return np.concatenate([np.array([-0.0, 0.0, np.inf, -np.inf, info.smallest_subnormal,
                                     -info.smallest_subnormal, info.max, info.min, info.tiny], dtype=dtype),
                           nans])


def test_nan_payloads_are_what_they_claim() -> None:
    nan = special_values(np.dtype(np.float32))[-2]
    assert np.isnan(nan) and nan.view(np.uint32) == 0x7FC00023


def filled(shape: tuple[int, ...], dtype: np.dtype, shift: int) -> np.ndarray:
    """Distinct values where the dtype allows, with the special values spread among them."""
    size = int(np.prod(shape))
    flat = np.arange(size).astype(dtype)
    specials = special_values(dtype)
    count = min(size, len(specials))
    flat[:count] = specials[:count]
    return np.roll(flat, shift).reshape(shape)


AGREEMENT_DTYPES = [np.dtype(t) for t in [np.bool_, *INT_DTYPES, *FLOAT_DTYPES, np.complex128]]


@st.composite
def index_vector(draw: st.DrawFn, values: list[int]) -> object:
    """target_shape / axes_mapping as a list, a tuple or an array of any integer type that holds them."""
    kind = draw(st.sampled_from(["list", "tuple", "array"]))
    if kind == "list":
        return list(values)
    if kind == "tuple":
        return tuple(values)
    negative = any(v < 0 for v in values)
    dtype = draw(st.sampled_from([t for t in INT_DTYPES if not (negative and np.dtype(t).kind == "u")]))
    return np.array(values, dtype=dtype)


@st.composite
def broadcast_cases(draw: st.DrawFn) -> tuple[np.ndarray, object, object, str]:
    # Start from a valid target (and axes) for the mode, then maybe break one thing.
    breakage = draw(st.sampled_from(["none"] * 6 + ["dim", "dim", "short", "negative", "given", "rank",
                                     "axes_random", "axes_negative", "axes_unsorted", "axes_duplicate"]))
    if breakage.startswith("axes_"):  # only explicit mode has axes to break, and order needs two of them
        mode = "explicit"
        data_shape = tuple(draw(st.lists(DIMS, min_size=2, max_size=5)))
    else:
        mode = draw(st.sampled_from(["numpy", "explicit", "bidirectional"] * 3 + ["nearest"]))
        data_shape = tuple(draw(st.lists(DIMS, max_size=5)))
    prefix = draw(st.lists(DIMS, max_size=2))
    target, axes = valid_target(draw, mode, data_shape, prefix)
    if breakage == "dim" and target:
        target[draw(st.integers(0, len(target) - 1))] = draw(st.integers(0, 5))
    elif breakage == "short" and data_shape:  # lower than the data rank
        target = target[len(target) - len(data_shape) + 1:]
    elif breakage == "negative" and target:
        target[draw(st.integers(0, len(target) - 1))] = -draw(st.integers(1, 3))
    elif breakage == "given":  # axes_mapping where it must not be, or missing where it must be
        axes = None if axes is not None else draw(st.lists(st.integers(0, 3), max_size=2))
    elif breakage == "axes_random":
        axes = draw(st.lists(st.integers(-1, len(target)), max_size=len(data_shape) + 1))
    elif breakage == "axes_negative":
        axes[draw(st.integers(0, len(axes) - 1))] = -1
    elif breakage == "axes_unsorted":
        axes = axes[::-1]
    elif breakage == "axes_duplicate":
        axes[1] = axes[0]
    target_arg = draw(index_vector(target))
    axes_arg = None if axes is None else draw(index_vector(axes))
    if breakage == "rank":  # a 2-D or 0-d tensor for one of them
        if axes_arg is not None and draw(st.booleans()):
            axes_arg = np.array([axes]) if draw(st.booleans()) else np.int32(0)
        else:
            target_arg = np.array([target]) if draw(st.booleans()) else np.int64(2)
    dtype = draw(st.sampled_from(AGREEMENT_DTYPES))
    data = filled(data_shape, dtype, draw(st.integers(0, 7)))
    return data, target_arg, axes_arg, mode


@settings(deadline=None)  # example count: the hypothesis profile (tests/conftest.py)
@given(broadcast_cases())
def test_agrees_with_reference(case: tuple[np.ndarray, object, object, str]) -> None:
    data, target, axes, mode = case
    expected = outcome(lambda: reference.broadcast(data, target, axes, mode))
    # Which rules the draws reach: see pytest --hypothesis-show-statistics.
    event(f"{mode}: {expected[1] if expected[0] == 'reject' else 'ok'}")
    assert outcome(lambda: broadcast_v3(data, target, axes, mode)) == expected
    if expected[0] == "ok":
        assert output_shape(data.shape, target, axes, mode) == expected[1]
        if mode == "bidirectional":
            assert outcome(lambda: expand(data, target)) == expected
    if mode != "bidirectional":
        assert outcome(lambda: broadcast_v1(data, target, axes, mode)) == expected


@st.composite
def v0_cases(draw: st.DrawFn) -> tuple[np.ndarray, list[int], list[int]]:
    arg_shape = draw(st.lists(DIMS, max_size=4))
    shape = list(arg_shape)
    for _ in range(draw(st.integers(0, 3))):
        shape.insert(draw(st.integers(0, len(shape))), draw(DIMS))
    kept = draw(st.permutations(range(len(shape))))[:len(arg_shape)]
    # The added axes are the ones not kept; kept ones must hold the arg's dimensions in order.
    shape = [0] * len(shape)
    for a, d in zip(sorted(kept), arg_shape, strict=True):
        shape[a] = d
    axes = [a for a in range(len(shape)) if a not in kept]
    for a in axes:
        shape[a] = draw(DIMS)
    breakage = draw(st.sampled_from(["none", "none", "dim", "axes", "duplicate"]))
    if breakage == "dim" and shape:
        shape[draw(st.integers(0, len(shape) - 1))] = draw(DIMS)
    elif breakage == "axes":
        axes = draw(st.lists(st.integers(-1, len(shape)), max_size=3))
    elif breakage == "duplicate" and axes:
        axes = axes + axes[:1]
    data = filled(tuple(arg_shape), draw(st.sampled_from(AGREEMENT_DTYPES)), draw(st.integers(0, 7)))
    return data, shape, axes


@settings(deadline=None)  # example count: the hypothesis profile (tests/conftest.py)
@given(v0_cases())
def test_v0_agrees_with_reference(case: tuple[np.ndarray, list[int], list[int]]) -> None:
    arg, shape, axes = case
    expected = outcome(lambda: reference.broadcast_v0(arg, shape, axes))
    event(f"v0: {expected[1] if expected[0] == 'reject' else 'ok'}")
    assert outcome(lambda: broadcast_v0(arg, shape, axes)) == expected


# --- dtypes, bits and fresh arrays -------------------------------------------------------------------------
SWEEP_DTYPES = [np.dtype(t) for t in [np.bool_, *INT_DTYPES, *FLOAT_DTYPES, np.complex64, np.complex128]]


@pytest.mark.parametrize("dtype", SWEEP_DTYPES, ids=str)
@pytest.mark.parametrize(("data_shape", "target", "axes", "mode"), [
    ((5,), [3, 5], None, "numpy"),
    ((5,), [2, 5], [1], "explicit"),
    ((1, 5), [2, 1, 5], None, "bidirectional"),
], ids=["numpy", "explicit", "bidirectional"])
def test_dtype_and_bits_kept(dtype: np.dtype, data_shape: tuple[int, ...], target: list[int],
                             axes: list[int] | None, mode: str) -> None:
    data = filled((5,), dtype, 0).reshape(data_shape)
    out = broadcast_v3(data, target, axes, mode)
    assert out.dtype == dtype
    row = out.reshape(-1, 5)  # every output row is the data, byte for byte
    assert all(r.tobytes() == data.tobytes() for r in row)


def test_float32_nan_payload_kept() -> None:
    data = np.array([0x7FC00123, 0xFFC00001], dtype=np.uint32).view(np.float32)
    out = broadcast_v3(data, [4, 2])
    assert (out.view(np.uint32) == np.array([0x7FC00123, 0xFFC00001], dtype=np.uint32)).all()


@pytest.mark.parametrize("data", [
    np.array([None, "x", 3], dtype=object),
    np.array(["ab", "c", ""]),
    np.array([b"ab", b"c", b""]),
    np.array([1.5, -2.0, 3.0], dtype=">f8"),  # non-native byte order stays non-native
    np.array([1, 2, 3], dtype="datetime64[s]"),
], ids=["object", "str", "bytes", "big_endian", "datetime"])
def test_other_dtypes_kept(data: np.ndarray) -> None:
    out = broadcast_v3(data, [2, 3])
    assert out.dtype == data.dtype
    assert out[1].tolist() == data.tolist()


def test_bfloat16_kept() -> None:
    ml_dtypes = pytest.importorskip("ml_dtypes", reason="ml_dtypes is not installed")
    data = np.array([0x7FC1, 0x8000, 0x0001], dtype=np.uint16).view(ml_dtypes.bfloat16)
    out = broadcast_v3(data, [3], [0], "explicit")
    assert out.dtype == data.dtype
    assert out.tobytes() == data.tobytes()


@pytest.mark.parametrize("data", [
    np.arange(6.0).reshape(2, 3),
    np.asfortranarray(np.arange(6.0).reshape(2, 3)),
    np.arange(12.0).reshape(2, 6)[:, ::2],
    np.array(7.0),
], ids=["c_order", "fortran", "strided", "scalar"])
def test_result_is_a_new_array(data: np.ndarray) -> None:
    before = data.copy()
    data.flags.writeable = False  # a read-only input still gives a writeable output
    target = [2, *data.shape]
    out = broadcast_v3(data, target)
    assert out.flags.writeable and out.flags.c_contiguous and out.flags.owndata
    assert not np.shares_memory(out, data)
    out[...] = -1
    np.testing.assert_array_equal(data, before)


def test_scalar_to_scalar_is_a_new_array() -> None:
    data = np.array(3)
    out = broadcast_v3(data, [])
    assert out.shape == () and not np.shares_memory(out, data)


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda t: np.dtype(t).name)
def test_index_inputs_of_every_integer_type(dtype: type) -> None:
    data = numbered((3, 1))
    target = np.array([2, 3, 4], dtype=dtype)
    axes = np.array([1, 2], dtype=dtype)
    expected = by_definition(data, (2, 3, 4), [1, 2])
    np.testing.assert_array_equal(broadcast_v3(data, target, axes, "explicit"), expected)
    np.testing.assert_array_equal(broadcast_v1(data, target, axes, "explicit"), expected)
    assert broadcast_v3(data, target[1:], None, "numpy").shape == (3, 4)
    assert expand(data, np.array([2, 1, 4], dtype=dtype)).shape == (2, 3, 4)
    v0_out = broadcast_v0(np.arange(3), np.array([3, 2], dtype=dtype), np.array([1], dtype=dtype))
    assert v0_out.shape == (3, 2)


def test_uint64_beyond_int64_is_out_of_range_not_wrapped() -> None:
    """2**64 - 1 must not wrap to -1 (which would be explicit_negative)."""
    with pytest.raises(BroadcastError) as info:
        broadcast_v3(np.ones(2), [2], np.array([2**64 - 1], dtype=np.uint64), "explicit")
    assert info.value.rule == "explicit_range"


def _all_cases():
    from conformance.cases import load_all

    loaded, errors = load_all(Path(__file__).resolve().parents[1] / "cases")
    assert not errors, errors
    # Broadcast's cases: the elementwise cases' local check is tests/test_elementwise.py's
    return [case for cases in loaded.values() for case in cases if case.op == "broadcast"]


# Larger valid outputs (cases/huge_shapes.yaml: up to 2**62 elements) are checked by their shape only, as the
# conformance run does under its --output-budget: filling them would take the machine's memory.
OUTPUT_BUDGET_ELEMENTS = 1 << 22


@pytest.mark.parametrize("case", _all_cases(), ids=lambda c: c.id)
def test_agrees_with_reference_on_every_case(case):
    """Every case file's case, on every op version it applies to, with the suite's own input data."""
    from conformance.data import make_data

    too_large = not case.dynamic and (nominal_bytes(case.params.data_shape, "u8") > OUTPUT_BUDGET_ELEMENTS or (
        case.valid and nominal_bytes(case.expect_shape, "u8") > OUTPUT_BUDGET_ELEMENTS))
    if case.dynamic or too_large:
        # unknown until run time, or too large to hold (a 0 dimension counts as 1, as numpy counts): shapes only
        for version in set(case.params.versions) - {0}:
            op = "Broadcast-1" if version == 1 else "Broadcast-3"
            args = (case.params.data_shape, case.params.target_shape, case.params.axes_mapping, case.params.mode, op)
            if case.valid:
                assert declared_shape(*args) == tuple(case.expect_shape)
            else:
                with pytest.raises(BroadcastError) as e:
                    declared_shape(*args)
                assert e.value.rule == case.expect_reject
        return
    for version in case.params.versions:
        for dtype in ("f32", "i64", "bool"):
            data = make_data(case.params.data_shape, dtype)
            if version == 0:
                mapped = set(case.params.axes_mapping)
                added = [i for i in range(len(case.params.target_shape)) if i not in mapped]
                got = outcome(partial(broadcast_v0, data, case.params.target_shape, added))
            else:
                op = broadcast_v1 if version == 1 else broadcast_v3
                got = outcome(partial(op, data, case.params.target_shape, case.params.axes_mapping, case.params.mode))
            if case.valid:
                want = case.spec.expected(case.params, {"data": data}, version)
                assert got == ("ok", want.shape, want.dtype, want.tobytes())
            else:
                assert got == ("reject", case.expect_reject)


# --- out=, view and the fast kernel ------------------------------------------------------------------------
# The six patterns of bench/broadcast_bench.py, small: [id, data shape, target_shape, axes_mapping, mode].
PATTERNS = [
    ("inner", (40, 1), [40, 300], None, "numpy"),
    ("outer", (300,), [40, 300], None, "numpy"),
    ("middle", (3, 1, 24), [3, 700, 24], None, "numpy"),
    ("scalar", (), [70, 300], None, "numpy"),
    ("nchw_bias", (1, 16, 1, 1), [5, 16, 14, 14], None, "numpy"),
    ("explicit", (16, 8), [33, 16, 8, 6], [1, 2], "explicit"),
    ("bidirectional", (7, 1, 5), [300, 1, 9, 1], None, "bidirectional"),
    ("outer_long_rows", (4096,), [40, 4096], None, "numpy"),
    ("middle_few_blocks", (2, 1, 16), [2, 9000, 16], None, "numpy"),
    ("middle_short_runs", (16, 1, 4), [16, 1024, 4], None, "numpy"),
    ("nchw_small_planes", (1, 8, 1, 1), [40, 8, 7, 7], None, "numpy"),
]
PATTERN_DTYPES = [np.dtype(t) for t in [np.bool_, np.uint8, np.float16, np.float32, np.float64, np.complex128]] + \
    [np.dtype(">i4"), np.dtype("U3"), np.dtype(object)]


@pytest.fixture(params=["numpy", "recipe", "threads"])
def kernel_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Which kernel path copies: numpy's own copyto (small outputs), the recipe of long copies, or the
    recipe split between threads. The thresholds are lowered so that small test arrays take each path."""
    from local_broadcast import kernel

    if request.param != "numpy":
        monkeypatch.setattr(kernel, "SMALL_BYTES", 0)
    if request.param == "threads":
        monkeypatch.setattr(kernel, "THREAD_MIN_BYTES", 0)
        monkeypatch.setattr(kernel, "MAX_THREADS", 2)
    return request.param


def pattern_data(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    if dtype.kind in "UO":
        return numbered(shape).astype(str).astype(dtype)
    if dtype == np.bool_:
        return numbered(shape) % 3 == 0
    return filled(shape, dtype.newbyteorder("=") if dtype.kind == "i" else dtype, 3).astype(dtype)


@pytest.mark.parametrize("dtype", PATTERN_DTYPES, ids=str)
@pytest.mark.parametrize(("data_shape", "target", "axes", "mode"), [row[1:] for row in PATTERNS],
                         ids=[row[0] for row in PATTERNS])
def test_every_pattern_every_mode(kernel_path: str, dtype: np.dtype, data_shape: tuple[int, ...],
                                  target: list[int], axes: list[int] | None, mode: str) -> None:
    """Fresh, out= and view results are the reference's output, byte for byte (references for object)."""
    data = pattern_data(data_shape, dtype)
    want = reference.broadcast(data, target, axes, mode)
    fresh = broadcast_v3(data, target, axes, mode)
    out = np.empty(want.shape, dtype)
    returned = broadcast_v3(data, target, axes, mode, out=out)
    seen = broadcast_v3(data, target, axes, mode, copy=False)
    assert returned is out
    for got in (fresh, out, seen):
        assert (got.shape, got.dtype) == (want.shape, want.dtype)
        if dtype.hasobject:
            assert got.tolist() == want.tolist()
        else:
            assert got.tobytes() == want.tobytes()
    assert fresh.flags.c_contiguous and fresh.flags.writeable and not np.shares_memory(fresh, data)


@pytest.mark.parametrize("op", ["v1", "v0", "expand"])
def test_other_ops_take_out_and_copy(op: str) -> None:
    data = numbered((3, 1))
    call = {"v1": partial(broadcast_v1, data, [2, 3, 4]), "v0": partial(broadcast_v0, data, [2, 3, 1], [0]),
            "expand": partial(expand, data, [2, 1, 4])}[op]
    want = call()
    out = np.empty_like(want)
    assert call(out=out) is out
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(call(copy=False), want)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([1, 2, 3, 5, 8, 64, 130]), max_size=5)
       .filter(lambda shape: np.prod(shape, dtype=np.int64) <= 1 << 18), st.data())
def test_recipe_agrees_with_numpy(out_shape: list[int], draw: st.DataObject) -> None:
    """Any broadcast through the recipe path (with and without threads) gives numpy's broadcast, bit for bit."""
    from local_broadcast import kernel

    data_shape = tuple(d if draw.draw(st.booleans()) else 1 for d in out_shape)[draw.draw(st.integers(0, 2)):]
    dtype = draw.draw(st.sampled_from([np.dtype(t) for t in (np.uint8, np.float16, np.float32, np.complex128)]))
    data = filled(data_shape, dtype, 1)
    if data.ndim > 1 and draw.draw(st.booleans()):
        data = np.asfortranarray(data)
    want = np.broadcast_to(data, out_shape).tobytes()
    saved = kernel.SMALL_BYTES, kernel.THREAD_MIN_BYTES, kernel.MAX_THREADS
    try:
        kernel.SMALL_BYTES, kernel.THREAD_MIN_BYTES = 0, 0
        for threads in (1, 2):
            kernel.MAX_THREADS = threads
            assert broadcast_v3(data, out_shape).tobytes() == want
            out = np.full(out_shape, 7, dtype)
            assert broadcast_v3(data, out_shape, out=out).tobytes() == want
    finally:
        kernel.SMALL_BYTES, kernel.THREAD_MIN_BYTES, kernel.MAX_THREADS = saved


def test_threads_give_identical_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    from local_broadcast import kernel

    monkeypatch.setattr(kernel, "THREAD_MIN_BYTES", 0)
    data = filled((64, 1, 300), np.dtype(np.float32), 5)
    results = []
    for threads in (1, 2, 3):
        monkeypatch.setattr(kernel, "MAX_THREADS", threads)
        results.append(broadcast_v3(data, [3, 64, 50, 300]).tobytes())
    assert results[0] == results[1] == results[2] == np.broadcast_to(data, (3, 64, 50, 300)).tobytes()


def test_thread_pool_survives_fork(monkeypatch: pytest.MonkeyPatch) -> None:
    """A forked worker (the suite's, xdist) must not hand work to the parent's threads, which it does not have."""
    multiprocessing = pytest.importorskip("multiprocessing")
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform")
    from local_broadcast import kernel

    monkeypatch.setattr(kernel, "THREAD_MIN_BYTES", 0)
    monkeypatch.setattr(kernel, "MAX_THREADS", 2)
    broadcast_v3(np.arange(300.0), [100, 300])  # the parent's pool now has a thread
    with multiprocessing.get_context("fork").Pool(1) as workers:
        result = workers.apply_async(_threaded_sum).get(timeout=60)
    assert result == 100 * sum(range(300))


def _threaded_sum() -> float:
    from local_broadcast import kernel

    kernel.THREAD_MIN_BYTES, kernel.MAX_THREADS = 0, 2
    return float(broadcast_v3(np.arange(300.0), [100, 300]).sum())


def test_view_is_read_only_and_zero_copy() -> None:
    data = numbered((3, 1))
    seen = broadcast_v3(data, [2, 3, 4], copy=False)
    assert seen.shape == (2, 3, 4) and np.shares_memory(seen, data) and not seen.flags.writeable
    assert seen.strides[0] == 0 and seen.strides[2] == 0
    with pytest.raises(ValueError, match="read-only"):
        seen[0, 0, 0] = 1
    data[1, 0] = 99  # a view follows its data
    assert (seen[:, 1] == 99).all()


@pytest.mark.parametrize("data", [
    np.arange(12.0).reshape(3, 4)[:, ::2],  # strided
    np.asfortranarray(np.arange(6).reshape(3, 2)),
    np.array(["a", "bc"]),
    np.array([1, 2], dtype="datetime64[s]"),  # the buffer protocol cannot carry it
    np.array([None, "x"], dtype=object),
    np.zeros((0, 2)),
], ids=["strided", "fortran", "str", "datetime", "object", "empty"])
def test_view_of_any_array(data: np.ndarray) -> None:
    target = [3, *data.shape]
    seen = broadcast_v3(data, target, copy=False)
    assert seen.shape == tuple(target) and seen.dtype == data.dtype and not seen.flags.writeable
    assert seen.tolist() == np.broadcast_to(data, target).tolist()


def test_out_overlapping_the_data_reads_it_first() -> None:
    buffer = numbered((4, 6))
    data = buffer[2].copy()
    broadcast_v3(buffer[2], [4, 6], out=buffer)  # data is a row of out itself
    assert (buffer == data).all()
    same = numbered((5,))
    assert (broadcast_v3(same, [5], out=same) == numbered((5,))).all()


CALL = "[Broadcast-3 numpy, data (3,), target_shape [2, 3]]"
OUT_ERRORS = [
    ("shape", lambda: np.empty((3, 2), np.float32), ValueError, f"out.shape=(3, 2), but should be (2, 3) {CALL}"),
    ("dtype", lambda: np.empty((2, 3), np.float64), TypeError, "out.dtype=<f8 (float64), but should be <f4 (float32)"),
    ("byte_order", lambda: np.empty((2, 3), ">f4"), TypeError, "out.dtype=>f4"),
    ("not_contiguous", lambda: np.empty((2, 6), np.float32)[:, ::2], ValueError,
     "out.flags.c_contiguous=False, but should be True"),
    ("fortran", lambda: np.asfortranarray(np.empty((2, 3), np.float32)), ValueError, "c_contiguous=False"),
    ("read_only", lambda: np.broadcast_to(np.float32(0), (2, 3)), ValueError, "out.flags.writeable=False"),
    ("list", lambda: [[0.0] * 3] * 2, TypeError, f"type(out)=list, but should be numpy.ndarray {CALL}"),
]


@pytest.mark.parametrize(("make", "error", "fragment"), [row[1:] for row in OUT_ERRORS],
                         ids=[row[0] for row in OUT_ERRORS])
def test_bad_out(make: Callable[[], object], error: type, fragment: str) -> None:
    with pytest.raises(error) as info:
        broadcast_v3(np.ones(3, np.float32), [2, 3], out=make())
    assert fragment in str(info.value)


def test_bad_out_messages_name_the_call() -> None:
    with pytest.raises(ValueError, match=r"\[Broadcast-3 explicit, data \(3,\), target_shape \[2, 3\], "
                                         r"axes_mapping \[1\]\]"):
        broadcast_v3(np.ones(3), [2, 3], [1], "explicit", out=np.empty((3, 3)))
    with pytest.raises(ValueError, match=r"\[Expand, data \(3,\), target_shape \[2, 1\]\]"):
        expand(np.ones(3), [2, 1], out=np.empty((3, 3)))
    with pytest.raises(ValueError, match=r"\[Broadcast-0, arg \(3,\), shape \[2, 3\], broadcast_axes \[0\]\]"):
        broadcast_v0(np.ones(3), [2, 3], [0], out=np.empty((3, 3)))


def test_out_with_copy_false_is_refused() -> None:
    with pytest.raises(ValueError, match="copy=False with out="):
        broadcast_v3(np.ones(3), [2, 3], out=np.empty((2, 3)), copy=False)


def test_rule_errors_come_before_out_errors() -> None:
    with pytest.raises(BroadcastError) as info:
        broadcast_v3(np.ones(3), [2, 4], out=np.empty(1))
    assert info.value.rule == "numpy_dim"


def test_large_fresh_outputs_reuse_dropped_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    from local_broadcast import pool

    monkeypatch.setattr(pool, "POOL_MIN_BYTES", 1 << 16)
    pool.release()
    data = numbered((300,)).astype(np.float32)
    first = broadcast_v3(data, [1000, 300])
    second = broadcast_v3(data, [1000, 300])
    assert not np.shares_memory(first, second)  # both alive: two blocks
    address = first.__array_interface__["data"][0]
    view = first[10:]
    del first
    third = broadcast_v3(data, [1000, 300])
    assert third.__array_interface__["data"][0] != address  # a view still holds the first block
    del view
    fourth = broadcast_v3(data, [1000, 300])
    assert fourth.__array_interface__["data"][0] == address  # now it is reused
    for result in (second, third, fourth):
        assert result.flags.writeable and result.flags.c_contiguous
        assert result.tobytes() == np.broadcast_to(data, (1000, 300)).tobytes()
    fourth[...] = 0  # writing one output leaves the others alone
    assert (third[5] == data).all()
    del second, third, fourth
    assert pool.release() > 0
    assert pool.release() == 0


def test_pool_off_and_object_outputs(monkeypatch: pytest.MonkeyPatch) -> None:
    from local_broadcast import pool

    monkeypatch.setattr(pool, "POOL_MIN_BYTES", 1 << 10)
    assert broadcast_v3(np.array([None, 1], dtype=object), [600, 2]).flags.owndata  # never pooled
    monkeypatch.setattr(pool, "POOL_MAX_BYTES", 0)
    assert broadcast_v3(np.ones(2), [600, 2]).flags.owndata


# Which copies the recipe makes: the speed of each pattern rests on these choices (see layout.py).
RECIPES = [
    # [id, data lined up, output shape, itemsize, (steps, scratch used?)]
    ("scalar_one_fill", (1, 1), (512, 1024), 4, (0, False)),
    ("nchw_one_copy", (1, 64, 1, 1), (16, 64, 64, 64), 4, (0, False)),
    ("inner_one_copy", (4096, 1), (4096, 256), 4, (0, False)),
    ("middle_one_copy", (8, 1, 128), (8, 4096, 128), 4, (0, False)),
    ("outer_long_rows_tiled", (1, 4096), (4096, 4096), 4, (3, True)),
    ("explicit_tiled", (1, 16, 16, 1), (1024, 16, 16, 16), 4, (3, True)),
    ("middle_short_runs_widened", (16, 1, 4), (16, 4096, 4), 4, (9, True)),
]


@pytest.mark.parametrize(("src", "out", "itemsize", "expected"), [row[1:] for row in RECIPES],
                         ids=[row[0] for row in RECIPES])
def test_recipe_choices(src: tuple[int, ...], out: tuple[int, ...], itemsize: int,
                        expected: tuple[int, bool]) -> None:
    from local_broadcast.layout import TMP, recipe

    made = recipe(src, out, itemsize, 1)
    steps = [step for part in made.parts for step in part]
    assert (len(steps), made.scratch > 0) == expected
    assert all(step.dst.buffer != TMP or step.src.buffer != TMP or step.dst.columns for step in steps)


def test_recipe_split_covers_the_output_once() -> None:
    from local_broadcast.layout import OUT, recipe

    for src, out in [((1, 256), (4097, 256)), ((3, 1, 4096), (3, 50, 4096)), ((1,), (1 << 20,))]:
        made = recipe(src, out, 4, 2)
        assert len(made.parts) == 2
        written = np.zeros(int(np.prod(out)), np.int64)
        for step in (step for part in made.parts for step in part if step.dst.buffer == OUT):
            written[step.dst.lo:step.dst.hi] += 1
        assert (written == 1).all()  # every element by exactly one step: the parts never race
