"""Memory for large fresh outputs, reused once the caller has dropped them (as ONNX Runtime's arena does).

A fresh output of 64 MiB costs twice its fill: the kernel zeroes every new page on first touch before the
copy writes it. Below 32 MiB glibc's malloc already reuses freed memory (its mmap threshold grows to
32 MiB), so only outputs from POOL_MIN_BYTES come from here: a block left by an output that no longer
exists, or a new one. The output is an ordinary writeable, C-contiguous array; its ``base`` is a _Lease
that gives the block back when the output and every view of it are gone. At most POOL_MAX_BYTES of idle
blocks are kept (0 turns the pool off); ``release()`` frees them.
"""

from __future__ import annotations

import os
import threading
import weakref
from math import prod

import numpy as np

POOL_MIN_BYTES = 32 << 20
POOL_MAX_BYTES = 1 << 30
# Blocks are kept in size classes of whole huge pages.
_ROUND = 2 << 20

_idle: dict[int, list[np.ndarray]] = {}
_idle_bytes = 0
# Reentrant: a finalizer that gives a block back may run inside empty(), when a reference is dropped there.
_lock = threading.RLock()


class _Lease:
    """The base of a pooled output: numpy reads the memory from __array_interface__, and the block goes
    back to the pool when the lease is collected, i.e. when no array uses it any more."""

    __slots__ = ("__array_interface__", "__weakref__", "block")

    def __init__(self, block: np.ndarray, shape: tuple[int, ...], dtype: np.dtype) -> None:
        self.block = block
        self.__array_interface__ = {"version": 3, "shape": shape, "typestr": dtype.str, "descr": dtype.descr,
                                    "data": (block.__array_interface__["data"][0], False)}


def empty(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """Like np.empty(shape, dtype), from the pool when the output is large."""
    nbytes = prod(shape) * dtype.itemsize
    if nbytes < POOL_MIN_BYTES or nbytes > POOL_MAX_BYTES or dtype.hasobject:
        return np.empty(shape, dtype)
    size = -(-nbytes // _ROUND) * _ROUND
    global _idle_bytes
    with _lock:
        blocks = _idle.get(size)
        block = blocks.pop() if blocks else None
        if block is not None:
            _idle_bytes -= size
    if block is None:
        block = np.empty(size, np.uint8)
    lease = _Lease(block, shape, dtype)
    weakref.finalize(lease, _give_back, block).atexit = False
    return np.asarray(lease)


def _give_back(block: np.ndarray) -> None:
    global _idle_bytes
    with _lock:
        if _idle_bytes + block.nbytes <= POOL_MAX_BYTES:
            _idle.setdefault(block.nbytes, []).append(block)
            _idle_bytes += block.nbytes


def release() -> int:
    """Free the idle blocks; the number of bytes freed."""
    global _idle_bytes
    with _lock:
        freed, _idle_bytes = _idle_bytes, 0
        _idle.clear()
    return freed


def _forget() -> None:
    # A forked child must not wait on a lock another thread of the parent held at the fork.
    global _lock
    _lock = threading.RLock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget)
