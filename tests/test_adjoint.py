"""The adjoint of Broadcast (004_f535a019e64b3d53.txt: "arg_bar <- Sum(Delta, broadcast_axes)"): the reference
and local_broadcast agree bit for bit on every case file's case, each is the transpose of its own forward op,
the spec's examples and hand-computed ones hold, and every error branch raises what it says."""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import local_broadcast
import reference
from conformance.cases import Case, load_all
from conformance.data import make_data
from conformance.run.plan import nominal_bytes
from local_broadcast import BroadcastError
from tests.strategies import DIMS, valid_target

# delta leads with inf, -inf and the extremes: their sums are NaN or overflow, as they should be.
pytestmark = [pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning"),
              pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")]
ROOT = Path(__file__).resolve().parents[1]
# Cases whose delta (the output) is larger than this in f64 are left out: summing them proves nothing more.
BUDGET = 64 * 2**20


def valid_cases() -> list[Case]:
    loaded, errors = load_all(ROOT / "cases")
    assert not errors, errors
    return [case for cases in loaded.values() for case in cases  # Broadcast's cases: the adjoint is its own
            if case.op == "broadcast" and case.valid and not case.dynamic
            and nominal_bytes(case.expect_shape, "f64") <= BUDGET]


CASES = valid_cases()


def added_axes(case: Case) -> list[int]:
    """nGraph's broadcast_axes for an explicit case: the output axes axes_mapping skips."""
    return [i for i in range(len(case.params.target_shape)) if i not in set(case.params.axes_mapping)]


def ops(case: Case, version: int) -> Iterator[tuple[str, Callable[..., np.ndarray], Callable[..., np.ndarray],
                                                    Callable[..., np.ndarray], Callable[..., np.ndarray]]]:
    """(name, local adjoint, reference adjoint, local forward, reference forward) of one op version; each
    adjoint takes delta (and the local one out=), each forward the data."""
    p = case.params
    shape, target, axes, mode = p.data_shape, p.target_shape, p.axes_mapping, p.mode
    if version == 0:
        added = added_axes(case)
        yield ("Broadcast-0", partial(local_broadcast.broadcast_v0_adjoint, arg_shape=shape, broadcast_axes=added),
               partial(reference.broadcast_v0_adjoint, arg_shape=shape, broadcast_axes=added),
               partial(local_broadcast.broadcast_v0, shape=target, broadcast_axes=added),
               partial(reference.broadcast_v0, shape=target, broadcast_axes=added))
        return
    names = ["Broadcast-1"] if version == 1 else ["Broadcast-3"] + (["Expand"] if mode == "bidirectional" else [])
    local_forward = {
        "Broadcast-1": partial(local_broadcast.broadcast_v1, target_shape=target, axes_mapping=axes, mode=mode),
        "Broadcast-3": partial(local_broadcast.broadcast_v3, target_shape=target, axes_mapping=axes, mode=mode),
        "Expand": partial(local_broadcast.expand, shape=target)}
    for name in names:
        yield (name, partial(local_broadcast.broadcast_adjoint, data_shape=shape, target_shape=target,
                             axes_mapping=axes, mode=mode, op=name),
               partial(reference.broadcast_adjoint, data_shape=shape, target_shape=target, axes_mapping=axes,
                       mode=mode),
               local_forward[name], partial(reference.broadcast, target_shape=target, axes_mapping=axes, mode=mode))


def outcome(call: Callable[[], np.ndarray]) -> tuple[object, ...]:
    """What a call did, comparable across implementations: the rule it broke, the type of another error,
    or the exact result."""
    try:
        result = call()
    except (BroadcastError, reference.BroadcastRuleError) as error:
        return ("reject", error.rule)
    except (ValueError, TypeError) as error:
        return ("error", type(error).__name__)
    assert isinstance(result, np.ndarray), f"type(result)={type(result).__name__}, but should be numpy.ndarray"
    return ("ok", result.shape, result.dtype.str, sum_bytes(result))


def sum_bytes(result: np.ndarray) -> bytes:
    """The bytes of a sum, every NaN as the canonical one. IEEE 754 leaves open which NaN a sum of several
    propagates and the sign of the NaN that inf + -inf makes, and numpy's SIMD loops vary both with the order
    they add in (which follows the arrays' alignment): a -NaN against a NaN is no divergence of a Sum. The sign
    of zero is kept: it does not depend on the order."""
    nan = np.isnan(result) if result.dtype.kind in "fV" else np.zeros(result.shape, bool)
    if nan.any():
        result = result.copy()
        result[nan] = np.nan
    return result.tobytes()


def assert_same_bits(got: np.ndarray, want: np.ndarray, context: str) -> None:
    """shape, then dtype, then bytes, with the first differing index."""
    __tracebackhide__ = True
    assert got.shape == want.shape, f"grad.shape={got.shape}, but should be {want.shape} [{context}]"
    assert got.dtype == want.dtype, f"grad.dtype={got.dtype}, but should be {want.dtype} [{context}]"
    if got.tobytes() != want.tobytes():
        elements = [np.frombuffer(a.tobytes(), np.uint8).reshape(a.size, a.itemsize) for a in (got, want)]
        first = int(np.flatnonzero((elements[0] != elements[1]).any(axis=1))[0])
        index = tuple(int(i) for i in np.unravel_index(first, got.shape))
        shown = [f"{a[index].item()!r} (bytes {e[first].tobytes().hex()})"
                 for a, e in zip((got, want), elements, strict=True)]
        raise AssertionError(f"grad[{', '.join(map(str, index))}]={shown[0]}, but should be {shown[1]} [{context}]")


# --- (a) local == reference, bit for bit, on every valid case -----------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_agrees_with_reference_on_every_case(case: Case) -> None:
    """Every valid case on every op version, with the suite's own data (specials first) as delta: fresh and
    out= results equal the reference's bit for bit, in delta's dtype and data's shape."""
    for dtype in ("f64", "i64", "f32"):
        delta = make_data(case.expect_shape, dtype)
        for version in case.params.versions:
            for name, local, ref, _, _ in ops(case, version):
                context = f"{name} adjoint, {case.summary()}, delta {dtype} (case {case.id})"
                want = ref(delta)
                assert (want.shape, want.dtype) == (case.params.data_shape, delta.dtype), context
                assert_same_bits(local(delta), want, context)
                out = np.full(case.params.data_shape, 7, delta.dtype)
                assert local(delta, out=out) is out, context
                assert_same_bits(out, want, f"out=, {context}")
        if 0 in case.params.versions:  # nGraph's broadcast_axes are exactly what explicit mode sums over
            assert_same_bits(reference.broadcast_v0_adjoint(delta, case.params.data_shape, added_axes(case)),
                             reference.broadcast_adjoint(delta, case.params.data_shape, case.params.target_shape,
                                                         case.params.axes_mapping, case.params.mode), case.id)


# --- (b) the adjoint is the transpose of the op: <broadcast(x), y> == <x, adjoint(y)> -------------------------
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_adjoint_is_the_transpose(case: Case) -> None:
    """For random x and y with small integer values (f64, so every product and sum is exact), each
    implementation's adjoint is the transpose of its own forward op."""
    rng = np.random.default_rng(zlib.crc32(case.id.encode()))
    x = rng.integers(-8, 9, case.params.data_shape).astype(np.float64)
    y = rng.integers(-8, 9, case.expect_shape).astype(np.float64)
    for version in case.params.versions:
        for name, local, ref, local_forward, ref_forward in ops(case, version):
            for which, adjoint, forward in (("local", local, local_forward), ("reference", ref, ref_forward)):
                lhs = np.sum(forward(x) * y)
                rhs = np.sum(x * adjoint(y))
                assert lhs == rhs, (f"<x, adjoint(y)>={rhs}, but should be <broadcast(x), y>={lhs} "
                                    f"[{which} {name}, {case.summary()} (case {case.id})]")


def test_cases_are_checked() -> None:
    """The budget leaves out only the huge cases: most valid cases, and every op version, are checked."""
    assert len(CASES) > 500
    assert {v for case in CASES for v in case.params.versions} == {0, 1, 3}
    assert {case.params.mode for case in CASES} == {"numpy", "explicit", "bidirectional"}


# --- (c) golden: the spec's examples, and small ones computed by hand ----------------------------------------
def both(call: Callable[..., np.ndarray], *args: object, **kwargs: object) -> np.ndarray:
    """The reference's result, after checking that local_broadcast's (fresh and out=) is the same bits."""
    name = call.__name__
    want = getattr(reference, name)(*args, **kwargs)
    assert_same_bits(getattr(local_broadcast, name)(*args, **kwargs), want, f"local {name}")
    out = np.empty(want.shape, want.dtype)
    getattr(local_broadcast, name)(*args, **kwargs, out=out)
    assert_same_bits(out, want, f"local {name}, out=")
    return want


@pytest.mark.parametrize(("shape", "axes", "delta", "expected"), [
    # 004: Broadcast([a, b, c], Shape{2, 3}, AxisSet{0}) = [[a, b, c], [a, b, c]]: a collects column 0
    ([2, 3], [0], [[1, 2, 3], [4, 5, 6]], [5, 7, 9]),
    # 004: Broadcast([a, b, c], Shape{3, 2}, AxisSet{1}) = [[a, a], [b, b], [c, c]]: a collects row 0
    ([3, 2], [1], [[1, 2], [3, 4], [5, 6]], [3, 7, 11]),
    # 004's p(C) with broadcast_axes {1, 3}: p([d0, d1, d2, d3, d4]) = [d0, d2, d4]; arg (2, 1, 1)
    ([2, 2, 1, 2, 1], {1, 3}, np.arange(8).reshape(2, 2, 1, 2, 1), [[[0 + 1 + 2 + 3]], [[4 + 5 + 6 + 7]]]),
    ([3], [], [1, 2, 3], [1, 2, 3]),  # nothing broadcast: the gradient is delta
    ([2, 0], [0], np.zeros((2, 0)), np.zeros(0)),
    ([0, 3], [0], np.zeros((0, 3)), [0, 0, 0]),  # an empty sum is 0
], ids=["spec_axisset_0", "spec_axisset_1", "spec_p_of_c_axes_1_3", "no_axes", "zero_arg", "zero_added"])
def test_v0_golden(shape: list[int], axes: object, delta: object, expected: object) -> None:
    delta = np.asarray(delta, np.int64)
    assert delta.shape == tuple(shape)
    expected = np.asarray(expected, np.int64)
    got = both(reference.broadcast_v0_adjoint, delta, expected.shape, axes)
    assert got.tolist() == expected.tolist() and got.dtype == np.int64


ONES = np.ones
# [id, data shape, target_shape, axes_mapping, mode, delta, expected gradient]; zero sizes and scalars first.
GOLDEN = [
    ("scalar_to_scalar", (), [], None, "numpy", 5, 5),
    ("scalar_to_zero", (), [0], None, "numpy", np.zeros(0), 0),
    ("one_to_zero", (1,), [0], None, "numpy", np.zeros(0), [0]),
    ("zero_to_3x0", (0,), [3, 0], None, "numpy", np.zeros((3, 0)), np.zeros(0)),
    ("one_vs_zero_bidirectional", (1,), [0], None, "bidirectional", np.zeros(0), [0]),
    ("zero_vs_one_bidirectional", (0,), [1], None, "bidirectional", np.zeros(0), np.zeros(0)),
    ("scalar_to_2x3", (), [2, 3], None, "numpy", [[1, 2, 3], [4, 5, 6]], 21),
    ("scalar_explicit", (), [2, 3], [], "explicit", [[1, 2, 3], [4, 5, 6]], 21),
    ("identity", (2,), [2], None, "numpy", [1, 2], [1, 2]),
    ("added_rows", (3,), [2, 3], None, "numpy", [[1, 2, 3], [10, 20, 30]], [11, 22, 33]),
    ("stretched_column", (2, 1), [2, 3], None, "numpy", [[1, 2, 3], [4, 5, 6]], [[6], [15]]),
    ("added_and_stretched", (1, 3), [2, 2, 3], None, "numpy",
     [[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]], [[22, 26, 30]]),
    ("added_size_1", (3,), [1, 3], None, "numpy", [[1, 2, 3]], [1, 2, 3]),
    ("explicit_rows", (2,), [2, 3], [0], "explicit", [[1, 2, 3], [4, 5, 6]], [6, 15]),
    ("explicit_columns", (3,), [2, 3], [1], "explicit", [[1, 2, 3], [4, 5, 6]], [5, 7, 9]),
    ("explicit_stretched", (1, 2), [2, 3, 2], [1, 2], "explicit", np.arange(12).reshape(2, 3, 2),
     [[0 + 2 + 4 + 6 + 8 + 10, 1 + 3 + 5 + 7 + 9 + 11]]),
    # Bidirectional: the gradient of data only. Where target's 1 met data's 3, nothing is summed.
    ("bidirectional_target_stretched", (2, 3), [1], None, "bidirectional", [[1, 2, 3], [4, 5, 6]],
     [[1, 2, 3], [4, 5, 6]]),
    ("bidirectional_both_stretched", (2, 1), [1, 3], None, "bidirectional", [[1, 2, 3], [4, 5, 6]], [[6], [15]]),
    ("bidirectional_added", (3,), [2, 1], None, "bidirectional", [[1, 2, 3], [4, 5, 6]], [5, 7, 9]),
    ("bidirectional_larger_than_target", (3, 1), [2, 1, 2], None, "bidirectional",
     np.arange(12).reshape(2, 3, 2), [[0 + 1 + 6 + 7], [2 + 3 + 8 + 9], [4 + 5 + 10 + 11]]),
    # Broadcast-1 / Broadcast-3 XML examples (001, 000), delta all ones: each element counts its copies
    ("v1_xml_numpy", (16, 1, 1), [1, 16, 50, 50], None, "numpy", ONES((1, 16, 50, 50)), np.full((16, 1, 1), 2500)),
    ("v1_xml_explicit_c", (16,), [1, 16, 50, 50], [1], "explicit", ONES((1, 16, 50, 50)), np.full(16, 2500)),
    ("v1_xml_explicit_hw", (50, 50), [1, 50, 50, 16], [1, 2], "explicit", ONES((1, 50, 50, 16)),
     np.full((50, 50), 16)),
    ("v3_xml_bidirectional", (16, 1, 1), [1, 1, 50, 50], None, "bidirectional", ONES((1, 16, 50, 50)),
     np.full((16, 1, 1), 2500)),
]


@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.float32, np.int8])
@pytest.mark.parametrize(("data_shape", "target", "axes", "mode", "delta", "expected"),
                         [row[1:] for row in GOLDEN], ids=[row[0] for row in GOLDEN])
def test_golden(data_shape: tuple[int, ...], target: list[int], axes: list[int] | None, mode: str, delta: object,
                expected: object, dtype: type) -> None:
    delta = np.asarray(delta).astype(dtype)
    expected = np.asarray(expected)
    got = both(reference.broadcast_adjoint, delta, data_shape, target, axes, mode)
    assert got.shape == data_shape and got.dtype == dtype
    # int8 wraps: the sum is in delta's type, as a Sum node of that element type computes it
    assert got.tolist() == expected.astype(np.int64).astype(dtype).tolist()


def test_sum_is_in_the_delta_type() -> None:
    """Integers wrap in their own width (np.sum alone would widen int8 to int64); each element starts from
    +0 (as numpy's sum and nGraph's Sum kernel do), so a lone -0.0 gives +0.0 and a NaN keeps its payload."""
    assert both(reference.broadcast_adjoint, np.full((2, 1), 100, np.int8), (1,), [2, 1]).tolist() == [-56]
    assert both(reference.broadcast_adjoint, np.full((3, 1), 2**63, np.uint64), (1,), [3, 1]).tolist() == [2**63]
    assert both(reference.broadcast_adjoint, np.array([1, 2, 3], np.float16), (), [3]).dtype == np.float16
    zero = both(reference.broadcast_adjoint, np.array([-0.0]), (1,), [1])
    assert zero.view(np.uint64).tolist() == [0]
    nan = np.array([0x7FC00123], np.uint32).view(np.float32)
    assert both(reference.broadcast_adjoint, nan, (1,), [1]).view(np.uint32).tolist() == [0x7FC00123]


@pytest.mark.parametrize("dtype", [np.complex128, ml_dtypes.bfloat16, ml_dtypes.int4, np.uint16],
                         ids=["complex128", "bfloat16", "int4", "uint16"])
def test_other_number_types(dtype: type) -> None:
    delta = np.array([[1, 2, 3], [1, 1, 1]]).astype(dtype)  # small enough for int4 (which wraps past 7)
    got = both(reference.broadcast_adjoint, delta, (2, 1), [2, 3])
    assert got.dtype == np.dtype(dtype) and got.tolist() == [[6], [3]]


def test_result_is_a_fresh_array() -> None:
    for delta, data_shape, target in [(np.arange(6.0).reshape(2, 3), (2, 3), [2, 3]), (np.array(3.0), (), [])]:
        for adjoint in (reference.broadcast_adjoint, local_broadcast.broadcast_adjoint):
            got = adjoint(delta, data_shape, target)
            assert isinstance(got, np.ndarray) and got.flags.writeable and got.flags.c_contiguous
            assert not np.shares_memory(got, delta)


def test_out_may_overlap_delta() -> None:
    delta = np.arange(8.0).reshape(2, 4)
    want = reference.broadcast_adjoint(delta, (4,), [2, 4])
    assert local_broadcast.broadcast_adjoint(delta, (4,), [2, 4], out=delta[1]) is not None
    assert delta[1].tolist() == want.tolist() == [4, 6, 8, 10]


def test_index_inputs_as_arrays_and_sets() -> None:
    """target_shape, axes_mapping and broadcast_axes of any integer type; broadcast_axes also as a set."""
    delta = np.arange(24).reshape(2, 3, 4)
    sums = [60, 92, 124]  # (0+1+2+3) + (12+13+14+15), (4+...+7) + (16+...+19), (8+...+11) + (20+...+23)
    for dtype in (np.int32, np.uint8):
        target = np.array([2, 3, 4], dtype)
        assert both(reference.broadcast_adjoint, delta, (3, 1), target).tolist() == [[s] for s in sums]
        assert both(reference.broadcast_adjoint, delta, (3,), target, np.array([1], dtype), "explicit").tolist() == sums
        assert both(reference.broadcast_v0_adjoint, delta, (3,), np.array([0, 2], dtype)).tolist() == sums
    assert both(reference.broadcast_v0_adjoint, delta, (3,), {2, 0}).tolist() == sums


# --- (d) property: local == reference on random shapes, modes, axes, element types and breakages -------------
NUMBER_TYPES = ["f64", "f32", "f16", "bf16", "i4", "i8", "u8", "i32", "i64", "u64"]


def delta_for(draw: st.DrawFn, shape: tuple[int, ...]) -> np.ndarray:
    """The suite's data (specials first) rolled, in a number type (or bool, which both refuse), sometimes a
    non-contiguous view."""
    dtype = draw(st.sampled_from(NUMBER_TYPES * 4 + ["bool"]))
    delta = np.roll(make_data(shape, dtype), draw(st.integers(0, 7)))
    if delta.ndim > 1 and draw(st.booleans()):
        delta = np.asfortranarray(delta)
    return delta


@st.composite
def adjoint_calls(draw: st.DrawFn) -> tuple[np.ndarray, tuple[int | None, ...], list[int], object, str]:
    """A valid forward call (data_shape, target_shape, axes_mapping, mode) and a delta of its output shape, or
    one thing broken: a forward rule, delta's shape, or an unknown data dimension."""
    mode = draw(st.sampled_from(["numpy", "explicit", "bidirectional"]))
    data_shape: tuple[int | None, ...] = tuple(draw(st.lists(DIMS, max_size=4)))
    prefix = draw(st.lists(DIMS, max_size=2))
    target, axes = valid_target(draw, mode, data_shape, prefix)
    breakage = draw(st.sampled_from(["none"] * 6 + ["rule", "delta_shape", "unknown"]))
    if breakage == "rule" and target:
        target[draw(st.integers(0, len(target) - 1))] = draw(st.integers(0, 5))
    try:
        shape = list(reference.output_shape(data_shape, target, axes, mode))
    except reference.BroadcastRuleError:
        shape = draw(st.lists(DIMS, max_size=4))
    if breakage == "delta_shape":
        if shape and draw(st.booleans()):
            shape[draw(st.integers(0, len(shape) - 1))] += draw(st.sampled_from([-1, 1]))
            shape = [abs(d) for d in shape]
        else:
            shape.insert(draw(st.integers(0, len(shape))), draw(DIMS))
    if breakage == "unknown" and data_shape:
        data_shape = tuple(None if i == 0 else d for i, d in enumerate(data_shape))
    return delta_for(draw, tuple(shape)), data_shape, target, axes, mode


@settings(deadline=None)  # example count: the hypothesis profile (tests/conftest.py)
@given(adjoint_calls())
def test_agrees_with_reference(call: tuple[np.ndarray, tuple[int | None, ...], list[int], object, str]) -> None:
    delta, data_shape, target, axes, mode = call
    want = outcome(lambda: reference.broadcast_adjoint(delta, data_shape, target, axes, mode))
    event(f"{mode}: {want[1] if want[0] != 'ok' else 'ok'}")  # pytest --hypothesis-show-statistics
    local = partial(local_broadcast.broadcast_adjoint, delta, data_shape, target, axes, mode)
    assert outcome(local) == want
    assert outcome(partial(local, op="Expand" if mode == "bidirectional" else "Broadcast-1")) == want
    if want[0] == "ok":
        out = np.full(data_shape, 3, delta.dtype)
        assert local(out=out) is out and sum_bytes(out) == want[3]


@st.composite
def v0_adjoint_calls(draw: st.DrawFn) -> tuple[np.ndarray, list[int], list[int]]:
    arg_shape = draw(st.lists(DIMS, max_size=4))
    kept = sorted(draw(st.permutations(range(len(arg_shape) + draw(st.integers(0, 3)))))[:len(arg_shape)])
    shape = [draw(DIMS) for _ in range(len(kept) and kept[-1] + 1 + draw(st.integers(0, 2)) or draw(DIMS))]
    for a, d in zip(kept, arg_shape, strict=True):
        shape[a] = d
    axes = [a for a in range(len(shape)) if a not in kept]
    breakage = draw(st.sampled_from(["none"] * 4 + ["delta_shape", "axes"]))
    if breakage == "delta_shape" and shape:
        shape[draw(st.integers(0, len(shape) - 1))] = draw(DIMS)
    elif breakage == "axes":
        axes = draw(st.lists(st.integers(-1, len(shape)), max_size=3))
    return delta_for(draw, tuple(shape)), arg_shape, axes


@settings(deadline=None)  # example count: the hypothesis profile (tests/conftest.py)
@given(v0_adjoint_calls())
def test_v0_agrees_with_reference(call: tuple[np.ndarray, list[int], list[int]]) -> None:
    delta, arg_shape, axes = call
    want = outcome(lambda: reference.broadcast_v0_adjoint(delta, arg_shape, axes))
    event(f"v0: {want[1] if want[0] != 'ok' else 'ok'}")
    assert outcome(lambda: local_broadcast.broadcast_v0_adjoint(delta, arg_shape, axes)) == want


# --- (e) every error branch: the exception type and a message fragment, in both implementations -------------
F64 = np.zeros((2, 3))
# [id, data_shape, target_shape, axes_mapping, mode, delta, error, rule (None: not a rule), reference fragment,
#  local fragment]
ERRORS = [
    ("delta_rank", (3,), [2, 3], None, "numpy", np.zeros(3), ValueError, None,
     "got delta shape (3,), output shape (2, 3)", "delta.shape=(3,), but should be (2, 3)"),
    ("delta_dim", (3,), [2, 3], None, "numpy", np.zeros((2, 4)), ValueError, None,
     "got delta shape (2, 4), output shape (2, 3)", "delta.shape=(2, 4), but should be (2, 3)"),
    ("delta_of_data_shape", (2, 1), [1, 3], None, "bidirectional", np.zeros((2, 1)), ValueError, None,
     "output shape (2, 3)", "but should be (2, 3), the output shape of the forward op"),
    ("delta_bool", (3,), [2, 3], None, "numpy", np.zeros((2, 3), bool), TypeError, None,
     "delta has a number element type (the adjoint is a Sum); got dtype bool",
     "delta.dtype=bool, but should be a number type"),
    ("delta_str", (3,), [2, 3], None, "numpy", np.zeros((2, 3), "U2"), TypeError, None, "got dtype <U2",
     "delta.dtype=<U2, but should be a number type"),
    ("delta_datetime", (3,), [2, 3], None, "numpy", np.zeros((2, 3), "M8[s]"), TypeError, None,
     "got dtype datetime64[s]", "but should be a number type"),
    ("delta_big_endian", (3,), [2, 3], None, "numpy", np.zeros((2, 3), ">f8"), TypeError, None,
     "delta is in native byte order; got dtype >f8", "delta.dtype=>f8, but should be in native byte order"),
    ("unknown_data_dim", (None,), [2, 3], None, "numpy", F64, ValueError, None,
     "data_shape is known to run the op; got (None,)", "data_shape=(None,), but should be known"),
    ("forward_numpy_dim", (3,), [2, 4], None, "numpy", np.zeros((2, 4)), BroadcastError, "numpy_dim",
     "data dimension 3 vs target 4", "data dimension 3 vs target 4"),
    ("forward_explicit_unsorted", (2, 3), [2, 3], [1, 0], "explicit", F64, BroadcastError, "explicit_unsorted",
     "axes_mapping [1, 0]", "axes_mapping [1, 0]"),
    ("forward_unknown_mode", (3,), [2, 3], None, "nearest", F64, BroadcastError, "unknown_mode",
     "mode 'nearest'", "mode 'nearest'"),
    # a forward rule is checked before delta: this delta would be wrong too
    ("rule_before_delta", (3,), [2, 4], None, "numpy", np.zeros(7, bool), BroadcastError, "numpy_dim",
     "data dimension 3", "data dimension 3"),
]


@pytest.mark.parametrize(("data_shape", "target", "axes", "mode", "delta", "error", "rule", "ref_fragment",
                          "local_fragment"), [row[1:] for row in ERRORS], ids=[row[0] for row in ERRORS])
def test_errors(data_shape: tuple[int | None, ...], target: list[int], axes: list[int] | None, mode: str,
                delta: np.ndarray, error: type, rule: str | None, ref_fragment: str, local_fragment: str) -> None:
    ref_error = reference.BroadcastRuleError if error is BroadcastError else error
    with pytest.raises(ref_error) as info:
        reference.broadcast_adjoint(delta, data_shape, target, axes, mode)
    assert ref_fragment in str(info.value) and f"Broadcast-3({mode})" in str(info.value)
    assert getattr(info.value, "rule", None) == rule
    with pytest.raises(error) as info:
        local_broadcast.broadcast_adjoint(delta, data_shape, target, axes, mode, out=np.zeros(9))
    assert local_fragment in str(info.value)
    assert getattr(info.value, "rule", None) == rule
    if rule is None:  # the adjoint's own errors name the call
        assert f"[Broadcast-3 {mode} adjoint, data {data_shape}" in str(info.value)


def test_bidirectional_is_not_in_broadcast_1() -> None:
    with pytest.raises(BroadcastError) as info:
        local_broadcast.broadcast_adjoint(F64, (3,), [2, 3], None, "bidirectional", op="Broadcast-1")
    assert info.value.rule == "bidirectional_not_in_v1"


# [id, arg_shape, broadcast_axes, delta, error, rule, reference fragment, local fragment]
V0_ERRORS = [
    ("delta_shape", (3,), [0], np.zeros((2, 4)), BroadcastError, "v0_shape",
     "delta shape [2, 4] without axes [0] is [4], arg shape [3]", "shape [2, 4] without axes [0] is [4]"),
    ("delta_rank", (3,), [1], np.zeros(3), BroadcastError, "v0_axes_range",
     "broadcast_axes [1] for delta shape [3]", "broadcast_axes [1] for shape [3]"),
    ("axes_range", (3,), [2], F64, BroadcastError, "v0_axes_range",
     "broadcast_axes [2] for delta shape [2, 3]", "broadcast_axes [2] for shape [2, 3]"),
    ("delta_bool", (3,), [0], np.zeros((2, 3), bool), TypeError, None, "got dtype bool",
     "delta.dtype=bool, but should be a number type"),
    ("delta_big_endian", (3,), [0], np.zeros((2, 3), ">i4"), TypeError, None, "got dtype >i4",
     "delta.dtype=>i4, but should be in native byte order"),
]


@pytest.mark.parametrize(("arg_shape", "axes", "delta", "error", "rule", "ref_fragment", "local_fragment"),
                         [row[1:] for row in V0_ERRORS], ids=[row[0] for row in V0_ERRORS])
def test_v0_errors(arg_shape: tuple[int, ...], axes: list[int], delta: np.ndarray, error: type, rule: str | None,
                   ref_fragment: str, local_fragment: str) -> None:
    ref_error = reference.BroadcastRuleError if error is BroadcastError else error
    with pytest.raises(ref_error) as info:
        reference.broadcast_v0_adjoint(delta, arg_shape, axes)
    assert ref_fragment in str(info.value) and "Broadcast-0 adjoint" in str(info.value)
    assert getattr(info.value, "rule", None) == rule
    with pytest.raises(error) as info:
        local_broadcast.broadcast_v0_adjoint(delta, arg_shape, axes)
    assert local_fragment in str(info.value)
    assert getattr(info.value, "rule", None) == rule


def read_only(size: int) -> np.ndarray:
    array = np.zeros(size)
    array.flags.writeable = False
    return array


@pytest.mark.parametrize(("make", "error", "fragment"), [
    (lambda: [[0.0]], TypeError, "type(out)=list, but should be numpy.ndarray"),
    (lambda: np.zeros(3, np.float32), TypeError, "out.dtype=<f4 (float32), but should be <f8 (float64)"),
    (lambda: np.zeros(4), ValueError, "out.shape=(4,), but should be (3,)"),
    (lambda: np.zeros(6)[::2], ValueError, "out.flags.c_contiguous=False"),
    (lambda: read_only(3), ValueError, "out.flags.writeable=False"),
], ids=["not_array", "dtype", "shape", "strided", "read_only"])
def test_bad_out(make: Callable[[], object], error: type, fragment: str) -> None:
    out = make()
    with pytest.raises(error) as info:
        local_broadcast.broadcast_adjoint(F64, (3,), [2, 3], out=out)
    assert fragment in str(info.value) and "[Broadcast-3 numpy adjoint, data (3,)" in str(info.value)
    with pytest.raises(error, match="Broadcast-0 adjoint, arg"):
        local_broadcast.broadcast_v0_adjoint(F64, (3,), [0], out=out)
