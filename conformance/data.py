"""Element types and the deterministic input data each check feeds.

The values are chosen to expose lossy copies: a backend that routes data through another type, or that
copies with arithmetic instead of moves, changes at least one of them. Floats lead with -0.0, a quiet NaN,
a NaN with a payload, +-inf, the smallest subnormal and the extremes; integers lead with the type's min
and max (for 64-bit types also values beyond 2**53 and beyond int32); unique values follow, so a wrong
index shows up as a wrong value.
"""

from __future__ import annotations

import numpy as np

DTYPES: dict[str, np.dtype] = {
    name: np.dtype(t)
    for name, t in [("bool", np.bool_), ("i8", np.int8), ("u8", np.uint8), ("i16", np.int16),
                    ("u16", np.uint16), ("i32", np.int32), ("u32", np.uint32), ("i64", np.int64),
                    ("u64", np.uint64), ("f16", np.float16), ("f32", np.float32), ("f64", np.float64)]
}
# The element types every valid case of the spec's examples and rules is swept over unless it names its own.
DEFAULT_SWEEP = ("bool", "i8", "u8", "i32", "i64", "u64", "f16", "f32", "f64")
# Upstream-mirrored, edge and found cases are about shapes: a 1-byte and a 4-byte type take the copy paths
# that differ by element size; the type-by-type sweep is the rule cases' job.
SHAPE_SWEEP = ("u8", "f32")
SHAPE_GROUPS = frozenset({"upstream", "edge", "found"})
# Rejections do not depend on the element type: one is enough unless a case asks for more.
DEFAULT_REJECT_SWEEP = ("f32",)

_NAN_PAYLOAD_BITS = {2: 0x7E01, 4: 0x7FC00123, 8: 0x7FF8000000000123}


def name_of(dtype: np.dtype) -> str:
    for name, dt in DTYPES.items():
        if dt == dtype:
            return name
    return str(dtype)


def special_values(dtype: np.dtype) -> np.ndarray:
    """The values that a lossy copy would change, first in every input."""
    if dtype == np.bool_:
        return np.array([True, False], dtype)
    if dtype.kind == "f":
        info = np.finfo(dtype)
        bits = np.dtype(f"u{dtype.itemsize}")
        payload_nan = np.array([_NAN_PAYLOAD_BITS[dtype.itemsize]], bits).view(dtype)[0]
        return np.array([-0.0, np.nan, payload_nan, np.inf, -np.inf, info.smallest_subnormal,
                         -info.smallest_subnormal, info.max, info.min, info.tiny], dtype)
    info = np.iinfo(dtype)
    values = [info.min, info.max, 0, 1]
    if dtype.itemsize == 8:
        values += [2**53 + 1, 2**31 + 1, 2**32 + 3] + ([-(2**53) - 1, -(2**31) - 1] if info.min else [2**63 + 1])
    return np.array(values, dtype)


def make_data(shape: tuple[int, ...], dtype: np.dtype | str) -> np.ndarray:
    """The input of a check: special values first, then distinct values, the same for every run."""
    dtype = DTYPES[dtype] if isinstance(dtype, str) else np.dtype(dtype)
    size = int(np.prod(shape, dtype=np.int64))
    specials = special_values(dtype)[:size]
    rest = np.arange(2, 2 + size - len(specials), dtype=np.int64)
    if dtype == np.bool_:
        tail = ((rest * 0x9E37) >> 3) % 2 == 1
    elif dtype.kind == "f":
        tail = (rest * np.where(rest % 2 == 0, 0.5, -0.5)).astype(dtype)
    else:
        # distinct while they fit in the type, then wrapping inside its positive range
        tail = rest % min(int(np.iinfo(dtype).max), 2**31)
    return np.concatenate([specials, tail.astype(dtype)]).reshape(shape)
