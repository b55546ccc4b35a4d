"""Traits of a Broadcast case's shapes: what the data, target_shape and output look like (zero sizes, scalars,
ranks, negative or -1 values, which dimensions face which). The helpers that read a case's shapes are here too, for
the other trait modules."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from conformance.ops.broadcast.params import BroadcastParams as Case
from conformance.ops.broadcast.params import outcome
from conformance.ops.broadcast.value_traits import output_has_at_least
from conformance.ops.broadcast.value_traits import spec_output as _output
from conformance.ops.broadcast.value_traits import static_shape as _static_shape


def flat(values: Any) -> list[int]:
    try:
        return [int(v) for v in np.asarray(values if values is not None else [], dtype=object).reshape(-1).tolist()]
    except (TypeError, ValueError):
        return []


def target_of(case: Case) -> list[int]:
    return flat(case.target_shape)


def axes_of(case: Case) -> list[int]:
    return flat(case.axes_mapping)


def is_1d(values: Any) -> bool:
    return values is not None and np.ndim(np.asarray(values, dtype=object)) == 1


def facing(case: Case) -> list[tuple[int | None, int]]:
    """(data dimension, target_shape value) pairs the mode's rule compares where the target_shape gives a value:
    right-aligned in numpy and bidirectional mode, through axes_mapping in explicit mode."""
    data, target = list(case.data_shape), target_of(case)
    if case.mode == "explicit":
        return [(d, target[a]) for d, a in zip(data, axes_of(case), strict=False) if 0 <= a < len(target)]
    n = min(len(data), len(target))
    return list(zip(data[len(data) - n:], target[len(target) - n:], strict=True))


SHAPE_TRAITS: dict[str, tuple[Callable[[Case], bool], str]] = {
    "valid": (lambda c: outcome(c)[1] is None, "the spec accepts the inputs"),
    "output_not_empty": (output_has_at_least(1), "the spec's output has elements"),
    "output_empty": (lambda c: (o := _output(c)) is not None and math.prod(o) == 0,
                     "the spec's output has no elements (a dimension is 0)"),
    "zero_size_data": (lambda c: 0 in c.data_shape, "a data dimension is 0"),
    "last_data_dim_zero": (lambda c: bool(c.data_shape) and c.data_shape[-1] == 0, "the data's last dimension is 0"),
    "zero_size_output": (lambda c: 0 in target_of(c) or 0 in c.data_shape,
                         "a data or target_shape dimension is 0"),
    "zero_in_target": (lambda c: 0 in target_of(c), "a target_shape value is 0"),
    "scalar_data": (lambda c: len(c.data_shape) == 0, "the data is a scalar"),
    "vector_data": (lambda c: len(c.data_shape) == 1, "the data has one dimension"),
    "empty_target": (lambda c: len(target_of(c)) == 0, "target_shape is empty"),
    "target_not_1d": (lambda c: not is_1d(c.target_shape), "target_shape is not a list of values (a rank-0 "
                                                                 "value, or a nested list)"),
    "target_rank_0": (lambda c: np.ndim(np.asarray(c.target_shape, dtype=object)) == 0,
                      "target_shape is a single value (rank 0), not a 1-D list"),
    "target_rank_below_data": (lambda c: len(target_of(c)) < len(c.data_shape),
                               "target_shape has fewer values than the data has dimensions"),
    "negative_target": (lambda c: any(t < 0 for t in target_of(c)), "a target_shape value is negative"),
    "target_below_minus_1": (lambda c: any(t < -1 for t in target_of(c)),
                             "a target_shape value is below -1 (-1 is what runtimes read as an unknown dimension)"),
    "minus_1_in_target": (lambda c: -1 in target_of(c), "a target_shape value is -1"),
    "last_target_below_minus_1": (lambda c: bool(target_of(c)) and target_of(c)[-1] < -1,
                                  "the last target_shape value is below -1"),
    "target_all_ones_of_data_rank": (lambda c: len(target_of(c)) == len(c.data_shape) > 0 and
                                     all(t == 1 for t in target_of(c)),
                                     "target_shape is all ones, as many as the data has dimensions"),
    "bidirectional_rule_holds": (lambda c: outcome(replace(c, mode="bidirectional", axes_mapping=None))[1] is None,
                                 "with mode bidirectional and no axes_mapping the inputs would be valid"),
    "zero_meets_one": (lambda c: c.mode == "bidirectional" and (0, 1) in facing(c),
                       "bidirectional: a data dimension 0 faces a target_shape value 1"),
    "one_meets_zero": (lambda c: c.mode == "bidirectional" and (1, 0) in facing(c),
                       "bidirectional: a data dimension 1 faces a target_shape value 0"),
    "target_of_one_value": (lambda c: is_1d(c.target_shape) and len(target_of(c)) == 1,
                            "target_shape is 1-D with one value"),
    "bidirectional_mode": (lambda c: c.mode == "bidirectional", "the mode is bidirectional"),
    "single_element_data": (lambda c: (d := _static_shape(c)) is not None and math.prod(d) == 1,
                            "the data holds one element (a scalar, or every dimension 1)"),
    "data_of_4_or_more_elements": (lambda c: (d := _static_shape(c)) is not None and math.prod(d) >= 4,
                                   "the data holds 4 or more elements (as std::string, 32 bytes each, more than "
                                   "ONNX Runtime keeps inline in an initializer: 127 bytes)"),
    "output_is_data_shape": (lambda c: (o := _output(c)) is not None and o == _static_shape(c),
                             "valid, and the output shape is the data's (the broadcast changes nothing)"),
    "dynamic_data": (lambda c: None in tuple(c.data_shape), "a data dimension is unknown until run time"),
    "data_is_empty_vector": (lambda c: tuple(c.data_shape) == (0,),
                             "the data's shape is (0,): one dimension, 0 (a graph input declared [0])"),
    "negative_target_faces_data_dim": (lambda c: any(t < 0 and d is not None and d != 1 for d, t in facing(c)),
                                       "a negative target_shape value faces a data dimension other than 1"),
    "reversal_moves_an_axis": (lambda c: len(c.data_shape) >= 2 or len(target_of(c)) >= 2,
                               "the data or target_shape has 2 or more dimensions (reversing the axes of the data or "
                               "of the output moves one)"),
    "data_zero_faces_one": (lambda c: (0, 1) in facing(c),
                            "a data dimension 0 faces a target_shape value 1 (right-aligned in numpy and bidirectional "
                            "mode, through axes_mapping in explicit mode), in any mode"),
    "ones_target_longer_than_data": (lambda c: is_1d(c.target_shape) and len(target_of(c)) > len(c.data_shape)
                                     and all(t == 1 for t in target_of(c)),
                                     "target_shape is all ones, with more values than the data has dimensions"),
    "target_is_data_shape": (lambda c: is_1d(c.target_shape) and tuple(target_of(c)) == tuple(c.data_shape),
                             "target_shape holds the data's own dimensions (a node of a Constant target_shape then "
                             "declares the data's shape in numpy and explicit mode)"),
    "data_rank_2_or_more": (lambda c: len(c.data_shape) >= 2, "the data has 2 or more dimensions"),
    "target_is_zero_vector": (lambda c: is_1d(c.target_shape) and target_of(c) == [0],
                              "target_shape is [0]: one value, 0"),
    "output_of_2_or_more_elements": (output_has_at_least(2), "valid, and the output has 2 or more elements"),
}
