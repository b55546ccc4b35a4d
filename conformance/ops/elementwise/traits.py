"""Named properties of an elementwise case's inputs, for known differences (``inputs: [...]`` in
conformance/known/<backend>.yaml): a bug is described by what its inputs are, not by a list of cases."""

from __future__ import annotations

from collections.abc import Callable

from conformance.ops.elementwise.params import ElementwiseParams


def _aligned(p: ElementwiseParams) -> list[tuple[int, ...]]:
    rank = max(len(s) for s in p.shapes)
    return [(1,) * (rank - len(s)) + s for s in p.shapes]


def _stretched(p: ElementwiseParams) -> bool:
    """Some dimension 1 faces a larger one (not only a missing axis)."""
    return any(1 in dims and max(dims) > 1 for dims in zip(*_aligned(p), strict=True))


def _first_grows(p: ElementwiseParams) -> bool:
    out = [max(dims) if 0 not in dims else 0 for dims in zip(*_aligned(p), strict=True)]
    return tuple(out) != p.shapes[0]


TRAITS: dict[str, tuple[Callable[[ElementwiseParams], bool], str]] = {
    "equal_shapes": (lambda p: len(set(p.shapes)) == 1, "every input has the same shape"),
    "ranks_differ": (lambda p: len({len(s) for s in p.shapes}) > 1, "the inputs' ranks differ"),
    "rank0_input": (lambda p: any(len(s) == 0 for s in p.shapes), "an input is of rank 0 (a scalar)"),
    "all_rank0": (lambda p: all(len(s) == 0 for s in p.shapes), "every input is of rank 0"),
    "zero_size": (lambda p: any(0 in s for s in p.shapes), "an input has a dimension 0"),
    "one_stretched": (_stretched, "a dimension 1 is stretched to a larger one"),
    "first_grows": (_first_grows, "the first input is smaller than the broadcast shape"),
    "three_inputs": (lambda p: len(p.shapes) == 3, "three inputs"),
    "output_rank_above_6": (lambda p: max(len(s) for s in p.shapes) > 6, "an input of rank 7 or more"),
}
