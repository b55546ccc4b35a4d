"""Element types and the deterministic input data each check feeds.

The values are chosen to expose lossy copies: a backend that routes data through another type, or that
copies with arithmetic instead of moves, changes at least one of them. Floats hold -0.0, quiet NaNs with and
without a payload, signalling NaNs of both signs with a payload in the lowest and in the highest mantissa bit
below the quiet bit (a conversion or an arithmetic copy quiets them), +-inf, the smallest and largest
subnormals and the extremes (FLOAT_KINDS; stand-ins where the type lacks one: float8 e4m3fn has no infinity and
one NaN); integers hold the type's min, max, 0, 1 and -1 (for 64-bit types also values beyond 2**53 and beyond
int32); strings the empty string, non-ASCII and whitespace. Unique values follow, so a wrong index shows up as a
wrong value. An input short of room holds some special values, which ones depending on its shape, and the
whole is rotated by an amount its shape picks: special values of several kinds, at positions that vary.

bfloat16, float8 and the 4-bit integers are ml_dtypes' numpy types (one element per byte in numpy; a backend
that packs 4-bit types packs and unpacks them itself). Strings are fixed-width numpy unicode (``<U8``).
"""

from __future__ import annotations

import json
import math
import zlib
from typing import Any

import ml_dtypes
import numpy as np

DTYPES: dict[str, np.dtype] = {
    name: np.dtype(t)
    for name, t in [("bool", np.bool_), ("i4", ml_dtypes.int4), ("u4", ml_dtypes.uint4), ("i8", np.int8),
                    ("u8", np.uint8), ("i16", np.int16), ("u16", np.uint16), ("i32", np.int32),
                    ("u32", np.uint32), ("i64", np.int64), ("u64", np.uint64), ("f8e4m3", ml_dtypes.float8_e4m3fn),
                    ("f8e5m2", ml_dtypes.float8_e5m2), ("f16", np.float16), ("bf16", ml_dtypes.bfloat16),
                    ("f32", np.float32), ("f64", np.float64), ("string", "<U8")]
}
FLOATS = frozenset({"f8e4m3", "f8e5m2", "f16", "bf16", "f32", "f64"})
INTEGERS = frozenset({"i4", "u4", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64"})
# The element types every valid case of the spec's examples and rules is swept over unless it names its own.
DEFAULT_SWEEP = tuple(DTYPES)
# Upstream-mirrored, edge and found cases are about shapes: a 1-byte and a 4-byte type take the copy paths
# that differ by element size; the type-by-type sweep is the rule cases' job.
SHAPE_SWEEP = ("u8", "f32")
SHAPE_GROUPS = frozenset({"upstream", "edge", "found"})
# Rejections do not depend on the element type: one is enough unless a case asks for more.
DEFAULT_REJECT_SWEEP = ("f32",)

# The kinds of special value every float type holds, in this order, so that a kind has one position for all of
# them (a trait of the inputs then holds for every float type alike). A type without a kind holds its nearest
# stand-in: float8 e4m3fn has one NaN of each sign and no infinity (its largest finite values stand in), e5m2's
# mantissa leaves one payload bit besides the quiet bit (low and high payload are the same NaN).
FLOAT_KINDS = ("-0.0", "NaN", "NaN with payload", "sNaN, low payload", "-sNaN, high payload", "+inf", "-inf",
               "smallest subnormal", "-smallest subnormal", "largest subnormal", "max", "lowest", "tiny",
               "-sNaN, low payload", "sNaN, high payload", "-NaN with payload")
# A quiet NaN's payload where the type has room for more than one bit
_NAN_PAYLOAD = {"f16": 0x001, "bf16": 0x01, "f32": 0x000123, "f64": 0x0000000000123}
_STRINGS = ["", "a", "ü€𝄞", " x ", "\t\n"]


def name_of(dtype: np.dtype) -> str:
    for name, dt in DTYPES.items():
        if dt == dtype:
            return name
    return str(dtype)


def _float_bits(name: str) -> list[int]:
    """The bits of each of FLOAT_KINDS in the float type ``name``."""
    dtype, finfo = DTYPES[name], ml_dtypes.finfo(DTYPES[name])
    bits, nmant = dtype.itemsize * 8, int(finfo.nmant)
    sign, unsigned = 1 << (bits - 1), f"u{dtype.itemsize}"

    def of(value: float) -> int:
        return int(np.array(value, np.float64).astype(dtype).view(unsigned))

    tiniest, tiny = float(finfo.smallest_subnormal), float(finfo.tiny)
    finite = {"-0.0": of(-0.0), "smallest subnormal": of(tiniest), "-smallest subnormal": of(-tiniest),
              "largest subnormal": of(tiny - tiniest), "max": of(float(finfo.max)), "lowest": of(float(finfo.min)),
              "tiny": of(tiny)}
    if name == "f8e4m3":  # NaN is S.1111.111 only; no infinity
        nan = {k: of(float("nan")) | (sign if k.startswith("-") else 0) for k in FLOAT_KINDS if "NaN" in k}
        return [finite.get(k) or nan.get(k) or finite["max" if k == "+inf" else "lowest"] for k in FLOAT_KINDS]
    infinity, quiet = of(float("inf")), 1 << (nmant - 1)
    high = 1 << max(nmant - 2, 0)  # the highest payload bit below the quiet bit
    payload = _NAN_PAYLOAD.get(name, 1)
    nans = {"NaN": infinity | quiet, "NaN with payload": infinity | quiet | payload,
            "-NaN with payload": sign | infinity | quiet | payload,
            "sNaN, low payload": infinity | 1, "sNaN, high payload": infinity | high,
            "-sNaN, low payload": sign | infinity | 1, "-sNaN, high payload": sign | infinity | high,
            "+inf": infinity, "-inf": sign | infinity}
    return [finite.get(k, nans.get(k, 0)) for k in FLOAT_KINDS]


def special_values(dtype: np.dtype) -> np.ndarray:
    """The values that a lossy copy would change, each input holds them (all of them once it has as many
    elements; a shorter one some, which depend on its shape: ``specials_held``)."""
    name = name_of(dtype)
    if dtype == np.bool_:
        return np.array([True, False], dtype)
    if name == "string":
        return np.array(_STRINGS, dtype)
    if name in FLOATS:
        return np.array(_float_bits(name), f"u{dtype.itemsize}").view(dtype)
    info = ml_dtypes.iinfo(dtype)
    values = [info.min, info.max, 0, 1] + ([-1] if info.min else [info.max - 1])
    if dtype.itemsize == 8:
        values += [2**53 + 1, 2**31 + 1, 2**32 + 3] + ([-(2**53) - 1, -(2**31) - 1] if info.min else [2**63 + 1])
    return np.array(values, np.int64 if info.min else np.uint64).astype(dtype)


def salt(params_json: Any) -> str:
    """What else than its shape picks an input's special values and their places: the case's params as JSON (the
    op's to_json), so that single-element inputs of different cases hold different kinds."""
    return json.dumps(params_json, sort_keys=True, default=str)


def _offset(shape: tuple[int, ...], salt: str) -> int:
    """A number that differs from case to case, the same in every run (CRC-32 of the dimensions and the salt)."""
    return zlib.crc32((repr(tuple(int(d) for d in shape)) + salt).encode())


def specials_held(shape: tuple[int, ...], dtype: np.dtype | str, salt: str = "") -> np.ndarray:
    """The special values an input of that shape holds: all of them from as many elements on; a shorter input
    holds as many as it has elements, consecutive ones (cyclically) from one that its shape picks, so short inputs
    of different shapes hold different kinds."""
    dtype = DTYPES[dtype] if isinstance(dtype, str) else np.dtype(dtype)
    specials, size = special_values(dtype), math.prod(shape)
    if size >= len(specials):
        return specials
    start = _offset(shape, salt) % len(specials)
    if size == 1 and name_of(dtype) in FLOATS and FLOAT_KINDS[start] == "smallest subnormal":
        # its bits are the integer 1, which a buffer a runtime never wrote often holds: a lone element holds
        # the next kind, so that an unwritten output cannot come back right by chance
        start = (start + 1) % len(specials)
    return np.roll(specials, -start)[:size]


def make_data(shape: tuple[int, ...], dtype: np.dtype | str, salt: str = "") -> np.ndarray:
    """The input of a check: the special values it holds (``specials_held``), then distinct values, the whole
    rotated by an amount its shape and ``salt`` (the case's params) pick, so the special values stand at positions
    that vary from case to case and a position bug shows; the same for every run."""
    dtype = DTYPES[dtype] if isinstance(dtype, str) else np.dtype(dtype)
    name = name_of(dtype)
    size = math.prod(shape)
    specials = specials_held(shape, dtype, salt)
    rest = np.arange(2, 2 + size - len(specials), dtype=np.int64)
    if dtype == np.bool_:
        tail = ((rest * 0x9E37) >> 3) % 2 == 1
    elif name == "string":
        tail = np.array([f"s{i}" for i in rest.tolist()], dtype)
    elif name in FLOATS:
        tail = (rest * np.where(rest % 2 == 0, 0.5, -0.5)).astype(dtype)
    else:
        # distinct while they fit in the type, then wrapping inside its positive range
        tail = rest % min(int(ml_dtypes.iinfo(dtype).max), 2**31)
    flat = np.concatenate([specials, tail.astype(dtype)])
    return np.roll(flat, _offset(shape, salt) % size if size else 0).reshape(shape)
