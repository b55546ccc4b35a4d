"""What crosses the pipe from a worker to the harness: plain data only, bounded, read with a deadline.

A backend runs in the worker; whatever it returns is made plain there, by the harness's own code (``to_wire``):
an output becomes its shape, element type and bytes (``np.asarray`` in the worker: a masked array, a subclass with
its own ``!=`` or any other array-like is sent as the values it holds), texts are clipped, and an output larger than
the request allows (``Request.max_output_bytes``: the output budget; a check whose right output is larger is
shape-only) is not sent at all: its shape and type are, and the check is judged from them. The harness reads a
message only up to a size (``read_message``: a length it refuses before reading the rest) and before a deadline
(a worker stopped in the middle of sending is a timeout, not a wait forever), and unpickles it with no class at
all (``loads``): no object a backend made can run code or allocate in the harness's process, and a small message
cannot expand into gigabytes.
"""

from __future__ import annotations

import io
import math
import os
import pickle
import select
import struct
import time
from typing import Any

import numpy as np

from conformance.backends.base import Outcome
from conformance.data import DTYPES

MAX_TEXT = 64 * 1024  # characters of an error message or other text kept
TEXT_FIELDS = ("error", "stage", "rule", "crash", "out_of_memory", "adapter_error", "unreported_error")


class TooLarge(Exception):
    """A message longer than the harness reads."""


class Timeout(Exception):
    """No complete message before the deadline."""


def _clip(text: Any) -> str | None:
    if text is None:
        return None
    text = text if isinstance(text, str) else str(text)
    return text if len(text) <= MAX_TEXT else f"{text[:MAX_TEXT]}... ({len(text) - MAX_TEXT} more characters)"


def _dtype_name(dtype: np.dtype) -> str:
    """The suite's name of the element type where it has one (bf16, i4: types of ml_dtypes), else numpy's."""
    return next((name for name, d in DTYPES.items() if d == dtype), dtype.str)


def _dtype(name: str) -> np.dtype:
    return DTYPES[name] if name in DTYPES else np.dtype(name)


def to_wire(outcome: Any, max_output_bytes: int | None) -> dict[str, Any]:
    """Runs in the worker: the outcome as plain data. An outcome that is no Outcome is the caller's to report."""
    wire: dict[str, Any] = {name: _clip(getattr(outcome, name)) for name in TEXT_FIELDS}
    wire["timeout"] = None if outcome.timeout is None else float(outcome.timeout)
    try:
        declared = outcome.declared_shape
        wire["declared_shape"] = None if declared is None else [None if d is None else int(d) for d in declared]
    except (TypeError, ValueError) as e:
        return {**wire, "declared_shape": None, "output": None,
                "adapter_error": _clip(f"the declared shape is no shape: {outcome.declared_shape!r:.200} ({e})")}
    wire["output"] = None
    if outcome.output is not None:
        try:
            array = np.asarray(outcome.output)  # a subclass or array-like: the values it holds
        except Exception as e:  # noqa: BLE001 -- whatever the object does when asked for its values
            return {**wire, "adapter_error": _clip(f"the output could not be read as an array: "
                                                   f"{type(outcome.output).__name__}: {e}")}
        head = {"shape": [int(d) for d in array.shape], "dtype": _dtype_name(array.dtype)}
        if max_output_bytes is not None and array.nbytes > max_output_bytes:
            wire["output"] = {**head, "withheld": int(array.nbytes)}
        elif array.dtype.kind in "OT":  # objects, numpy's variable-width strings: their texts
            wire["output"] = {**head, "kind": array.dtype.kind, "items": [_clip(x) for x in array.reshape(-1)]}
        else:
            wire["output"] = {**head, "data": np.ascontiguousarray(array).tobytes()}
    return wire


def from_wire(wire: dict[str, Any]) -> Outcome:
    """In the harness: the Outcome a worker sent (ValueError: the message is not one)."""
    if not isinstance(wire, dict):
        raise ValueError(f"a worker sent {type(wire).__name__}, not an outcome")
    output = withheld = None
    sent = wire.get("output")
    if sent is not None:
        shape = tuple(sent["shape"])
        if sent.get("withheld") is not None:
            withheld = (shape, sent["dtype"], int(sent["withheld"]))
        elif "items" in sent:
            dtype = np.dtypes.StringDType() if sent["kind"] == "T" else np.dtype(object)
            output = np.array(sent["items"], dtype=dtype).reshape(shape)
        else:
            dtype = _dtype(sent["dtype"])
            if len(sent["data"]) != math.prod(shape) * dtype.itemsize:
                raise ValueError(f"an output of shape {shape} and type {dtype} sent in {len(sent['data'])} bytes")
            output = np.frombuffer(sent["data"], dtype).reshape(shape)
    declared = wire.get("declared_shape")
    return Outcome(output=output, declared_shape=None if declared is None else tuple(declared),
                   timeout=wire.get("timeout"), withheld=withheld, **{name: wire.get(name) for name in TEXT_FIELDS})


class _Plain(pickle.Unpickler):
    """Containers, texts, bytes and numbers only: a pickle that names any class or function is refused."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"a worker's message names {module}.{name}: only plain data is read")


def loads(data: bytes) -> Any:
    return _Plain(io.BytesIO(data)).load()


def read_message(fd: int, deadline: float, limit: int) -> bytes:
    """One message of multiprocessing's framing (a 4-byte big-endian length, or -1 and an 8-byte one, then the
    bytes) from ``fd``, by ``deadline`` (time.monotonic); TooLarge before reading a body over ``limit`` bytes.
    EOFError when the worker is gone."""
    size, = struct.unpack("!i", _read(fd, 4, deadline))
    if size == -1:
        size, = struct.unpack("!Q", _read(fd, 8, deadline))
    if size > limit:
        raise TooLarge(f"a message of {size} bytes, more than the {limit} the harness reads")
    return _read(fd, size, deadline)


def _read(fd: int, size: int, deadline: float) -> bytes:
    buffer = bytearray()
    while len(buffer) < size:
        left = deadline - time.monotonic()
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        if left <= 0 or not poller.poll(left * 1000):
            raise Timeout
        chunk = os.read(fd, min(size - len(buffer), 1 << 20))
        if not chunk:
            raise EOFError
        buffer += chunk
    return bytes(buffer)
