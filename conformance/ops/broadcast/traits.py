"""Named properties of a Broadcast case's inputs, so that a known difference can say for which inputs it happens.

A known difference names the conditions of the bug it records (conformance/known/); ``inputs: [trait, ...]``
are the conditions on the case's params, for named and generated cases alike. Each predicate takes the case's
BroadcastParams (mode, versions, data_shape, target_shape, axes_mapping), never raises, and answers False where
it cannot tell (a dimension unknown until run time). The traits that speak of the values a check feeds are
conformance/ops/broadcast/value_traits.py's, merged in below.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from conformance.ops.broadcast.params import BroadcastParams as Case
from conformance.ops.broadcast.params import outcome
from conformance.ops.broadcast.value_traits import INT32_MAX, VALUE_TRAITS
from conformance.ops.broadcast.value_traits import spec_output as _output
from conformance.ops.broadcast.value_traits import static_shape as _static_shape


def _flat(values: Any) -> list[int]:
    try:
        return [int(v) for v in np.asarray(values if values is not None else [], dtype=object).reshape(-1).tolist()]
    except (TypeError, ValueError):
        return []


def _target(case: Case) -> list[int]:
    return _flat(case.target_shape)


def _axes(case: Case) -> list[int]:
    return _flat(case.axes_mapping)


def _is_1d(values: Any) -> bool:
    return values is not None and np.ndim(np.asarray(values, dtype=object)) == 1


def _facing(case: Case) -> list[tuple[int | None, int]]:
    """(data dimension, target_shape value) pairs the mode's rule compares where the target_shape gives a value:
    right-aligned in numpy and bidirectional mode, through axes_mapping in explicit mode."""
    data, target = list(case.data_shape), _target(case)
    if case.mode == "explicit":
        return [(d, target[a]) for d, a in zip(data, _axes(case), strict=False) if 0 <= a < len(target)]
    n = min(len(data), len(target))
    return list(zip(data[len(data) - n:], target[len(target) - n:], strict=True))


def _wrap32(v: int) -> int:
    return (v + 2**31) % 2**32 - 2**31


def _wraps_valid(case: Case, target: bool = True, axes: bool = True) -> bool:
    """Invalid, with a target_shape or axes_mapping value outside int32, and valid with every value cut to its
    low 32 bits (read as int32); ``target`` / ``axes``: which of the two inputs are cut (fed at run time)."""
    values = (_target(case) if target else []) + (_axes(case) if axes else [])
    if outcome(case)[1] is None or not any(v < -2**31 or v > INT32_MAX for v in values):
        return False
    cut = replace(case, target_shape=[_wrap32(v) for v in _target(case)] if target else case.target_shape,
                  axes_mapping=[_wrap32(v) for v in _axes(case)] if axes and case.axes_mapping is not None
                  else case.axes_mapping)
    return outcome(cut)[1] is None


def _merged_rank(case: Case) -> int:
    """The dimensions a numpy or explicit broadcast keeps once adjacent axes are merged as OpenVINO's CPU
    Broadcast node merges them (fillOptimizedDimsAndSrcStrides: (repeat, data) pairs per axis, a 1 folds its
    neighbours together); 0 where it cannot tell."""
    out, data = _output(case), _static_shape(case)
    if out is None or data is None or case.mode == "bidirectional" or 0 in data:
        return 0
    src = [1] * len(out)
    if case.mode == "explicit":
        for d, a in zip(data, _axes(case), strict=False):
            src[a] = d
    else:
        src[len(out) - len(data):] = data
    dims = [x for s, o in zip(src, out, strict=True) for x in (o // s, s)]
    i = 1
    while i < len(dims) - 1:
        if dims[i] == 1:
            dims[i + 1] *= dims[i - 1]
            del dims[i - 1:i + 1]
        else:
            i += 1
    if len(dims) > 1 and dims[0] == 1:
        del dims[0]
    if len(dims) > 1 and dims[-1] == 1:
        del dims[-1]
    return len(dims)


def _declared_as_data(case: Case) -> bool:
    """Bidirectional, and the node declares the data's shape while the target_shape values are unknown (fed at run
    time): a target no longer than the data, facing no data dimension 1 (each unknown value merged with a data
    dimension other than 1 gives that dimension)."""
    data, n = case.data_shape, len(_target(case))
    return case.mode == "bidirectional" and _is_1d(case.target_shape) and n <= len(data) and None not in data and \
        1 not in data[len(data) - n:]


def _one_or_short_target(case: Case) -> bool:
    """Bidirectional, with a target_shape shorter than the data or a 1 facing a data dimension: where OpenVINO's
    ConvertBroadcast3 cannot align a Constant target with data of dynamic dimensions (make_compatible_shape)."""
    return case.mode == "bidirectional" and (len(_target(case)) < len(case.data_shape) or
                                             any(t == 1 for _, t in _facing(case)))


def _zero_meets_one_or_none(case: Case) -> bool:
    """Bidirectional: a target_shape value 0 faces a data dimension 1, or no data dimension (the target is longer)."""
    target = _target(case)
    n = max(len(target), len(case.data_shape))
    data = (1,) * (n - len(case.data_shape)) + tuple(case.data_shape)
    return case.mode == "bidirectional" and any(t == 0 and d == 1 for t, d in zip(target, data[n - len(target):],
                                                                                   strict=True))


def _axes_unsorted_or_out_of_range(case: Case) -> bool:
    """Explicit: axes_mapping (1-D) decreases somewhere, or holds an axis outside [0, the target's rank)."""
    axes, rank = _axes(case), len(_target(case))
    return case.mode == "explicit" and _is_1d(case.axes_mapping) and (
        any(a < 0 or a >= rank for a in axes) or any(x > y for x, y in zip(axes, axes[1:], strict=False)))


def _axes_negative_in_int32(case: Case) -> bool:
    """An axes_mapping value that is negative once cut to its low 32 bits (as int32)."""
    return any(_wrap32(v) < 0 for v in _axes(case))


def _target_cut_to_int32(case: Case) -> tuple[Any, str | None] | None:
    """For valid inputs with a target_shape value outside int32: the outcome (shape, rule) with every target_shape
    value cut to its low 32 bits (read as int32), as a runtime that casts the shape through int32 sees it."""
    if outcome(case)[1] is not None or not any(v < -2**31 or v > INT32_MAX for v in _target(case)):
        return None
    return outcome(replace(case, target_shape=[_wrap32(v) for v in _target(case)]))


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
    target = _target(case)
    extra = target[:max(len(target) - len(case.data_shape), 0)]
    return any(_wrap32(t) < 0 for t in extra) or any(_wrap32(t) < 0 and d == 1 for d, t in _facing(case))


def _unsorted_axes_otherwise_valid(case: Case) -> bool:
    """Explicit: axes_mapping (1-D, one axis per data dimension, no axis twice, each within the target's rank)
    decreases somewhere, and each data dimension is 1 or the target_shape value of the axis it names: valid but
    for its order."""
    axes, target = _axes(case), _target(case)
    if case.mode != "explicit" or not _is_1d(case.axes_mapping) or not _is_1d(case.target_shape):
        return False
    if len(axes) != len(case.data_shape) or len(set(axes)) < len(axes) or any(t < 0 for t in target):
        return False
    if any(a < 0 or a >= len(target) for a in axes) or axes == sorted(axes):
        return False
    return all(d is None or d in (1, target[a]) for d, a in zip(case.data_shape, axes, strict=True))


def _lone_zero_moved_by_reversal(case: Case, output: bool = False) -> bool:
    data = _output(case) if output else _static_shape(case)
    if data is None or len(data) < 2:
        return False
    others = [i for i, d in enumerate(data) if d != 1]
    return len(others) == 1 and data[others[0]] == 0 and others[0] != len(data) - 1 - others[0]


def _data_zero_meets_one_or_none(case: Case) -> bool:
    if case.mode != "bidirectional":
        return False
    data, target = list(case.data_shape), _target(case)
    unmatched = data[:max(len(data) - len(target), 0)]
    return (0, 1) in _facing(case) or 0 in unmatched


def _nop_target_of_ones(case: Case) -> bool:
    """target_shape is 1-D, all ones (or empty), and the output's rank is the data's: numpy and explicit mode with one
    value per data dimension, bidirectional mode with no more values than the data has dimensions."""
    target, rank = _target(case), len(case.data_shape)
    if not _is_1d(case.target_shape) or any(t != 1 for t in target):
        return False
    return len(target) <= rank if case.mode == "bidirectional" else len(target) == rank


def _minus_1_keeps_data_dims(case: Case) -> bool:
    """target_shape (1-D) holds -1, each facing a data dimension (right-aligned), and the input is valid once each -1
    is that data dimension: PyTorch's "-1 keeps the dimension" (Tensor.expand) reading of it."""
    target, data = _target(case), list(case.data_shape)
    if not _is_1d(case.target_shape) or -1 not in target:
        return False
    offset, kept = len(target) - len(data), []
    for i, t in enumerate(target):
        if t == -1:
            facing = data[i - offset] if i >= offset else None
            if facing is None:
                return False
            t = facing
        kept.append(t)
    return outcome(replace(case, target_shape=kept))[1] is None


def _negative_size_beside_zero(case: Case) -> bool:
    """Numpy mode: target_shape (1-D) holds a value below -1, each facing a data dimension 1 or none, the input is valid
    once each such value is 1 (and each -1 the data dimension it faces), and the sizes torch's eager expand makes (the
    target with each -1 kept as the data dimension) multiply, left to right as uint64, to 0 without overflowing on the
    way: then no check sees the negative size (c10 safe_multiplies_u64, the element count's only check)."""
    target, data = _target(case), list(case.data_shape)
    if case.mode != "numpy" or not _is_1d(case.target_shape) or not any(t < -1 for t in target):
        return False
    offset, made = len(target) - len(data), []
    for i, t in enumerate(target):
        facing = data[i - offset] if i >= offset else 1
        if t < -1 and facing != 1 or t == -1 and (i < offset or facing is None):
            return False
        made.append(1 if t < -1 else facing if t == -1 and facing is not None else t)
    if outcome(replace(case, target_shape=made))[1] is not None:
        return False
    product = 1
    for t, m in zip(target, made, strict=True):
        product *= (t if t < -1 else m) % 2**64
        if product >= 2**64:
            return False
    return product == 0


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
def _inferred_as_data_without_target_values(case: Case) -> bool:
    """What TensorFlow's shape functions infer with target_shape's length known and its values not: BroadcastTo
    (numpy) gives each output dimension that faces a data dimension above 1 that dimension and leaves the others
    unknown; BroadcastArgs (bidirectional) gives a shape as long as the longer of the two. The output is then the
    data's shape: a 1-D target_shape as long as the data (numpy) or no longer (bidirectional), and every data
    dimension known and above 1."""
    data, n = case.data_shape, len(_target(case))
    if not _is_1d(case.target_shape) or None in data or any(d <= 1 for d in data):
        return False
    return n == len(data) if case.mode == "numpy" else case.mode == "bidirectional" and n <= len(data)


def _target_tiles_data(case: Case) -> bool:
    """Numpy mode, invalid, no target_shape value negative, and every one facing a data dimension a multiple of it (0
    facing 0, or divisible by a dimension other than 0): XLA's BroadcastTo takes it and tiles the data (a negative
    value it takes too, but the output's size then overflows and it refuses that)."""
    data, target = case.data_shape, _target(case)
    if case.mode != "numpy" or not _is_1d(case.target_shape) or None in data or len(target) < len(data) or \
            any(t < 0 for t in target):
        return False
    return outcome(case)[1] is not None and all((d == 0 == t) or (d != 0 and t % d == 0) for d, t in _facing(case))


def _bcast_runs(case: Case) -> int:
    """The dimensions TensorFlow's BroadcastTo kernel broadcasts in, where it broadcasts (valid, a non-empty output
    other than the data's shape, data not a scalar): BCast with fewer_dims_optimization drops the output's
    dimensions of 1 and merges adjacent ones that alike stretch a data dimension of 1 or keep the data's; else 0."""
    out, data = _output(case), _static_shape(case)
    if out is None or data is None or not data or math.prod(out) == 0 or tuple(out) == tuple(data):
        return 0
    stretched = [d == 1 for d, o in zip((1,) * (len(out) - len(data)) + tuple(data), out, strict=True) if o != 1]
    return sum(1 for i, s in enumerate(stretched) if i == 0 or s != stretched[i - 1])


def _target_not_1d_valid_flat(case: Case) -> bool:
    return np.ndim(np.asarray(case.target_shape, dtype=object)) != 1 and \
        outcome(replace(case, target_shape=_target(case)))[1] is None


TRAITS: dict[str, tuple[Callable[[Case], bool], str]] = {
    "valid": (lambda c: outcome(c)[1] is None, "the spec accepts the inputs"),
    "output_not_empty": (lambda c: (o := _output(c)) is not None and math.prod(o) > 0,
                         "the spec's output has elements"),
    "output_empty": (lambda c: (o := _output(c)) is not None and math.prod(o) == 0,
                     "the spec's output has no elements (a dimension is 0)"),
    "numpy_rule_holds": (lambda c: outcome(replace(c, mode="numpy", axes_mapping=None))[1] is None,
                         "with mode numpy and no axes_mapping the inputs would be valid"),
    "output_elements_at_least_2_62": (lambda c: (o := _output(c)) is not None and math.prod(o) >= 2**62,
                                      "the spec's output has 2**62 elements or more"),
    "output_elements_at_least_2_63": (lambda c: (o := _output(c)) is not None and math.prod(o) >= 2**63,
                                      "the spec's output has 2**63 elements or more (its count overflows int64)"),
    "zero_size_data": (lambda c: 0 in c.data_shape, "a data dimension is 0"),
    "last_data_dim_zero": (lambda c: bool(c.data_shape) and c.data_shape[-1] == 0, "the data's last dimension is 0"),
    "zero_size_output": (lambda c: 0 in _target(c) or 0 in c.data_shape,
                         "a data or target_shape dimension is 0"),
    "zero_in_target": (lambda c: 0 in _target(c), "a target_shape value is 0"),
    "scalar_data": (lambda c: len(c.data_shape) == 0, "the data is a scalar"),
    "vector_data": (lambda c: len(c.data_shape) == 1, "the data has one dimension"),
    "empty_target": (lambda c: len(_target(c)) == 0, "target_shape is empty"),
    "target_not_1d": (lambda c: not _is_1d(c.target_shape), "target_shape is not a list of values (a rank-0 "
                                                                 "value, or a nested list)"),
    "target_not_1d_valid_flattened": (_target_not_1d_valid_flat,
                                      "target_shape is not 1-D (rank 0, 2 or more), and its values in order would "
                                      "be a valid target"),
    "target_rank_0": (lambda c: np.ndim(np.asarray(c.target_shape, dtype=object)) == 0,
                      "target_shape is a single value (rank 0), not a 1-D list"),
    "axes_not_1d": (lambda c: c.axes_mapping is not None and not _is_1d(c.axes_mapping),
                    "axes_mapping is given and is not a list of values (a rank-0 value, or a nested list)"),
    "target_rank_below_data": (lambda c: len(_target(c)) < len(c.data_shape),
                               "target_shape has fewer values than the data has dimensions"),
    "negative_target": (lambda c: any(t < 0 for t in _target(c)), "a target_shape value is negative"),
    "minus_1_keeps_data_dims": (_minus_1_keeps_data_dims, "target_shape holds -1, each facing a data dimension, and "
                                "the input is valid with each -1 made that dimension"),
    "dims_product_overflows_int64": (lambda c: _product_overflows(_static_shape(c)) or _product_overflows(_output(c)),
                                     "the data's or the output's dimensions, multiplied left to right as uint64, "
                                     "overflow at some step (a 0 after it too) or end beyond INT64_MAX"),
    "negative_size_beside_zero": (_negative_size_beside_zero, "numpy: target_shape holds a value below -1, each "
                                  "facing a data dimension 1 or none, the input is valid once each is 1, and the sizes "
                                  "multiply (left to right, as uint64) to 0 without overflowing"),
    "target_below_minus_1": (lambda c: any(t < -1 for t in _target(c)),
                             "a target_shape value is below -1 (-1 is what runtimes read as an unknown dimension)"),
    "minus_1_in_target": (lambda c: -1 in _target(c), "a target_shape value is -1"),
    "last_target_below_minus_1": (lambda c: bool(_target(c)) and _target(c)[-1] < -1,
                                  "the last target_shape value is below -1"),
    "target_beyond_int32": (lambda c: any(t > INT32_MAX for t in _target(c)),
                            "a target_shape value does not fit in int32"),
    "target_beyond_int32_negative_as_int32": (lambda c: any(t > INT32_MAX and _wrap32(t) < 0 for t in _target(c)),
                                              "a target_shape value does not fit in int32 and is negative once cut "
                                              "to its low 32 bits (as int32): 2**31, 2**63 - 1"),
    "target_beyond_int32_meets_equal_data_dim": (lambda c: any(d == t > INT32_MAX for d, t in _facing(c)),
                                                 "a target_shape value beyond int32 faces a data dimension equal to "
                                                 "it (the data, then empty, has a dimension beyond int32)"),
    "target_beyond_uint32": (lambda c: any(t > 2**32 - 1 for t in _target(c)),
                             "a target_shape value does not fit in uint32 (2**32 or more)"),
    "target_at_least_2_62": (lambda c: any(t >= 2**62 for t in _target(c)),
                             "a target_shape value is 2**62 or more (a 1-byte tensor of it overflows what any "
                             "allocator can give)"),
    "negative_target_nonnegative_as_int32": (lambda c: any(t < 0 and _wrap32(t) >= 0 for t in _target(c)),
                                             "a negative target_shape value whose low 32 bits are not negative as "
                                             "int32 (-2**62, -2**63: 0)"),
    "last_target_beyond_int32": (lambda c: bool(_target(c)) and _target(c)[-1] > INT32_MAX,
                                 "the last target_shape value does not fit in int32"),
    "target_elements_beyond_int32": (lambda c: all(t > 0 for t in _target(c)) and math.prod(_target(c)) > INT32_MAX,
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
    "target_all_ones_of_data_rank": (lambda c: len(_target(c)) == len(c.data_shape) > 0 and
                                     all(t == 1 for t in _target(c)),
                                     "target_shape is all ones, as many as the data has dimensions"),
    "bidirectional_rule_holds": (lambda c: outcome(replace(c, mode="bidirectional", axes_mapping=None))[1] is None,
                                 "with mode bidirectional and no axes_mapping the inputs would be valid"),
    "zero_meets_one": (lambda c: c.mode == "bidirectional" and (0, 1) in _facing(c),
                       "bidirectional: a data dimension 0 faces a target_shape value 1"),
    "one_meets_zero": (lambda c: c.mode == "bidirectional" and (1, 0) in _facing(c),
                       "bidirectional: a data dimension 1 faces a target_shape value 0"),
    "no_target_value_above_1_unequal": (
        lambda c: _is_1d(c.target_shape) and len(_target(c)) <= len(c.data_shape)
        and all(d is not None and (t == d or t <= 1) for d, t in _facing(c)),
        "target_shape is no longer than the data, and each of its values equals the data dimension it faces or is "
        "at most 1 (0, 1 or negative): were 0 and negatives read as 1, it would change nothing"),
    "target_of_one_value": (lambda c: _is_1d(c.target_shape) and len(_target(c)) == 1,
                            "target_shape is 1-D with one value"),
    "bidirectional_mode": (lambda c: c.mode == "bidirectional", "the mode is bidirectional"),
    "merged_rank_over_6": (lambda c: _merged_rank(c) > 6,
                           "numpy or explicit: more than 6 dimensions once adjacent axes alike are merged"),
    **VALUE_TRAITS,
    "single_element_data": (lambda c: (d := _static_shape(c)) is not None and math.prod(d) == 1,
                            "the data holds one element (a scalar, or every dimension 1)"),
    "data_of_4_or_more_elements": (lambda c: (d := _static_shape(c)) is not None and math.prod(d) >= 4,
                                   "the data holds 4 or more elements (as std::string, 32 bytes each, more than "
                                   "ONNX Runtime keeps inline in an initializer: 127 bytes)"),
    "output_is_data_shape": (lambda c: (o := _output(c)) is not None and o == _static_shape(c),
                             "valid, and the output shape is the data's (the broadcast changes nothing)"),
    "declared_as_data_at_run_time": (_declared_as_data, "bidirectional, and with the target_shape values unknown "
                                     "the output shape is the data's: a target no longer than the data, facing no "
                                     "data dimension 1"),
    "one_or_short_target": (_one_or_short_target, "bidirectional, with a target_shape shorter than the data or a "
                            "target_shape value 1 facing a data dimension"),
    "zero_meets_one_or_none": (_zero_meets_one_or_none, "bidirectional: a target_shape value 0 faces a data "
                               "dimension 1, or no data dimension"),
    "axes_unsorted_or_out_of_range": (_axes_unsorted_or_out_of_range, "explicit: axes_mapping decreases somewhere or "
                                      "holds an axis outside [0, the target_shape's rank)"),
    "axes_mapping_length_is_data_rank": (lambda c: _is_1d(c.axes_mapping) and len(_axes(c)) == len(c.data_shape),
                                         "axes_mapping (1-D) has one value per data dimension"),
    "axes_negative_in_int32": (_axes_negative_in_int32, "an axes_mapping value is negative once cut to its low 32 bits "
                               "(as int32)"),
    "target_negative_in_int32": (lambda c: any(_wrap32(t) < 0 for t in _target(c)),
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
    "unsorted_axes_otherwise_valid": (_unsorted_axes_otherwise_valid, "explicit: axes_mapping is unsorted, and valid "
                                      "but for its order (each data dimension 1 or the value of the axis it names)"),
    "empty_axes_for_data_of_target_rank": (lambda c: c.mode == "explicit" and _is_1d(c.axes_mapping) and not _axes(c)
                                           and _is_1d(c.target_shape) and len(_target(c)) == len(c.data_shape) > 0,
                                           "explicit: axes_mapping is empty, and the data (not a scalar) has the "
                                           "target's rank"),
    "dynamic_data": (lambda c: None in tuple(c.data_shape), "a data dimension is unknown until run time"),
    "duplicate_axes": (lambda c: _is_1d(c.axes_mapping) and len(set(_axes(c))) < len(_axes(c)),
                       "axes_mapping (1-D) repeats an axis"),
    "axes_mapping_in_numpy_mode": (lambda c: c.mode != "explicit" and c.axes_mapping is not None,
                                   "axes_mapping is given outside explicit mode"),
    "axes_mapping_missing": (lambda c: c.mode == "explicit" and c.axes_mapping is None,
                             "explicit mode without axes_mapping"),
    "axes_mapping_into_empty_target": (lambda c: c.mode == "explicit" and not _target(c) and bool(_axes(c)),
                                       "explicit: axes_mapping names axes of an empty target_shape"),
    "axes_mapping_given_to_scalar": (lambda c: c.mode == "explicit" and not c.data_shape and _is_1d(c.axes_mapping)
                                     and bool(_axes(c)) and all(0 <= a < len(_target(c)) for a in _axes(c))
                                     and _axes(c) == sorted(set(_axes(c))),
                                     "explicit: scalar data with axes_mapping values, in range, sorted and distinct"),
    "scalar_mapped_to_a_one": (lambda c: c.mode == "explicit" and not c.data_shape and len(_axes(c)) == 1
                               and 0 <= _axes(c)[0] < len(_target(c)) and _target(c)[_axes(c)[0]] == 1,
                               "explicit: scalar data with axes_mapping of one axis whose target_shape value is 1"),
    "data_is_empty_vector": (lambda c: tuple(c.data_shape) == (0,),
                             "the data's shape is (0,): one dimension, 0 (a graph input declared [0])"),
    "lone_zero_dim_moved_by_reversal": (_lone_zero_moved_by_reversal, "the data's one dimension other than 1 is a 0, "
                                        "and reversing the data's axes moves it (rank 2 or more, not the middle axis "
                                        "of an odd rank), e.g. (0, 1) or (1, 1, 0)"),
    "output_lone_zero_dim_moved_by_reversal": (lambda c: _lone_zero_moved_by_reversal(c, output=True),
                                               "valid, and the output's one dimension other than 1 is a 0 that "
                                               "reversing the output's axes moves, e.g. (0, 1) or (1, 0, 1, 1)"),
    "negative_target_faces_data_dim": (lambda c: any(t < 0 and d is not None and d != 1 for d, t in _facing(c)),
                                       "a negative target_shape value faces a data dimension other than 1"),
    "data_zero_meets_one_or_none": (_data_zero_meets_one_or_none, "bidirectional: a data dimension 0 faces a "
                                    "target_shape value 1, or no target_shape value (a shorter target)"),
    "reversal_moves_an_axis": (lambda c: len(c.data_shape) >= 2 or len(_target(c)) >= 2,
                               "the data or target_shape has 2 or more dimensions (reversing the axes of the data or "
                               "of the output moves one)"),
    "data_zero_faces_one": (lambda c: (0, 1) in _facing(c),
                            "a data dimension 0 faces a target_shape value 1 (right-aligned in numpy and bidirectional "
                            "mode, through axes_mapping in explicit mode), in any mode"),
    "nop_target_of_ones": (_nop_target_of_ones, "target_shape is 1-D and all ones (or empty), and the output has the "
                           "data's rank: the Broadcast EliminateNopBroadcast removes as a no-op"),
    "ones_target_longer_than_data": (lambda c: _is_1d(c.target_shape) and len(_target(c)) > len(c.data_shape)
                                     and all(t == 1 for t in _target(c)),
                                     "target_shape is all ones, with more values than the data has dimensions"),
    "target_is_data_shape": (lambda c: _is_1d(c.target_shape) and tuple(_target(c)) == tuple(c.data_shape),
                             "target_shape holds the data's own dimensions (a node of a Constant target_shape then "
                             "declares the data's shape in numpy and explicit mode)"),
    "data_rank_2_or_more": (lambda c: len(c.data_shape) >= 2, "the data has 2 or more dimensions"),
    "target_is_zero_vector": (lambda c: _is_1d(c.target_shape) and _target(c) == [0],
                              "target_shape is [0]: one value, 0"),
    "inferred_as_data_without_target_values": (_inferred_as_data_without_target_values,
                                               "a 1-D target_shape as long as the data (numpy) or no longer "
                                               "(bidirectional), and every data dimension known and above 1: with "
                                               "target_shape's values unknown, TensorFlow infers the data's shape"),
    "target_tiles_data": (_target_tiles_data, "numpy mode, invalid, no target_shape value negative, and every one "
                          "facing a data dimension a multiple of it (0 facing 0, or divisible by it)"),
    "bcast_runs_over_5": (lambda c: _bcast_runs(c) > 5,
                          "valid, and the output's dimensions other than 1 fall into more than 5 runs of alike "
                          "stretched (data dimension 1) or kept ones (TensorFlow's BCast merging)"),
    "output_of_2_or_more_elements": (lambda c: (o := _output(c)) is not None and math.prod(o) >= 2,
                                     "valid, and the output has 2 or more elements"),
    "int64_max_in_target": (lambda c: 2**63 - 1 in _target(c),
                            "a target_shape value is 2**63 - 1 (int64 max)"),
}


def holds(trait: str, case: Case) -> bool:
    return TRAITS[trait][0](case)


def of(case: Case) -> list[str]:
    """Every trait of the case, in TRAITS order (shown with a generated failure)."""
    return [name for name in TRAITS if holds(name, case)]


def describe(traits: Any) -> str:
    return "; ".join(TRAITS[t][1] for t in traits if t in TRAITS)
