"""The generated checks' inputs for Broadcast, drawn by strata: a mode and an outcome (valid, or one rule broken),
then a rank from 0 to MAX_RANK and dimensions within it.

Each stratum is a (mode, outcome) pair: a valid broadcast in each mode (weighted: most bugs show on valid
inputs), and each rule of the spec broken in a mode where it applies (every explicit-axes defect: length,
negative, range, unsorted, duplicate, dimension, missing; in numpy mode the rank and dimension rules, in
bidirectional mode its dimension rule; in any mode a negative or not-1-D target_shape and an axes_mapping
where none belongs). The input is drawn as a valid broadcast of an output shape and then given exactly the
defect its stratum names; the reference still says what the spec prescribes, so a drawn input needs no
expectation of its own. Each stratum also has a band of ranks and a kind of output shape (``stratum``): any,
one with a 0 dimension, or one with a dimension beyond int32 (up to 2**62; 200 and 40000 stand there too: as
int8 and int16 they are negative), with a 0 beside it (no element) or else shape-only where the output exceeds
the budget. The element type and the shape inputs' integer type are drawn by the search (conformance/run/generated.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

MAX_RANK = 10
# 1 twice: it is the dimension every rule treats apart (not first: hypothesis's simplest draw of a stratum, and
# what it shrinks to, is the first of each choice, and an output of 1s hides where values go)
DIMS = (2, 1, 3, 1, 4)
MAX_ELEMENTS = 4096  # a dimension that would take the output beyond this is drawn as 1
# Beyond int8 and int16 (negative if an unsigned shape input is read as signed), int32, uint32, float64's integers;
# near int64's largest
HUGE = (200, 40000, 2**31, 2**32 + 1, 2**53 + 1, 2**62)
# The kinds of output shape (``stratum`` picks one): a 0 dimension (no element), or one from HUGE (with a 0
# beside it: no element; else shape-only where the output exceeds the budget)
SHAPE_KINDS = ("any", "zero", "any", "huge", "any")

MODES = ("numpy", "explicit", "bidirectional")
# outcome -> the modes where it can be drawn (with the fewest output axes it needs)
OUTCOMES: dict[str, tuple[tuple[str, ...], int]] = {
    "valid": (MODES, 0),
    "numpy_rank": (("numpy",), 1),
    "numpy_dim": (("numpy",), 1),
    "bidirectional_dim": (("bidirectional",), 1),
    "explicit_length": (("explicit",), 0),
    "explicit_negative": (("explicit",), 1),
    "explicit_range": (("explicit",), 1),
    "explicit_unsorted": (("explicit",), 2),
    "explicit_duplicate": (("explicit",), 2),
    "explicit_dim": (("explicit",), 1),
    "axes_mapping_missing": (("explicit",), 0),
    "axes_mapping_unexpected": (("numpy", "bidirectional"), 0),
    "target_shape_negative": (MODES, 1),
    "target_shape_not_1d": (MODES, 0),
}
VALID_WEIGHT = 4  # each mode's valid stratum counts this many times: with any shape, a 0, any, a huge dimension
INVALID = tuple((mode, outcome) for outcome, (modes, _) in OUTCOMES.items() if outcome != "valid" for mode in modes)
VALID = tuple((mode, "valid") for _ in range(VALID_WEIGHT) for mode in MODES)


def _interleaved() -> tuple[tuple[str, str], ...]:
    """The strata in the order the examples take them: the valid ones (modes in turn) spread evenly among the
    invalid ones, so that the first len(STRATA) examples hold every stratum."""
    order: list[tuple[str, str]] = []
    for i, invalid in enumerate(INVALID):
        while (valid := len(order) - i) * len(INVALID) < (i + 1) * len(VALID):
            order.append(VALID[valid])
        order.append(invalid)
    return tuple(order)


STRATA = _interleaved()
# Ranks by bands
RANK_BANDS = ((0, 2), (3, 5), (6, MAX_RANK))
# Each stratum's number among the valid or the invalid ones: its band and kind of shape follow from it, so that
# each mode's valid strata take every band and kind (by the stratum's position alone they would follow the modes)
_NUMBER = tuple(sum(1 for earlier in STRATA[:i] if (earlier[1] == "valid") == (entry[1] == "valid"))
                for i, entry in enumerate(STRATA))


def stratum(index: int) -> tuple[str, str, tuple[int, int], str]:
    """The mode, outcome, band of ranks and kind of output shape of the index-th example (a later round of the
    strata takes the next band and kind)."""
    position, round_ = index % len(STRATA), index // len(STRATA)
    mode, outcome = STRATA[position]
    n = _NUMBER[position]
    return (mode, outcome, RANK_BANDS[(n + n // 3 + round_) % len(RANK_BANDS)],
            SHAPE_KINDS[(n // 3 + round_) % len(SHAPE_KINDS)])


def _capped(dims: list[int]) -> list[int]:
    """The dimensions with those that would take the output beyond MAX_ELEMENTS made 1."""
    kept, size = [], 1
    for d in dims:
        if size * max(d, 1) > MAX_ELEMENTS:
            d = 1
        size *= max(d, 1)
        kept.append(d)
    return kept


def _other(draw: Callable[..., Any], *avoid: int) -> int:
    """A dimension that is none of ``avoid`` and not 1: one that breaks a rule facing them."""
    return int(draw(st.sampled_from([d for d in (0, 2, 3, 5) if d not in avoid])))


@st.composite
def inputs(draw: Callable[..., Any], index: int | None = None) -> dict[str, Any]:
    """mode, data_shape, target_shape and axes_mapping (None outside explicit mode, unless a defect adds it), of
    the index-th example's stratum (``stratum``), or of any (None)."""
    if index is None:
        mode, outcome = draw(st.sampled_from(STRATA))
        (low, high), kind = (0, MAX_RANK), draw(st.sampled_from(SHAPE_KINDS))
    else:
        mode, outcome, (low, high), kind = stratum(index)
    least = OUTCOMES[outcome][1]
    rank = draw(st.integers(max(low, least), max(high, least)))
    out = _capped(draw(st.lists(st.sampled_from(DIMS), min_size=rank, max_size=rank)))
    zero_axis = None
    if rank and kind == "zero":
        zero_axis = draw(st.integers(0, rank - 1))
        out[zero_axis] = 0
    elif rank and kind == "huge":
        axis = draw(st.integers(0, rank - 1))
        out[axis] = draw(st.sampled_from(HUGE))
        if rank > 1 and draw(st.booleans()):  # no element; else shape-only
            out[draw(st.sampled_from([a for a in range(rank) if a != axis]))] = 0
    axes = None
    if mode == "numpy":
        data_rank = rank if outcome == "numpy_rank" else rank - draw(st.integers(0, rank - min(least, rank)))
        data = [draw(st.sampled_from((d, 1))) for d in out[rank - data_rank:]]
        target = list(out)
    elif mode == "explicit":
        axes = sorted(draw(st.lists(st.integers(0, rank - 1), unique=True, min_size=least, max_size=rank))) \
            if rank else []
        data = [draw(st.sampled_from((out[a], 1))) for a in axes]
        target = list(out)
    else:  # each side a right-aligned part of the output (one side all of it), each dimension the output's or 1
        cut = draw(st.integers(0, rank - min(least, rank)))
        data_cut, target_cut = (cut, 0) if draw(st.booleans()) else (0, cut)
        data = [draw(st.sampled_from((d, 1))) for d in out[data_cut:]]
        target = [draw(st.sampled_from((d, 1))) for d in out[target_cut:]]
        if zero_axis is not None:  # the side of full rank keeps the 0 (the other may face it with a 1)
            (target if target_cut == 0 else data)[zero_axis] = 0
    if 0 not in data:  # data with elements stays small (1 where the output is huge): a check of a huge output
        data = [1 if d in HUGE else d for d in data]  # is shape-only, but a huge constant could not be built
    return _with_defect(draw, outcome, mode, rank, data, target, axes)


def _with_defect(draw: Callable[..., Any], outcome: str, mode: str, rank: int, data: list[int], target: list[Any],
                 axes: list[int] | None) -> dict[str, Any]:
    """The valid input given the one defect its stratum names."""
    if outcome == "numpy_rank":  # data of full rank, the target cut short
        target = target[draw(st.integers(1, rank)):]
    elif outcome == "numpy_dim":
        i = draw(st.integers(1, len(data)))
        data[-i] = _other(draw, target[-i])
    elif outcome == "bidirectional_dim":
        i = draw(st.integers(1, min(len(data), len(target))))
        data[-i] = _other(draw, target[-i])
        if target[-i] == 1:
            target[-i] = _other(draw, data[-i])
    elif outcome == "explicit_length" and axes is not None:
        axes = axes[:-1] if axes and draw(st.booleans()) else axes + [draw(st.integers(0, rank))]
    elif outcome == "explicit_negative" and axes:
        axes[draw(st.integers(0, len(axes) - 1))] = draw(st.sampled_from((-1, -rank, -2**31)))
    elif outcome == "explicit_range" and axes:
        axes[-1] = rank + draw(st.sampled_from((0, 1, 2**31)))
    elif outcome == "explicit_unsorted" and axes:
        i = draw(st.integers(0, len(axes) - 2))
        axes[i], axes[i + 1] = axes[i + 1], axes[i]
    elif outcome == "explicit_duplicate" and axes:
        i = draw(st.integers(0, len(axes) - 2))
        axes[i + 1] = axes[i]
        data[i + 1] = data[i]
    elif outcome == "explicit_dim" and axes:
        i = draw(st.integers(0, len(axes) - 1))
        data[i] = _other(draw, target[axes[i]])
    elif outcome == "axes_mapping_missing":
        axes = None
    elif outcome == "axes_mapping_unexpected":
        axes = list(range(len(data)))
    elif outcome == "target_shape_negative" and target:
        target[draw(st.integers(0, len(target) - 1))] = draw(st.sampled_from((-1, -2, -2**31, -2**62)))
    elif outcome == "target_shape_not_1d":
        target = [[t] for t in target] if target and draw(st.booleans()) else [target]
    return {"mode": mode, "data_shape": data, "target_shape": target, "axes_mapping": axes}
