"""Named properties of a case's inputs, so that a known difference can say for which inputs it happens.

A named case is matched by its id (``match: {case: ...}``); a generated case has no name an entry could list.
An entry that gives ``inputs: [trait, ...]`` also explains a generated check when every trait holds for its
inputs and the check fails with the entry's verdict. tests/test_known.py checks that every trait of an entry
holds for each named case the entry lists, so the traits describe the cases they stand for.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np

from conformance.cases import Case
from conformance.data import DTYPES, special_values

INT32_MAX = 2**31 - 1
# Where the smallest subnormal stands among the special values that lead every bf16 input (conformance/data.py):
# an input of more elements holds it.
FIRST_SUBNORMAL = int(np.flatnonzero(special_values(DTYPES["bf16"]).astype(np.float64)
                                     == float(ml_dtypes.finfo(DTYPES["bf16"]).smallest_subnormal))[0])


def _target(case: Case) -> list[int]:
    return [int(t) for t in np.asarray(case.target_shape, dtype=np.int64).reshape(-1).tolist()]


def _axes(case: Case) -> list[int]:
    return [] if case.axes_mapping is None else [int(a) for a in np.asarray(case.axes_mapping).reshape(-1)]


def _facing(case: Case) -> list[tuple[int | None, int]]:
    """(data dimension, target dimension) pairs the mode's rule compares: right-aligned in numpy and
    bidirectional mode (a missing dimension counts as 1), through axes_mapping in explicit mode."""
    data, target = list(case.data_shape), _target(case)
    if case.mode == "explicit":
        return [(d, target[a]) for d, a in zip(data, _axes(case), strict=False) if 0 <= a < len(target)]
    rank = max(len(data), len(target))
    return list(zip([1] * (rank - len(data)) + data, [1] * (rank - len(target)) + target, strict=True))


TRAITS: dict[str, tuple[Callable[[Case], bool], str]] = {
    "zero_size_data": (lambda c: 0 in c.data_shape, "a data dimension is 0"),
    "zero_size_output": (lambda c: 0 in _target(c) or 0 in c.data_shape,
                         "a data or target_shape dimension is 0"),
    "scalar_data": (lambda c: len(c.data_shape) == 0, "the data is a scalar"),
    "empty_target": (lambda c: len(_target(c)) == 0, "target_shape is empty"),
    "target_rank_below_data": (lambda c: len(_target(c)) < len(c.data_shape),
                               "target_shape has fewer values than the data has dimensions"),
    "negative_target": (lambda c: any(t < 0 for t in _target(c)), "a target_shape value is negative"),
    "target_beyond_int32": (lambda c: any(t > INT32_MAX for t in _target(c)),
                            "a target_shape value does not fit in int32"),
    "zero_meets_one": (lambda c: c.mode == "bidirectional" and (0, 1) in _facing(c),
                       "bidirectional: a data dimension 0 faces a target_shape dimension 1"),
    "one_meets_zero": (lambda c: c.mode == "bidirectional" and (1, 0) in _facing(c),
                       "bidirectional: a data dimension 1 faces a target_shape dimension 0"),
    "bidirectional_mode": (lambda c: c.mode == "bidirectional", "the mode is bidirectional"),
    "subnormal_in_data": (lambda c: math.prod(c.data_shape) > FIRST_SUBNORMAL,
                          f"a bf16 input holds the smallest subnormal (it has more than {FIRST_SUBNORMAL} elements: "
                          "the special values lead it)"),
    "duplicate_axes": (lambda c: len(set(_axes(c))) < len(_axes(c)), "axes_mapping repeats an axis"),
    "axes_mapping_in_numpy_mode": (lambda c: c.mode != "explicit" and c.axes_mapping is not None,
                                   "axes_mapping is given outside explicit mode"),
    "axes_mapping_missing": (lambda c: c.mode == "explicit" and c.axes_mapping is None,
                             "explicit mode without axes_mapping"),
}


def holds(trait: str, case: Case) -> bool:
    return TRAITS[trait][0](case)


def of(case: Case) -> list[str]:
    """Every trait of the case, in TRAITS order (shown with a generated failure)."""
    return [name for name in TRAITS if holds(name, case)]


def describe(traits: Any) -> str:
    return "; ".join(TRAITS[t][1] for t in traits if t in TRAITS)
