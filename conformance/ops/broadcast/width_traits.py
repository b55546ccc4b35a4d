"""Traits of integer widths: shape values and element counts beyond int32, uint32 or int64, and what a value becomes
once cut to its low 32 bits (as int32), as a runtime that reads 64-bit shape values in 32 bits sees it."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from conformance.ops.broadcast.params import BroadcastParams as Case
from conformance.ops.broadcast.params import outcome
from conformance.ops.broadcast.shape_traits import axes_of, facing, target_of
from conformance.ops.broadcast.value_traits import INT32_MAX, output_has_at_least
from conformance.ops.broadcast.value_traits import spec_output as _output
from conformance.ops.broadcast.value_traits import static_shape as _static_shape


def wrap32(v: int) -> int:
    return (v + 2**31) % 2**32 - 2**31


def _wraps_valid(case: Case, target: bool = True, axes: bool = True) -> bool:
    """Invalid, with a target_shape or axes_mapping value outside int32, and valid with every value cut to its
    low 32 bits (read as int32); ``target`` / ``axes``: which of the two inputs are cut (fed at run time)."""
    values = (target_of(case) if target else []) + (axes_of(case) if axes else [])
    if outcome(case)[1] is None or not any(v < -2**31 or v > INT32_MAX for v in values):
        return False
    cut = replace(case, target_shape=[wrap32(v) for v in target_of(case)] if target else case.target_shape,
                  axes_mapping=[wrap32(v) for v in axes_of(case)] if axes and case.axes_mapping is not None
                  else case.axes_mapping)
    return outcome(cut)[1] is None


def _axes_negative_in_int32(case: Case) -> bool:
    """An axes_mapping value that is negative once cut to its low 32 bits (as int32)."""
    return any(wrap32(v) < 0 for v in axes_of(case))


def _target_cut_to_int32(case: Case) -> tuple[Any, str | None] | None:
    """For valid inputs with a target_shape value outside int32: the outcome (shape, rule) with every target_shape
    value cut to its low 32 bits (read as int32), as a runtime that casts the shape through int32 sees it."""
    if outcome(case)[1] is not None or not any(v < -2**31 or v > INT32_MAX for v in target_of(case)):
        return None
    return outcome(replace(case, target_shape=[wrap32(v) for v in target_of(case)]))


def _target_cut_other_shape(case: Case) -> bool:
    cut = _target_cut_to_int32(case)
    return cut is not None and cut[1] is None and tuple(cut[0]) != tuple(outcome(case)[0])


def _target_cut_invalid(case: Case) -> bool:
    cut = _target_cut_to_int32(case)
    return cut is not None and cut[1] is not None


def _target_negative_in_int32_unmatched(case: Case) -> bool:
    """Bidirectional: a target_shape value that is negative once cut to its low 32 bits (as int32) faces a data
    dimension of 1 or none (the target is longer than the data there)."""
    if case.mode != "bidirectional":
        return False
    target = target_of(case)
    extra = target[:max(len(target) - len(case.data_shape), 0)]
    return any(wrap32(t) < 0 for t in extra) or any(wrap32(t) < 0 and d == 1 for d, t in facing(case))


def _product_overflows(shape: Any) -> bool:
    """The dimensions multiplied left to right as uint64 overflow at some step, or end beyond INT64_MAX (how torch
    counts a tensor's elements and bytes: c10 safe_multiplies_u64)."""
    if shape is None or None in tuple(shape):
        return False
    product = 1
    for d in shape:
        product *= int(d) % 2**64
        if product >= 2**64:
            return True
    return product > 2**63 - 1


WIDTH_TRAITS: dict[str, tuple[Callable[[Case], bool], str]] = {
    "output_elements_at_least_2_32": (output_has_at_least(2**32),
                                      "the spec's output has 2**32 elements or more (4 GiB of a one-byte type)"),
    "output_elements_at_least_2_62": (output_has_at_least(2**62), "the spec's output has 2**62 elements or more"),
    "output_elements_at_least_2_63": (output_has_at_least(2**63),
                                      "the spec's output has 2**63 elements or more (its count overflows int64)"),
    "dims_product_overflows_int64": (lambda c: _product_overflows(_static_shape(c)) or _product_overflows(_output(c)),
                                     "the data's or the output's dimensions, multiplied left to right as uint64, "
                                     "overflow at some step (a 0 after it too) or end beyond INT64_MAX"),
    "target_beyond_int32": (lambda c: any(t > INT32_MAX for t in target_of(c)),
                            "a target_shape value does not fit in int32"),
    "target_beyond_int32_negative_as_int32": (lambda c: any(t > INT32_MAX and wrap32(t) < 0 for t in target_of(c)),
                                              "a target_shape value does not fit in int32 and is negative once cut "
                                              "to its low 32 bits (as int32): 2**31, 2**63 - 1"),
    "target_beyond_int32_meets_equal_data_dim": (lambda c: any(d == t > INT32_MAX for d, t in facing(c)),
                                                 "a target_shape value beyond int32 faces a data dimension equal to "
                                                 "it (the data, then empty, has a dimension beyond int32)"),
    "target_beyond_uint32": (lambda c: any(t > 2**32 - 1 for t in target_of(c)),
                             "a target_shape value does not fit in uint32 (2**32 or more)"),
    "target_at_least_2_62": (lambda c: any(t >= 2**62 for t in target_of(c)),
                             "a target_shape value is 2**62 or more (a 1-byte tensor of it overflows what any "
                             "allocator can give)"),
    "negative_target_nonnegative_as_int32": (lambda c: any(t < 0 and wrap32(t) >= 0 for t in target_of(c)),
                                             "a negative target_shape value whose low 32 bits are not negative as "
                                             "int32 (-2**62, -2**63: 0)"),
    "last_target_beyond_int32": (lambda c: bool(target_of(c)) and target_of(c)[-1] > INT32_MAX,
                                 "the last target_shape value does not fit in int32"),
    "target_elements_beyond_int32": (lambda c: all(t > 0 for t in target_of(c)) and math.prod(target_of(c)) > INT32_MAX,
                                     "the target_shape values multiply to more than 2**31 - 1 (an f32 tensor of that "
                                     "shape takes 8 GiB or more)"),
    "shape_values_wrap_valid_in_int32": (_wraps_valid, "invalid, with a target_shape or axes_mapping value outside "
                                         "int32, but valid with each value cut to its low 32 bits (as int32)"),
    "target_values_wrap_valid_in_int32": (lambda c: _wraps_valid(c, axes=False), "invalid, with a target_shape "
                                          "value outside int32, but valid with the target_shape values cut to their "
                                          "low 32 bits (as int32)"),
    "axes_values_wrap_valid_in_int32": (lambda c: _wraps_valid(c, target=False), "invalid, with an axes_mapping "
                                        "value outside int32, but valid with the axes_mapping values cut to their "
                                        "low 32 bits (as int32)"),
    "axes_negative_in_int32": (_axes_negative_in_int32, "an axes_mapping value is negative once cut to its low 32 bits "
                               "(as int32)"),
    "target_negative_in_int32": (lambda c: any(wrap32(t) < 0 for t in target_of(c)),
                                 "a target_shape value is negative once cut to its low 32 bits (as int32)"),
    "target_int32_cut_other_shape": (_target_cut_other_shape,
                                     "valid, and with its target_shape values cut to their low 32 bits (as int32) "
                                     "the input is valid with another output shape"),
    "target_int32_cut_invalid": (_target_cut_invalid,
                                 "valid, and with its target_shape values cut to their low 32 bits (as int32) the "
                                 "input breaks a rule (a cut value facing a data dimension it no longer equals, or "
                                 "negative)"),
    "target_negative_in_int32_unmatched": (_target_negative_in_int32_unmatched,
                                           "bidirectional: a target_shape value negative once cut to int32 faces a "
                                           "data dimension of 1 or none"),
    "int64_max_in_target": (lambda c: 2**63 - 1 in target_of(c),
                            "a target_shape value is 2**63 - 1 (int64 max)"),
}
