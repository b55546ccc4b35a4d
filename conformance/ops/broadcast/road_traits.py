"""Traits of the roads particular runtimes take: inputs read through a runtime's convention or shortcut (PyTorch's -1
keeping a dimension, TensorFlow's shape inference and BCast merging, XLA's tiling, OpenVINO's dimension merging,
no-op elimination and ConvertBroadcast3's alignment), each defined by the spec's rule applied to the inputs as that
road reads them."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from conformance.ops.broadcast.params import BroadcastParams as Case
from conformance.ops.broadcast.params import outcome
from conformance.ops.broadcast.shape_traits import axes_of, facing, is_1d, target_of
from conformance.ops.broadcast.value_traits import output_has_at_least
from conformance.ops.broadcast.value_traits import spec_output as _output
from conformance.ops.broadcast.value_traits import static_shape as _static_shape


def _merged_rank(case: Case) -> int:
    """The dimensions a numpy or explicit broadcast keeps once adjacent axes are merged as OpenVINO's CPU
    Broadcast node merges them (fillOptimizedDimsAndSrcStrides: (repeat, data) pairs per axis, a 1 folds its
    neighbours together); 0 where it cannot tell."""
    out, data = _output(case), _static_shape(case)
    if out is None or data is None or case.mode == "bidirectional" or 0 in data:
        return 0
    src = [1] * len(out)
    if case.mode == "explicit":
        for d, a in zip(data, axes_of(case), strict=False):
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
    data, n = case.data_shape, len(target_of(case))
    return case.mode == "bidirectional" and is_1d(case.target_shape) and n <= len(data) and None not in data and \
        1 not in data[len(data) - n:]


def _one_or_short_target(case: Case) -> bool:
    """Bidirectional, with a target_shape shorter than the data or a 1 facing a data dimension: where OpenVINO's
    ConvertBroadcast3 cannot align a Constant target with data of dynamic dimensions (make_compatible_shape)."""
    return case.mode == "bidirectional" and (len(target_of(case)) < len(case.data_shape) or
                                             any(t == 1 for _, t in facing(case)))


def _zero_meets_one_or_none(case: Case) -> bool:
    """Bidirectional: a target_shape value 0 faces a data dimension 1, or no data dimension (the target is longer)."""
    target = target_of(case)
    n = max(len(target), len(case.data_shape))
    data = (1,) * (n - len(case.data_shape)) + tuple(case.data_shape)
    return case.mode == "bidirectional" and any(t == 0 and d == 1 for t, d in zip(target, data[n - len(target):],
                                                                                   strict=True))


def _lone_zero_moved_by_reversal(case: Case, output: bool = False) -> bool:
    data = _output(case) if output else _static_shape(case)
    if data is None or len(data) < 2:
        return False
    others = [i for i, d in enumerate(data) if d != 1]
    return len(others) == 1 and data[others[0]] == 0 and others[0] != len(data) - 1 - others[0]


def _data_zero_meets_one_or_none(case: Case) -> bool:
    if case.mode != "bidirectional":
        return False
    data, target = list(case.data_shape), target_of(case)
    unmatched = data[:max(len(data) - len(target), 0)]
    return (0, 1) in facing(case) or 0 in unmatched


def _nop_target_of_ones(case: Case) -> bool:
    """target_shape is 1-D, all ones (or empty), and the output's rank is the data's: numpy and explicit mode with one
    value per data dimension, bidirectional mode with no more values than the data has dimensions."""
    target, rank = target_of(case), len(case.data_shape)
    if not is_1d(case.target_shape) or any(t != 1 for t in target):
        return False
    return len(target) <= rank if case.mode == "bidirectional" else len(target) == rank


def _minus_1_keeps_data_dims(case: Case) -> bool:
    """target_shape (1-D) holds -1, each facing a data dimension (right-aligned), and the input is valid once each -1
    is that data dimension: PyTorch's "-1 keeps the dimension" (Tensor.expand) reading of it."""
    target, data = target_of(case), list(case.data_shape)
    if not is_1d(case.target_shape) or -1 not in target:
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
    target, data = target_of(case), list(case.data_shape)
    if case.mode != "numpy" or not is_1d(case.target_shape) or not any(t < -1 for t in target):
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


def _inferred_as_data_without_target_values(case: Case) -> bool:
    """What TensorFlow's shape functions infer with target_shape's length known and its values not: BroadcastTo
    (numpy) gives each output dimension that faces a data dimension above 1 that dimension and leaves the others
    unknown; BroadcastArgs (bidirectional) gives a shape as long as the longer of the two. The output is then the
    data's shape: a 1-D target_shape as long as the data (numpy) or no longer (bidirectional), and every data
    dimension known and above 1."""
    data, n = case.data_shape, len(target_of(case))
    if not is_1d(case.target_shape) or None in data or any(d <= 1 for d in data):
        return False
    return n == len(data) if case.mode == "numpy" else case.mode == "bidirectional" and n <= len(data)


def _target_tiles_data(case: Case) -> bool:
    """Numpy mode, invalid, no target_shape value negative, and every one facing a data dimension a multiple of it (0
    facing 0, or divisible by a dimension other than 0): XLA's BroadcastTo takes it and tiles the data (a negative
    value it takes too, but the output's size then overflows and it refuses that)."""
    data, target = case.data_shape, target_of(case)
    if case.mode != "numpy" or not is_1d(case.target_shape) or None in data or len(target) < len(data) or \
            any(t < 0 for t in target):
        return False
    return outcome(case)[1] is not None and all((d == 0 == t) or (d != 0 and t % d == 0) for d, t in facing(case))


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
        outcome(replace(case, target_shape=target_of(case)))[1] is None


ROAD_TRAITS: dict[str, tuple[Callable[[Case], bool], str]] = {
    "target_not_1d_valid_flattened": (_target_not_1d_valid_flat,
                                      "target_shape is not 1-D (rank 0, 2 or more), and its values in order would "
                                      "be a valid target"),
    "minus_1_keeps_data_dims": (_minus_1_keeps_data_dims, "target_shape holds -1, each facing a data dimension, and "
                                "the input is valid with each -1 made that dimension"),
    "negative_size_beside_zero": (_negative_size_beside_zero, "numpy: target_shape holds a value below -1, each "
                                  "facing a data dimension 1 or none, the input is valid once each is 1, and the sizes "
                                  "multiply (left to right, as uint64) to 0 without overflowing"),
    "no_target_value_above_1_unequal": (
        lambda c: is_1d(c.target_shape) and len(target_of(c)) <= len(c.data_shape)
        and all(d is not None and (t == d or t <= 1) for d, t in facing(c)),
        "target_shape is no longer than the data, and each of its values equals the data dimension it faces or is "
        "at most 1 (0, 1 or negative): were 0 and negatives read as 1, it would change nothing"),
    "merged_rank_over_6": (lambda c: _merged_rank(c) > 6,
                           "numpy or explicit: more than 6 dimensions once adjacent axes alike are merged"),
    "declared_as_data_at_run_time": (_declared_as_data, "bidirectional, and with the target_shape values unknown "
                                     "the output shape is the data's: a target no longer than the data, facing no "
                                     "data dimension 1"),
    "one_or_short_target": (_one_or_short_target, "bidirectional, with a target_shape shorter than the data or a "
                            "target_shape value 1 facing a data dimension"),
    "zero_meets_one_or_none": (_zero_meets_one_or_none, "bidirectional: a target_shape value 0 faces a data "
                               "dimension 1, or no data dimension"),
    "lone_zero_dim_moved_by_reversal": (_lone_zero_moved_by_reversal, "the data's one dimension other than 1 is a 0, "
                                        "and reversing the data's axes moves it (rank 2 or more, not the middle axis "
                                        "of an odd rank), e.g. (0, 1) or (1, 1, 0)"),
    "output_lone_zero_dim_moved_by_reversal": (lambda c: _lone_zero_moved_by_reversal(c, output=True),
                                               "valid, and the output's one dimension other than 1 is a 0 that "
                                               "reversing the output's axes moves, e.g. (0, 1) or (1, 0, 1, 1)"),
    "data_zero_meets_one_or_none": (_data_zero_meets_one_or_none, "bidirectional: a data dimension 0 faces a "
                                    "target_shape value 1, or no target_shape value (a shorter target)"),
    "nop_target_of_ones": (_nop_target_of_ones, "target_shape is 1-D and all ones (or empty), and the output has the "
                           "data's rank: the Broadcast EliminateNopBroadcast removes as a no-op"),
    "inferred_as_data_without_target_values": (_inferred_as_data_without_target_values,
                                               "a 1-D target_shape as long as the data (numpy) or no longer "
                                               "(bidirectional), and every data dimension known and above 1: with "
                                               "target_shape's values unknown, TensorFlow infers the data's shape"),
    "target_tiles_data": (_target_tiles_data, "numpy mode, invalid, no target_shape value negative, and every one "
                          "facing a data dimension a multiple of it (0 facing 0, or divisible by it)"),
    "output_of_4_or_more_elements": (output_has_at_least(4),
                                     "valid, and the output has 4 elements or more: as strings (32-byte std::string "
                                     "objects), more than the 127 bytes ONNX Runtime keeps inside an initializer it "
                                     "folds"),
    "bcast_runs_over_5": (lambda c: _bcast_runs(c) > 5,
                          "valid, and the output's dimensions other than 1 fall into more than 5 runs of alike "
                          "stretched (data dimension 1) or kept ones (TensorFlow's BCast merging)"),
}
