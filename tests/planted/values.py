"""Planted bugs of the values a copy must keep: each class of special value lost, and the element type widened."""

from __future__ import annotations

from typing import ClassVar

import ml_dtypes
import numpy as np

from conformance.backends import Outcome, Request
from conformance.data import FLOATS, name_of
from tests.planted.base import Planted


class _Bits(Planted):
    """A defect applied to the bits of float outputs (float8 e4m3fn has one NaN: no payload to lose)."""

    def plant(self, request: Request, outcome: Outcome) -> Outcome:
        out = outcome.output
        if out is None or name_of(out.dtype) not in FLOATS or out.size == 0:
            return outcome
        width = out.dtype.itemsize * 8
        mant_bits = int(ml_dtypes.finfo(out.dtype).nmant)
        bits = out.view(f"u{out.dtype.itemsize}").astype(np.uint64)
        sign = np.uint64(1 << (width - 1))
        mant = np.uint64((1 << mant_bits) - 1)
        exp = np.uint64(((1 << (width - 1)) - 1) & ~((1 << mant_bits) - 1))
        changed = self.change(bits, sign, exp, mant, np.uint64(1 << (mant_bits - 1)), name_of(out.dtype))
        return Outcome(output=changed.astype(f"u{out.dtype.itemsize}").view(out.dtype).reshape(out.shape))

    def change(self, bits: np.ndarray, sign: np.uint64, exp: np.uint64, mant: np.uint64, quiet: np.uint64,
               dtype: str) -> np.ndarray:
        raise NotImplementedError


def _nan(bits: np.ndarray, exp: np.uint64, mant: np.uint64, dtype: str) -> np.ndarray:
    if dtype == "f8e4m3":
        return np.zeros(bits.shape, bool)
    return ((bits & exp) == exp) & ((bits & mant) != 0)


class NegativeZeroLost(_Bits):
    """-0.0 comes back as +0.0 (a copy by arithmetic)."""

    name = "negative-zero-lost"

    def change(self, bits, sign, exp, mant, quiet, dtype):  # type: ignore[no-untyped-def]
        return np.where(bits == sign, np.uint64(0), bits)


class NanPayloadDropped(_Bits):
    """Every NaN comes back as the canonical quiet NaN of its sign (payload dropped)."""

    name = "nan-payload-dropped"

    def change(self, bits, sign, exp, mant, quiet, dtype):  # type: ignore[no-untyped-def]
        return np.where(_nan(bits, exp, mant, dtype), (bits & sign) | exp | quiet, bits)


class SignallingNanQuieted(_Bits):
    """A signalling NaN comes back quiet (its quiet bit set, payload kept), as a float conversion does."""

    name = "signalling-nan-quieted"

    def change(self, bits, sign, exp, mant, quiet, dtype):  # type: ignore[no-untyped-def]
        return np.where(_nan(bits, exp, mant, dtype), bits | quiet, bits)


class SubnormalsFlushed(_Bits):
    """Subnormals come back as zeros of their sign (flush to zero)."""

    name = "subnormals-flushed"

    def change(self, bits, sign, exp, mant, quiet, dtype):  # type: ignore[no-untyped-def]
        return np.where(((bits & exp) == 0) & ((bits & mant) != 0), bits & sign, bits)


class _Ints64(Planted):
    through: ClassVar[str]

    def plant(self, request: Request, outcome: Outcome) -> Outcome:
        out = outcome.output
        if out is None or out.dtype not in (np.dtype(np.int64), np.dtype(np.uint64)):
            return outcome
        with np.errstate(all="ignore"):
            return Outcome(output=out.astype(self.through).astype(out.dtype))


class Int64RoundedThroughFloat64(_Ints64):
    """64-bit integers beyond 2**53 come back rounded (copied through float64)."""

    name, through = "int64-rounded-through-float64", "float64"


class Int64TruncatedToInt32(_Ints64):
    """64-bit integers beyond int32 come back truncated to their low 32 bits (copied through int32)."""

    name, through = "int64-truncated-to-int32", "int32"


WIDER = {"i8": np.int32, "u8": np.uint32, "i16": np.int32, "u16": np.uint32, "f16": np.float32,
         "bf16": np.float32, "f8e4m3": np.float32, "f8e5m2": np.float32}


class NarrowTypesWidened(Planted):
    """Outputs of 1- and 2-byte number types come back in the 4-byte type of their kind (the dtype widened)."""

    name = "narrow-types-widened"

    def plant(self, request: Request, outcome: Outcome) -> Outcome:
        out = outcome.output
        wider = None if out is None else WIDER.get(name_of(out.dtype))
        return outcome if wider is None or out is None else Outcome(output=out.astype(wider))
