"""The inputs an elementwise check feeds: values that keep every result exact, drawn at random positions from a
pool per kind of function and element type (the same for every run: the generator is seeded by the case, the
input, the function and the type), so that an element read from the wrong place shows as a wrong value.

* arithmetic (add, subtract, multiply, squared difference): integers and halves of magnitude at most 8, so that
  every sum, difference and product (at most 256) is exact in f32 and i32; -0.0 among them (-0.0 + -0.0 is -0.0,
  -0.0 - 0.0 too: IEEE 754 says so, and a runtime that adds +0.0 first would not);
* order (maximum, minimum): +-inf, the extremes, subnormals and halves, never NaN nor a zero (which of -0.0 and
  +0.0 is larger the ops' specs do not say);
* comparison (equal, less): few values, so that equal pairs are common, among them NaN (equal to nothing), -0.0
  and +0.0 (equal), +-inf;
* bits (logical and bitwise ops): any value of the type;
* select: a boolean condition, and the values the Broadcast cases feed (conformance/data.py: signalling NaNs with
  payloads, subnormals...), which a selection only moves;
* shift (bit shifts): any value shifted by less than the type's width;
* gemm (Gemm's C): nonzero halves, so that Y = A @ identity is exact and keeps every sign;
* prelu: data of both signs (no zero: the sign of a zero times a slope is no broadcasting matter), slopes that
  are powers of two of both signs, so every product is exact.
"""

from __future__ import annotations

import math
import zlib

import numpy as np

from conformance.data import DTYPES, make_data

_HALVES = [k / 2 for k in range(-16, 17) if k]
_F32 = np.finfo(np.float32)
_POOLS: dict[tuple[str, str], list[float]] = {
    ("arithmetic", "f"): [*_HALVES, 0.0, -0.0],
    ("arithmetic", "i"): list(range(-8, 9)),
    ("order", "f"): [*_HALVES, math.inf, -math.inf, float(_F32.max), float(_F32.min), float(_F32.smallest_subnormal),
                     -float(_F32.smallest_subnormal)],
    ("order", "i"): [-(2**31), 2**31 - 1, -1, 1, 2, 7, -8],
    ("comparison", "f"): [math.nan, 0.0, -0.0, 1.0, -1.0, 0.5, math.inf, -math.inf],
    ("comparison", "i"): [-(2**31), 2**31 - 1, 0, 1, -1],
    ("prelu", "data"): [k for k in _HALVES],
    ("prelu", "slope"): [0.25, 0.5, 2.0, -1.0, -0.5, 1.0],
}


def _rng(salt: str, name: str, function: str, dtype: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(f"{salt}|{name}|{function}|{dtype}".encode()))


def _draw(pool: list[float], shape: tuple[int, ...], dtype: np.dtype, rng: np.random.Generator) -> np.ndarray:
    picks = rng.integers(0, len(pool), size=math.prod(shape))
    return np.array([pool[i] for i in picks.tolist()], dtype=np.float64 if dtype.kind == "f" else np.int64
                    ).astype(dtype).reshape(shape)


def _any_value(shape: tuple[int, ...], dtype: np.dtype, rng: np.random.Generator) -> np.ndarray:
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    info = np.iinfo(dtype)
    return rng.integers(int(info.min), int(info.max), size=shape, endpoint=True, dtype=dtype)


def inputs(kind: str, function: str, shapes: dict[str, tuple[int, ...]], dtype_name: str,
           salt: str) -> dict[str, np.ndarray]:
    """The inputs of one check, by name, in the order of ``shapes``."""
    dtype = DTYPES[dtype_name]
    fed: dict[str, np.ndarray] = {}
    for k, (name, shape) in enumerate(shapes.items()):
        rng = _rng(salt, name, function, dtype_name)
        if kind == "select" and k == 0:
            fed[name] = rng.integers(0, 2, size=shape).astype(np.bool_)
        elif kind == "select":
            fed[name] = make_data(shape, dtype, f"{salt}|{name}")
        elif kind == "bits":
            fed[name] = _any_value(shape, dtype, rng)
        elif kind == "shift":
            fed[name] = _any_value(shape, dtype, rng) if k == 0 else \
                rng.integers(0, dtype.itemsize * 8, size=shape).astype(dtype)
        elif kind == "gemm":
            fed[name] = _draw(_POOLS[("prelu", "data")], shape, dtype, rng)
        elif kind == "prelu":
            fed[name] = _draw(_POOLS[("prelu", "data" if k == 0 else "slope")], shape, dtype, rng)
        else:
            fed[name] = _draw(_POOLS[(kind, "f" if dtype.kind == "f" else "i")], shape, dtype, rng)
    return fed
