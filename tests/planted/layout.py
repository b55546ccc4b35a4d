"""Planted bugs of where values go and of shapes apart: alignment, zero-size outputs, scalars, high ranks, and
a defect that crashes its process and one that hangs it."""

from __future__ import annotations

import ctypes
import dataclasses
import time

import numpy as np

from conformance.backends import Outcome, Request
from tests.planted.base import Planted, output_shape, with_data


class TilesFlat(Planted):
    """Strides wrong: the data's elements are written in order, cyclically, whatever axes are broadcast."""

    name = "tiles-flat"

    def plant(self, request: Request, outcome: Outcome) -> Outcome:
        out, data = outcome.output, request.data
        if out is None or out.size == 0 or data.size == 0:
            return outcome
        return Outcome(output=np.resize(data.reshape(-1), out.shape))


class ExplicitAlignedRight(Planted):
    """explicit: axes_mapping ignored where numpy's right alignment also fits the target (data aligned right)."""

    name = "explicit-aligned-right"

    def plant(self, request: Request, outcome: Outcome) -> Outcome:
        if outcome.output is None or request.mode != "explicit":
            return outcome
        try:
            return Outcome(output=np.array(np.broadcast_to(request.data, outcome.output.shape)))
        except ValueError:
            return outcome


class LastAxisOffByOne(Planted):
    """Alignment off by one: the innermost axis is written one element late (rotated by one)."""

    name = "last-axis-off-by-one"

    def plant(self, request: Request, outcome: Outcome) -> Outcome:
        out = outcome.output
        return outcome if out is None or out.ndim == 0 else Outcome(output=np.roll(out, 1, axis=-1))


class RejectsEmptyOutput(Planted):
    """An output with a zero-size dimension is rejected (a zero-byte allocation taken for a failure)."""

    name = "rejects-empty-output"

    def plant(self, request: Request, outcome: Outcome) -> Outcome:
        shape = output_shape(outcome)
        if shape is not None and 0 in shape:
            return Outcome(error="planted: cannot allocate an output of 0 bytes", stage="infer")
        return outcome


class ScalarAsVector(Planted):
    """Scalar data is read as a vector of one element (shape (1,))."""

    name = "scalar-as-vector"

    def run(self, request: Request) -> Outcome:
        if request.data.ndim == 0 and not request.shape_only:
            return super().run(with_data(request, request.data.reshape(1)))
        if request.shape_only and len(request.input_shape) == 0:
            return super().run(with_data(request, np.empty((1,), request.data.dtype)))
        return super().run(request)


class HighRanksUnwritten(Planted):
    """Outputs of rank 7 or more come back unwritten (zeros)."""

    name = "high-ranks-unwritten"

    def plant(self, request: Request, outcome: Outcome) -> Outcome:
        out = outcome.output
        return Outcome(output=np.zeros_like(out)) if out is not None and out.ndim >= 7 else outcome


class CrashesOnStretchedInnerAxis(Planted):
    """Dies with SIGSEGV when the data's innermost dimension 1 is stretched along the output's innermost axis."""

    name = "crashes-on-stretched-inner-axis"
    isolated = True

    def plant(self, request: Request, outcome: Outcome) -> Outcome:
        out, data = outcome.output, request.data
        if out is not None and out.ndim and data.ndim and data.shape[-1] == 1 and out.shape[-1] > 1 and \
                (request.axes_mapping is None or request.axes_mapping.tolist()[-1:] == [out.ndim - 1]):
            ctypes.string_at(0)  # a real SIGSEGV: reads address 0
        return outcome


class HangsOnRank4(Planted):
    """Hangs (never returns) on a non-empty output of rank 4 or more."""

    name = "hangs-on-rank-4"
    isolated = True

    def plant(self, request: Request, outcome: Outcome) -> Outcome:
        out = outcome.output
        if out is not None and out.ndim >= 4 and out.size:
            time.sleep(3600)
        return outcome



class TargetReadAsInt32(Planted):
    """target_shape values beyond int32 are read as int32 (wrapped): a huge dimension becomes another size."""

    name = "target-read-as-int32"

    def run(self, request: Request) -> Outcome:
        target = request.target_shape
        if target.size and target.dtype.itemsize == 8 and (target > 2**31 - 1).any():
            wrapped = target.astype(np.int32).astype(target.dtype)
            return super().run(dataclasses.replace(request, inputs={**request.inputs, "target_shape": wrapped}))
        return super().run(request)


class BidirectionalTakesTheMax(Planted):
    """bidirectional: each output dimension is the larger of the two, so a 0 facing a 1 gives 1, not 0."""

    name = "bidirectional-takes-the-max"

    def plant(self, request: Request, outcome: Outcome) -> Outcome:
        shape = output_shape(outcome)
        if shape is None or request.mode != "bidirectional":
            return outcome
        data, target = tuple(request.input_shape), tuple(int(t) for t in request.target_shape.reshape(-1))
        rank = len(shape)
        padded = [(1,) * (rank - len(side)) + side for side in (data, target)]
        larger = tuple(max(d or 1, t) for d, t in zip(*padded, strict=True))
        if larger == shape:
            return outcome
        if request.shape_only:
            return Outcome(declared_shape=larger)
        return Outcome(output=np.zeros(larger, request.data.dtype))
