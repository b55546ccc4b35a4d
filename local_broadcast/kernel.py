"""The copy kernel: fill an output with the data, given a validated Plan. No rule is checked here.

Broadcast only moves data, so the kernel copies bytes and never computes: ``data * ones`` would turn
-0.0 + 0 into 0.0, quieten signalling NaNs and refuse bool, str and object data.

Its speed limit is the memory write bandwidth, and numpy's ``copyto`` reaches it when its innermost
contiguous run (one memmove, or one fill of a single value) is long. A broadcast output is a repetition
pattern, so outputs above SMALL_BYTES are written by a Recipe of a few long copies (layout.py), cached per
shape; smaller ones by one np.copyto, which costs less than any planning. A recipe can be split between
threads (copyto releases the GIL for anything but object arrays): MAX_THREADS.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

import numpy as np

from local_broadcast import pool
from local_broadcast.layout import PIECE, Copy, Recipe, View, recipe
from local_broadcast.shapes import Plan

# Outputs up to this size are one np.copyto of the broadcast view: anything more costs more than it saves.
SMALL_BYTES = 64 << 10
# Outputs from this size are split between threads. Measured on the 2-core target machine (the benchmark's
# *_1t columns): from 64 MiB two threads write 15-40% faster than one when the second core is free, and up
# to 30% slower when other processes keep it busy; at 16 MiB (in L3) they mostly lose.
THREAD_MIN_BYTES = 32 << 20
# Threads for one output, the caller's own included; the LOCAL_BROADCAST_THREADS environment variable sets
# it (1 turns threading off).
MAX_THREADS = max(1, int(os.environ.get("LOCAL_BROADCAST_THREADS", "0")) or min(
    len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1, 4))

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            # Threads start on demand, so a generous maximum costs nothing until MAX_THREADS asks for them.
            workers = max(MAX_THREADS, os.cpu_count() or 1) - 1
            _pool = ThreadPoolExecutor(max_workers=max(workers, 1), thread_name_prefix="local_broadcast")
        return _pool


def _forget_pool() -> None:
    # A forked child (a worker, multiprocessing) inherits the executor but not its threads: work submitted to
    # it would never run. The child starts its own pool when it first needs one.
    global _pool, _pool_lock
    _pool, _pool_lock = None, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


@lru_cache(maxsize=1024)
def _shapes(data_shape: tuple[int, ...], shape: tuple[int, ...], new_axes: tuple[int, ...],
            itemsize: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The data's shape lined up with the output (a length-1 axis at each of new_axes), and the strides of
    the output as a view of C-contiguous data (0 along every broadcast axis)."""
    rest = iter(data_shape)
    added = set(new_axes)
    lined_up = tuple(1 if axis in added else next(rest) for axis in range(len(shape)))
    strides, step = [], itemsize
    for d in reversed(lined_up):
        strides.append(0 if d == 1 else step)
        step *= d
    return lined_up, tuple(reversed(strides))


def aligned(data: np.ndarray, plan: Plan) -> np.ndarray:
    """data with a length-1 axis at each of plan.new_axes, so each of its axes lines up with the output axis
    it feeds. Inserting length-1 axes never needs a copy, so this is a view whatever data's strides are."""
    return data.reshape(_shapes(data.shape, plan.shape, plan.new_axes, data.itemsize)[0])


def view(data: np.ndarray, plan: Plan) -> np.ndarray:
    """The output as a read-only view of data (stride 0 along the broadcast axes): no copy at all."""
    if data.flags.c_contiguous and not data.dtype.hasobject:
        try:
            # What np.broadcast_to returns, built directly (its checks cost a few microseconds); the
            # read-only buffer makes the view read-only.
            # (numpy's stubs declare ndarray.__buffer__ only for Python >= 3.12; the protocol is there in 3.11.)
            buffer = memoryview(data).toreadonly()  # type: ignore[arg-type]
            return np.ndarray(plan.shape, data.dtype, buffer, 0,
                              _shapes(data.shape, plan.shape, plan.new_axes, data.itemsize)[1])
        except (TypeError, ValueError, BufferError):  # a dtype the buffer protocol cannot carry: datetime64
            pass
    return np.broadcast_to(aligned(data, plan), plan.shape)


def replicate(data: np.ndarray, plan: Plan, out: np.ndarray | None = None) -> np.ndarray:
    """Fill ``out`` (C-contiguous, shape plan.shape, data's dtype; checked by the caller) or a new array.

    Bytes are copied as they are, whatever the dtype: NaN payloads, signed zeros, object references.
    """
    if out is None:
        # Not empty_like: data may be a strided or Fortran-ordered view, the output is C order. Large outputs
        # reuse the memory of earlier ones the caller has dropped (pool.py), which spares the page faults.
        out = pool.empty(plan.shape, data.dtype)
    elif data is out or ((data.base is not None or out.base is not None) and np.may_share_memory(out, data)):
        # (Two arrays that each own their memory cannot overlap, which spares the check in the common case.)
        data = data.copy()  # out overlaps data: read all of it before writing any of out
    lined_up_shape = _shapes(data.shape, plan.shape, plan.new_axes, data.itemsize)[0]
    lined_up = data.reshape(lined_up_shape)
    nbytes = out.nbytes
    if nbytes > SMALL_BYTES:  # else (also for out.size == 0) numpy's own broadcasting copy is the fastest
        threads = MAX_THREADS if nbytes >= THREAD_MIN_BYTES and not data.dtype.hasobject else 1
        steps = recipe(lined_up_shape, plan.shape, data.itemsize, threads)
        if steps.parts:
            _replay(steps, out, lined_up)
            return out
    # casting="no": the dtypes are identical by construction, and any conversion would be a bug.
    np.copyto(out, lined_up, casting="no")
    return out


def _replay(steps: Recipe, out: np.ndarray, lined_up: np.ndarray) -> None:
    # The collapsed data is a view when data is contiguous, else a copy: at most the data's size.
    buffers = (out.reshape(-1), lined_up.reshape(steps.src_shape).reshape(-1), _scratch(out, steps.scratch))
    if len(steps.parts) == 1:
        _run(steps.parts[0], buffers)
        return
    # The caller's thread runs the first part while the pool runs the others.
    futures = [_executor().submit(_run, part, buffers) for part in steps.parts[1:]]
    _run(steps.parts[0], buffers)
    for future in futures:
        future.result()


def _scratch(out: np.ndarray, elements: int) -> np.ndarray | None:
    """Scratch for the recipe's TMP views, shifted so that each sits PIECE / 2 bytes from its destination
    modulo PIECE (layout.py: no 4K aliasing)."""
    if not elements:
        return None
    piece = PIECE // out.itemsize  # recipes use scratch only when the element size divides PIECE
    scratch = np.empty(elements + piece, out.dtype)
    gap = out.__array_interface__["data"][0] + PIECE // 2 - scratch.__array_interface__["data"][0]
    return scratch[gap % PIECE // out.itemsize:]


def _run(steps: tuple[Copy, ...], buffers: tuple[np.ndarray, np.ndarray, np.ndarray | None]) -> None:
    for dst, src in steps:
        np.copyto(_array(buffers, dst), _array(buffers, src), casting="no")


def _array(buffers: tuple[np.ndarray, np.ndarray, np.ndarray | None], view: View) -> np.ndarray:
    buffer, lo, hi, shape, columns = view
    array = buffers[buffer][lo:hi].reshape(shape)  # type: ignore[index]  # TMP is set when a step uses it
    return array if columns is None else array[..., columns[0]:columns[1]]
