"""Planted bugs of the spec's shape rules: each rule ignored (an input that breaks it is accepted), or inverted
(inputs it allows are rejected, and the ones it forbids accepted)."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np

from conformance.backends import Outcome, Request
from tests.planted.base import Planted, accepted, rejected, right_aligned, target_of


class _Ignores(Planted):
    rule: ClassVar[str]

    def plant(self, request: Request, outcome: Outcome) -> Outcome:
        return accepted(request) if outcome.rule == self.rule else outcome


def _ignores(rule: str, doc: str) -> type[Planted]:
    name = "".join(part.title() for part in rule.split("_"))
    return type(f"Ignores{name}", (_Ignores,), {"rule": rule, "name": f"ignores-{rule.replace('_', '-')}",
                                                "__doc__": doc, "__module__": __name__})


IgnoresNumpyRank = _ignores("numpy_rank", "numpy mode: a target of lower rank than the data is accepted.")
IgnoresNumpyDim = _ignores("numpy_dim", "numpy mode: a data dimension that is neither 1 nor the target's is accepted.")
IgnoresBidirectionalDim = _ignores("bidirectional_dim",
                                   "bidirectional: two dimensions, neither 1, that differ are accepted.")
IgnoresExplicitLength = _ignores("explicit_length",
                                 "explicit: an axes_mapping of another length than the data rank is accepted.")
IgnoresExplicitNegative = _ignores("explicit_negative", "explicit: a negative axis in axes_mapping is accepted.")
IgnoresExplicitRange = _ignores("explicit_range", "explicit: an axis beyond the target rank is accepted.")
IgnoresExplicitUnsorted = _ignores("explicit_unsorted", "explicit: an unsorted axes_mapping is accepted.")
IgnoresExplicitDuplicate = _ignores("explicit_duplicate", "explicit: a repeated axis in axes_mapping is accepted.")
IgnoresExplicitDim = _ignores("explicit_dim",
                              "explicit: a data dimension unequal to its mapped target dimension (not 1) is accepted.")
IgnoresTargetNot1d = _ignores("target_shape_not_1d", "a target_shape that is not 1-D is accepted (flattened).")
IgnoresTargetNegative = _ignores("target_shape_negative", "a negative target_shape value is accepted.")
IgnoresAxesMissing = _ignores("axes_mapping_missing", "explicit mode without axes_mapping is accepted.")
IgnoresAxesUnexpected = _ignores("axes_mapping_unexpected", "an axes_mapping outside explicit mode is accepted.")


class _Inverts(Planted):
    rule: ClassVar[str]

    def plant(self, request: Request, outcome: Outcome) -> Outcome:
        if outcome.rule == self.rule:
            return accepted(request)
        if outcome.error is None and self.breaks(request):
            return rejected(self.rule, f"{self.rule} inverted")
        return outcome

    def breaks(self, request: Request) -> bool:
        raise NotImplementedError


class InvertsNumpyRank(_Inverts):
    """numpy mode: the rank rule reversed: a target of higher rank than the data is rejected, a lower one accepted."""

    name, rule = "inverts-numpy-rank", "numpy_rank"

    def breaks(self, request: Request) -> bool:
        return request.mode == "numpy" and len(target_of(request)) > request.data.ndim


class InvertsNumpyDim(_Inverts):
    """numpy mode: a data dimension of 1 is not stretched (rejected); a mismatching one is accepted."""

    name, rule = "inverts-numpy-dim", "numpy_dim"

    def breaks(self, request: Request) -> bool:
        pairs = right_aligned(tuple(request.input_shape), target_of(request))
        return request.mode == "numpy" and any(d == 1 and t != 1 for d, t in pairs)


class InvertsBidirectionalDim(_Inverts):
    """bidirectional: only the data's 1s stretch (a target dimension of 1 facing another is rejected)."""

    name, rule = "inverts-bidirectional-dim", "bidirectional_dim"

    def breaks(self, request: Request) -> bool:
        pairs = right_aligned(tuple(request.input_shape), target_of(request))
        return request.mode == "bidirectional" and any(t == 1 and d not in (1, None) for d, t in pairs)


class InvertsExplicitDim(_Inverts):
    """explicit: a data dimension of 1 mapped to a larger target dimension is rejected."""

    name, rule = "inverts-explicit-dim", "explicit_dim"

    def breaks(self, request: Request) -> bool:
        if request.mode != "explicit" or request.axes_mapping is None:
            return False
        target = target_of(request)
        return any(d == 1 and target[int(a)] != 1
                   for d, a in zip(request.input_shape, request.axes_mapping.tolist(), strict=False))


class InvertsExplicitUnsorted(_Inverts):
    """explicit: axes_mapping must be descending: an ascending one (of 2 or more axes) is rejected."""

    name, rule = "inverts-explicit-unsorted", "explicit_unsorted"

    def breaks(self, request: Request) -> bool:
        axes = [] if request.axes_mapping is None else request.axes_mapping.tolist()
        return request.mode == "explicit" and len(axes) > 1 and axes == sorted(axes)


class ExplicitRangeOffByOne(_Inverts):
    """explicit: the last target axis counts as out of range (``>= rank - 1``), so data mapped there is rejected."""

    name, rule = "explicit-range-off-by-one", "explicit_range"

    def plant(self, request: Request, outcome: Outcome) -> Outcome:
        return rejected(self.rule, "off by one") if outcome.error is None and self.breaks(request) else outcome

    def breaks(self, request: Request) -> bool:
        axes = [] if request.axes_mapping is None else request.axes_mapping.tolist()
        return request.mode == "explicit" and len(target_of(request)) - 1 in axes


class OnlyMinusOneRejected(Planted):
    """Only -1 is refused as a negative target value; one below -1 is accepted (read as 0)."""

    name = "only-minus-one-rejected"

    def run(self, request: Request) -> Outcome:
        target = request.target_shape
        if target.size and target.dtype.kind == "i" and (target < -1).any() and not (target == -1).any():
            zeroed = np.where(target < -1, 0, target).astype(target.dtype)
            return super().run(dataclasses.replace(request, inputs={**request.inputs, "target_shape": zeroed}))
        return super().run(request)


class UnsignedShapeReadAsSigned(Planted):
    """Unsigned shape inputs are read as the signed type of their width (a u8 target of 200 is -56)."""

    name = "unsigned-shape-read-as-signed"

    def run(self, request: Request) -> Outcome:
        inputs = {name: value.view(value.dtype.str.replace("u", "i")) if value is not None and value.dtype.kind == "u"
                  else value for name, value in request.inputs.items() if name != "data"}
        return super().run(dataclasses.replace(request, inputs={**request.inputs, **inputs}))
