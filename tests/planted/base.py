"""What every planted bug shares: the local implementation, with one defect applied to its outcome.

A planted bug is a ``LocalBackend`` whose ``plant`` changes what the correct implementation did, and only
where its defect applies: every other check passes. ``isolated``: the defect kills or hangs its process, so
``python3 -m conformance power`` runs it in the suite's worker processes; the others run in-process.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np

from conformance.backends import Outcome, Request
from conformance.backends.local import LocalBackend


class Planted(LocalBackend):
    name = "planted"
    package = None
    isolated: ClassVar[bool] = False

    def run(self, request: Request) -> Outcome:
        return self.plant(request, super().run(request))

    def plant(self, request: Request, outcome: Outcome) -> Outcome:
        return outcome


def target_of(request: Request) -> tuple[int, ...]:
    """The target as a flat tuple of ints (a 2-D target flattened: what a sloppy reader makes of it)."""
    return tuple(int(t) for t in np.ravel(request.target_shape))


def output_shape(outcome: Outcome) -> tuple[int | None, ...] | None:
    if outcome.output is not None:
        return tuple(outcome.output.shape)
    return outcome.declared_shape


def accepted(request: Request) -> Outcome:
    """An input accepted that should be rejected: an output of the target's shape (negative sizes as 0),
    zeros, or none at all where it would not fit the output budget."""
    shape = tuple(max(t, 0) for t in target_of(request))
    if request.shape_only:
        return Outcome(declared_shape=shape)
    itemsize = request.data.dtype.itemsize
    if int(np.prod(shape, dtype=object)) * itemsize > (request.max_output_bytes or 2**28):
        shape = (0,)
    return Outcome(output=np.zeros(shape, request.data.dtype))


def rejected(rule: str, why: str) -> Outcome:
    return Outcome(error=f"planted: {why}", stage="validate", rule=rule)


def with_data(request: Request, data: np.ndarray) -> Request:
    """The request with other data (its declared shape too)."""
    return dataclasses.replace(request, inputs={**request.inputs, "data": data},
                               input_shapes={**request.input_shapes, "data": data.shape})


def right_aligned(data: tuple[int, ...], target: tuple[int, ...]) -> list[tuple[int, int]]:
    """(data dim, target dim) pairs, aligned on the right."""
    return list(zip(data[::-1], target[::-1], strict=False))
