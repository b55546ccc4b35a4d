"""Element types and the deterministic input data each check feeds.

The values are chosen to expose lossy copies: a backend that routes data through another type, or that
copies with arithmetic instead of moves, changes at least one of them. Floats lead with -0.0, a quiet NaN,
a NaN with a payload, +-inf, the smallest subnormal and the extremes (those the type has: float8 e4m3fn has
no infinity and one NaN); integers lead with the type's min and max (for 64-bit types also values beyond
2**53 and beyond int32); strings lead with the empty string, non-ASCII and whitespace; unique values follow,
so a wrong index shows up as a wrong value.

bfloat16, float8 and the 4-bit integers are ml_dtypes' numpy types (one element per byte in numpy; a backend
that packs 4-bit types packs and unpacks them itself). Strings are fixed-width numpy unicode (``<U8``).
"""

from __future__ import annotations

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

# A quiet NaN with payload bits set, where the type has one besides the canonical NaN.
_NAN_PAYLOAD_BITS = {"f8e5m2": 0x7D, "f16": 0x7E01, "bf16": 0x7FC1, "f32": 0x7FC00123, "f64": 0x7FF8000000000123}
_STRINGS = ["", "a", "ü€𝄞", " x ", "\t\n"]


def name_of(dtype: np.dtype) -> str:
    for name, dt in DTYPES.items():
        if dt == dtype:
            return name
    return str(dtype)


def special_values(dtype: np.dtype) -> np.ndarray:
    """The values that a lossy copy would change, first in every input."""
    name = name_of(dtype)
    if dtype == np.bool_:
        return np.array([True, False], dtype)
    if name == "string":
        return np.array(_STRINGS, dtype)
    if name in FLOATS:
        finfo = ml_dtypes.finfo(dtype)
        # finfo's limits are scalars of the type itself; as Python floats (exact: every type here fits in a
        # float64, which np.array(values, np.float64) converts them to anyway).
        tiniest = float(finfo.smallest_subnormal)
        values: list[float] = [-0.0, np.nan, np.inf, -np.inf, tiniest, -tiniest,
                               float(finfo.max), float(finfo.min), float(finfo.tiny)]
        array = np.array(values, np.float64).astype(dtype)
        array = array[~(np.isnan(array.astype(np.float64)) & ~np.isnan(values))]  # no infinity in the type
        if name in _NAN_PAYLOAD_BITS:
            bits = np.array([_NAN_PAYLOAD_BITS[name]], f"u{dtype.itemsize}").view(dtype)
            array = np.concatenate([array[:2], bits, array[2:]])
        return array
    info = ml_dtypes.iinfo(dtype)
    values = [info.min, info.max, 0, 1]
    if dtype.itemsize == 8:
        values += [2**53 + 1, 2**31 + 1, 2**32 + 3] + ([-(2**53) - 1, -(2**31) - 1] if info.min else [2**63 + 1])
    return np.array(values, np.int64 if info.min else np.uint64).astype(dtype)


def make_data(shape: tuple[int, ...], dtype: np.dtype | str) -> np.ndarray:
    """The input of a check: special values first, then distinct values, the same for every run."""
    dtype = DTYPES[dtype] if isinstance(dtype, str) else np.dtype(dtype)
    name = name_of(dtype)
    size = int(np.prod(shape, dtype=np.int64))
    specials = special_values(dtype)[:size]
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
    return np.concatenate([specials, tail.astype(dtype)]).reshape(shape)
