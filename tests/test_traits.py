"""The Broadcast traits (conformance/ops/broadcast/traits.py), kept by role in modules of their own: each name in one
module only, so that merging them cannot drop one."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.ops.broadcast import (
    axes_traits,
    road_traits,
    shape_traits,
    traits,
    value_traits,
    width_traits,
)
from tests import builders

ROLES = {"shape": shape_traits.SHAPE_TRAITS, "axes": axes_traits.AXES_TRAITS, "width": width_traits.WIDTH_TRAITS,
         "road": road_traits.ROAD_TRAITS, "value": value_traits.VALUE_TRAITS}


def test_each_trait_is_in_one_module_of_its_role_and_all_of_them_are_traits():
    seen: dict[str, str] = {}
    for role, table in ROLES.items():
        for name in table:
            assert name not in seen, f"trait {name!r} is in both the {seen[name]} and the {role} traits"
            seen[name] = role
    assert set(seen) == set(traits.TRAITS)
    assert all(description.strip() for _, description in traits.TRAITS.values())


def _case(data, target, mode="numpy", axes=None):
    return builders.case(mode, tuple(data), target, axes).params


@pytest.mark.parametrize(("trait", "case", "holds"), [
    ("zero_size_data", _case((0, 1), [0, 4]), True),
    ("zero_size_data", _case((2, 1), [2, 4]), False),
    ("axes_unsorted_or_out_of_range", _case((2,), [2, 3], "explicit", [1, 0]), True),
    ("axes_unsorted_or_out_of_range", _case((2,), [2, 3], "explicit", [0]), False),
    ("target_int32_cut_other_shape", _case((1,), [2**32 + 3]), True),
    ("target_int32_cut_other_shape", _case((1,), [3]), False),
    ("minus_1_keeps_data_dims", _case((2, 3), [-1, 3]), True),
    ("minus_1_keeps_data_dims", _case((2, 3), [2, 3]), False),
])
def test_a_trait_of_each_role_answers_through_the_merged_table(trait, case, holds):
    assert traits.holds(trait, case) is holds


def _f32(bits, shape):
    return np.array(bits, np.uint32).view(np.float32).reshape(shape)


@pytest.mark.parametrize(("bits", "shape", "holds"), [
    ([0x7FC00001, 0x7FC00002, 0x7FC00003, 0x7FC00004], (2, 2), True),  # NaNs that a transposition moves
    ([0x80000000, 0, 0x80000000, 0], (2, 2), True),  # zeros of both signs
    ([0x7FC00000] * 4, (2, 2), False),  # the same bits everywhere: nothing to tell apart
    ([0x3F800000, 0x40000000, 0x40400000, 0x40800000], (2, 2), False),  # 1, 2, 3, 4: no longer equal when turned
    ([0x7FC00001, 0x7FC00002, 0x7FC00003, 0x7FC00004, 0x7FC00005, 0x7FC00006], (2, 3), False),  # (3, 2) turned
    ([0x7FC00001, 0x7FC00002, 0x7FC00003, 0x7FC00004], (1, 2, 2, 1), True),  # dimensions of 1 left out
])
def test_a_tensor_equal_to_its_transposition_counting_nans_equal(bits, shape, holds):
    assert value_traits._same_reversed_counting_nans_equal(_f32(bits, shape)) is holds


def test_the_transposition_trait_follows_the_data_the_check_feeds():
    # data (2, 2, 1) with shape [3] holds four NaNs (ort_grad_expand_2x2x1_to_3), with [1, 1] the same data and
    # an output of its shape (the Expand changes nothing), and (2, 3) holds finite values as well
    assert traits.holds("transposed_equal_counting_nans_equal", _case((2, 2, 1), [3], "bidirectional"))
    assert not traits.holds("transposed_equal_counting_nans_equal", _case((2, 2, 1), [1, 1], "bidirectional"))
    assert not traits.holds("transposed_equal_counting_nans_equal", _case((4, 4), [4, 4], "bidirectional"))


@pytest.mark.parametrize(("trait", "data", "target", "holds"), [
    ("output_of_4_or_more_elements", (), [2, 2], True),  # a scalar to 4 elements
    ("output_of_4_or_more_elements", (), [3], False),
    ("output_of_4_or_more_elements", (3,), [2, 3], True),
    # an empty output (the data's 4 elements are data_of_4_or_more_elements)
    ("output_of_4_or_more_elements", (4,), [0, 4], False),
    ("output_of_4_or_more_elements", (2,), [3], False),  # invalid: no output
    ("output_elements_at_least_2_32", (2,), [2**31, 1], True),  # (2**31, 2): 2**32 elements
    ("output_elements_at_least_2_32", (1,), [2**31, 1], False),  # 2**31 elements
    ("output_elements_at_least_2_32", (2,), [2**32, 0], False),  # empty
    ("output_elements_at_least_2_32", (3,), [2**31, 2], False),  # invalid: no output
])
def test_an_output_size_trait_counts_the_spec_output(trait, data, target, holds):
    assert traits.holds(trait, _case(data, target, "bidirectional")) is holds
