"""Traits of explicit mode's axes_mapping (and of an axes_mapping given where no mode takes one): its rank, order,
range, repeats and length."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from conformance.ops.broadcast.params import BroadcastParams as Case
from conformance.ops.broadcast.params import outcome
from conformance.ops.broadcast.shape_traits import axes_of, is_1d, target_of


def _axes_unsorted_or_out_of_range(case: Case) -> bool:
    """Explicit: axes_mapping (1-D) decreases somewhere, or holds an axis outside [0, the target's rank)."""
    axes, rank = axes_of(case), len(target_of(case))
    return case.mode == "explicit" and is_1d(case.axes_mapping) and (
        any(a < 0 or a >= rank for a in axes) or any(x > y for x, y in zip(axes, axes[1:], strict=False)))


def _unsorted_axes_otherwise_valid(case: Case) -> bool:
    """Explicit: axes_mapping (1-D, one axis per data dimension, no axis twice, each within the target's rank)
    decreases somewhere, and each data dimension is 1 or the target_shape value of the axis it names: valid but
    for its order."""
    axes, target = axes_of(case), target_of(case)
    if case.mode != "explicit" or not is_1d(case.axes_mapping) or not is_1d(case.target_shape):
        return False
    if len(axes) != len(case.data_shape) or len(set(axes)) < len(axes) or any(t < 0 for t in target):
        return False
    if any(a < 0 or a >= len(target) for a in axes) or axes == sorted(axes):
        return False
    return all(d is None or d in (1, target[a]) for d, a in zip(case.data_shape, axes, strict=True))


AXES_TRAITS: dict[str, tuple[Callable[[Case], bool], str]] = {
    "numpy_rule_holds": (lambda c: outcome(replace(c, mode="numpy", axes_mapping=None))[1] is None,
                         "with mode numpy and no axes_mapping the inputs would be valid"),
    "axes_not_1d": (lambda c: c.axes_mapping is not None and not is_1d(c.axes_mapping),
                    "axes_mapping is given and is not a list of values (a rank-0 value, or a nested list)"),
    "axes_unsorted_or_out_of_range": (_axes_unsorted_or_out_of_range, "explicit: axes_mapping decreases somewhere or "
                                      "holds an axis outside [0, the target_shape's rank)"),
    "axes_mapping_length_is_data_rank": (lambda c: is_1d(c.axes_mapping) and len(axes_of(c)) == len(c.data_shape),
                                         "axes_mapping (1-D) has one value per data dimension"),
    "unsorted_axes_otherwise_valid": (_unsorted_axes_otherwise_valid, "explicit: axes_mapping is unsorted, and valid "
                                      "but for its order (each data dimension 1 or the value of the axis it names)"),
    "empty_axes_for_data_of_target_rank": (lambda c: c.mode == "explicit" and is_1d(c.axes_mapping) and not axes_of(c)
                                           and is_1d(c.target_shape) and len(target_of(c)) == len(c.data_shape) > 0,
                                           "explicit: axes_mapping is empty, and the data (not a scalar) has the "
                                           "target's rank"),
    "duplicate_axes": (lambda c: is_1d(c.axes_mapping) and len(set(axes_of(c))) < len(axes_of(c)),
                       "axes_mapping (1-D) repeats an axis"),
    "axes_mapping_in_numpy_mode": (lambda c: c.mode != "explicit" and c.axes_mapping is not None,
                                   "axes_mapping is given outside explicit mode"),
    "axes_mapping_missing": (lambda c: c.mode == "explicit" and c.axes_mapping is None,
                             "explicit mode without axes_mapping"),
    "axes_mapping_into_empty_target": (lambda c: c.mode == "explicit" and not target_of(c) and bool(axes_of(c)),
                                       "explicit: axes_mapping names axes of an empty target_shape"),
    "axes_mapping_given_to_scalar": (lambda c: c.mode == "explicit" and not c.data_shape and is_1d(c.axes_mapping)
                                     and bool(axes_of(c)) and all(0 <= a < len(target_of(c)) for a in axes_of(c))
                                     and axes_of(c) == sorted(set(axes_of(c))),
                                     "explicit: scalar data with axes_mapping values, in range, sorted and distinct"),
    "scalar_mapped_to_a_one": (lambda c: c.mode == "explicit" and not c.data_shape and len(axes_of(c)) == 1
                               and 0 <= axes_of(c)[0] < len(target_of(c)) and target_of(c)[axes_of(c)[0]] == 1,
                               "explicit: scalar data with axes_mapping of one axis whose target_shape value is 1"),
}
