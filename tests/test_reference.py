"""Golden tables for the reference: every documented example of the specs, and every error branch."""

from __future__ import annotations

import numpy as np
import pytest

import reference
from reference import BroadcastRuleError, broadcast, broadcast_v0, output_shape

# [data shape, target_shape, axes_mapping, mode, expected shape]; zero-size dims and scalars first.
GOLDEN = [
    ((), [], None, "numpy", ()),  # rules example 1: scalar and scalar
    ((), [0], None, "numpy", (0,)),
    ((1,), [0], None, "numpy", (0,)),
    ((0,), [2, 0], None, "numpy", (2, 0)),
    ((0,), [1], None, "bidirectional", (0,)),
    ((1,), [0], None, "bidirectional", (0,)),
    ((), [2, 3], [], "explicit", (2, 3)),
    ((0,), [2, 0], [1], "explicit", (2, 0)),
    # Broadcast-1 / Broadcast-3 XML examples (001, 000)
    ((16, 1, 1), [1, 16, 50, 50], None, "numpy", (1, 16, 50, 50)),
    ((16,), [1, 16, 50, 50], [1], "explicit", (1, 16, 50, 50)),
    ((50, 50), [1, 50, 50, 16], [1, 2], "explicit", (1, 50, 50, 16)),
    ((16, 1, 1), [1, 1, 50, 50], None, "bidirectional", (1, 16, 50, 50)),
    # the broadcast rules' worked examples (003), A broadcast with B
    ((2, 3), [1], None, "bidirectional", (2, 3)),
    ((3,), [2, 3], None, "bidirectional", (2, 3)),
    ((2, 3, 5), [], None, "bidirectional", (2, 3, 5)),
    ((2, 1, 5), [1, 4, 5], None, "bidirectional", (2, 4, 5)),
    ((6, 5), [2, 1, 5], None, "bidirectional", (2, 6, 5)),
    ((2, 1, 5), [4, 1], None, "bidirectional", (2, 4, 5)),
    ((3, 2, 1, 4), [5, 4], None, "bidirectional", (3, 2, 5, 4)),
    ((1, 5, 3), [5, 2, 1, 3], None, "bidirectional", (5, 2, 5, 3)),
    # the modes disagree on this pair (numpy rejects it, see ERRORS)
    ((3, 1), [2, 1, 6], None, "bidirectional", (2, 3, 6)),
    ((3, 1), [2, 3, 6], None, "numpy", (2, 3, 6)),
    # the suite's reading where the spec is silent: a data dimension 1 mapped to N in explicit mode
    ((1, 3), [4, 2, 3], [1, 2], "explicit", (4, 2, 3)),
]


@pytest.mark.parametrize("data_shape, target, axes, mode, expected", GOLDEN)
def test_golden_shapes(data_shape, target, axes, mode, expected):
    assert output_shape(data_shape, target, axes, mode) == expected
    data = np.arange(int(np.prod(data_shape)), dtype=np.int32).reshape(data_shape)
    out = broadcast(data, target, axes, mode)
    assert out.shape == expected and out.dtype == data.dtype
    assert not np.shares_memory(out, data)


def test_explicit_values_follow_the_mapping():
    # [H, W] -> [N, H, W, C] with axes_mapping [1, 2] (spec prose example): out[n, h, w, c] = data[h, w]
    data = np.arange(6).reshape(2, 3)
    out = broadcast(data, [4, 2, 3, 5], [1, 2], "explicit")
    for n, h, w, c in np.ndindex(*out.shape):
        assert out[n, h, w, c] == data[h, w]


@pytest.mark.parametrize("shape, axes, expected", [
    ([2, 3], [0], [[1, 2, 3], [1, 2, 3]]),  # nGraph example 1: Broadcast(arg, Shape{2,3}, AxisSet{0})
    ([3, 2], [1], [[1, 1], [2, 2], [3, 3]]),  # nGraph example 2: Broadcast(arg, Shape{3,2}, AxisSet{1})
])
def test_ngraph_examples(shape, axes, expected):
    assert broadcast_v0(np.array([1, 2, 3]), shape, axes).tolist() == expected


def test_values_are_copied_bit_exact():
    bits = np.array([0x80000000, 0x7FC00123, 0x00000001], np.uint32)  # -0.0, NaN payload, subnormal
    out = broadcast(bits.view(np.float32), [2, 3], None, "numpy")
    assert out.view(np.uint32).tolist() == [bits.tolist()] * 2


# (call arguments, rule, message fragment): one row per error branch.
ERRORS = [
    ((3,), [2, 3], [1], "warp", "unknown_mode", "mode 'warp'"),
    ((3,), [[2, 3]], None, "numpy", "target_shape_not_1d", "target_shape of rank 2"),
    ((3,), 3, None, "numpy", "target_shape_not_1d", "target_shape of rank 0"),
    ((3,), [2, -1], None, "numpy", "target_shape_negative", "[2, -1]"),
    ((3,), [2, 3], [1], "numpy", "axes_mapping_unexpected", "axes_mapping [1] in numpy mode"),
    ((3,), [2, 3], [], "bidirectional", "axes_mapping_unexpected", "in bidirectional mode"),
    ((3,), [2, 3], None, "explicit", "axes_mapping_missing", "no axes_mapping"),
    ((3,), [2, 3], [[1]], "explicit", "axes_mapping_not_1d", "axes_mapping of rank 2"),
    ((3,), [2, 3], [0, 1], "explicit", "explicit_length", "for data rank 1"),
    ((3,), [3, 2], [-1], "explicit", "explicit_negative", "axes_mapping [-1]"),
    ((3,), [2, 3], [2], "explicit", "explicit_range", "for target rank 2"),
    ((3, 3), [3, 3], [1, 0], "explicit", "explicit_unsorted", "axes_mapping [1, 0]"),
    ((3, 3), [2, 3], [1, 1], "explicit", "explicit_duplicate", "axes_mapping [1, 1]"),
    ((3,), [2, 4], [1], "explicit", "explicit_dim", "data dimension 3 mapped to target axis 1 of size 4"),
    ((2, 3), [3], None, "numpy", "numpy_rank", "data shape (2, 3), target_shape [3]"),
    ((3, 1), [2, 1, 6], None, "numpy", "numpy_dim", "data dimension 3 vs target 1"),
    ((0,), [1], None, "numpy", "numpy_dim", "data dimension 0 vs target 1"),
    ((3,), [2], None, "bidirectional", "bidirectional_dim", "data dimension 3 vs target 2"),
    ((3, 1, 5), [4, 4, 5], None, "bidirectional", "bidirectional_dim", "data dimension 3 vs target 4"),
]


@pytest.mark.parametrize("data_shape, target, axes, mode, rule, fragment", ERRORS)
def test_error_branches(data_shape, target, axes, mode, rule, fragment):
    with pytest.raises(BroadcastRuleError) as info:
        broadcast(np.zeros(data_shape, np.float32), target, axes, mode)
    assert info.value.rule == rule
    assert fragment in str(info.value)
    assert f"[{rule}]" in str(info.value) and f"({mode})" in str(info.value)


@pytest.mark.parametrize("shape, axes, rule, fragment", [
    ([2, 3], [2], "v0_axes_range", "broadcast_axes [2] for shape [2, 3]"),
    ([2, 4], [0], "v0_shape", "without axes [0] is [4], arg shape [3]"),
    ([-2, 3], [0], "target_shape_negative", "[-2, 3]"),
])
def test_v0_error_branches(shape, axes, rule, fragment):
    with pytest.raises(BroadcastRuleError) as info:
        broadcast_v0(np.zeros(3), shape, axes)
    assert info.value.rule == rule and fragment in str(info.value)


def test_every_rule_has_an_error_row():
    tested = {row[4] for row in ERRORS} | {"v0_axes_range", "v0_shape"}
    assert tested == set(reference.RULES)
