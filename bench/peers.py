"""What the benchmark times: one Case (a broadcast of a given pattern and size), and each implementation of
it as a Runner, built once per case and then called many times.

A runner's ``call()`` does the timed work and returns the output (None for the limits, which write a
constant). Every peer is used as its documentation intends for repeated calls: OpenVINO compiled once with
one InferRequest reused, ONNX Runtime with one InferenceSession, and neither copies its output unless its
API forces it (``note`` says where one does).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import local_broadcast
import local_broadcast.kernel as kernel


@dataclass(frozen=True)
class Case:
    pattern: str
    data: np.ndarray
    target_shape: tuple[int, ...]
    axes_mapping: tuple[int, ...] | None
    mode: str  # numpy or explicit

    @property
    def shape(self) -> tuple[int, ...]:
        return self.target_shape

    @property
    def aligned(self) -> np.ndarray:
        """The data with length-1 axes where explicit mode inserts them: what numpy and ONNX Expand need."""
        if self.axes_mapping is None:
            return self.data
        dims = iter(self.data.shape)
        mapped = set(self.axes_mapping)
        return self.data.reshape([next(dims) if a in mapped else 1 for a in range(len(self.target_shape))])

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.target_shape)) * self.data.itemsize


@dataclass
class Runner:
    name: str
    group: str  # local | peer | limit
    call: Callable[[], np.ndarray | None]
    note: str = ""
    keep: list[Any] = field(default_factory=list)  # objects the call needs alive (sessions, buffers)


def local_runners(case: Case, buffer: np.ndarray) -> list[Runner]:
    args = (case.data, list(case.target_shape), None if case.axes_mapping is None else list(case.axes_mapping),
            case.mode)
    op = local_broadcast.broadcast_v3

    def one_thread(**kwargs: Any) -> np.ndarray:
        default, kernel.MAX_THREADS = kernel.MAX_THREADS, 1
        try:
            return op(*args, **kwargs)
        finally:
            kernel.MAX_THREADS = default

    threads = f"(outputs from {kernel.THREAD_MIN_BYTES >> 20} MiB split between {kernel.MAX_THREADS} threads)"
    return [
        Runner("local_out", "local", lambda: op(*args, out=buffer), f"broadcast_v3(..., out=preallocated) {threads}"),
        Runner("local_fresh", "local", lambda: op(*args), f"broadcast_v3(...): a new array per call {threads}"),
        Runner("local_view", "local", lambda: op(*args, copy=False),
               "broadcast_v3(..., copy=False): read-only zero-copy view, no bytes written"),
        Runner("local_out_1t", "local", lambda: one_thread(out=buffer), "local_out with kernel.MAX_THREADS=1"),
        Runner("local_fresh_1t", "local", lambda: one_thread(), "local_fresh with kernel.MAX_THREADS=1"),
    ]


def numpy_runners(case: Case, buffer: np.ndarray) -> list[Runner]:
    aligned, shape = case.aligned, case.shape
    return [
        Runner("numpy_copy", "peer", lambda: np.broadcast_to(aligned, shape).copy(),
               "np.broadcast_to(x, shape).copy()"),
        Runner("numpy_copyto", "peer", lambda: _copyto(buffer, np.broadcast_to(aligned, shape)),
               "np.copyto(preallocated, np.broadcast_to(x, shape))"),
    ]


def _copyto(out: np.ndarray, src: np.ndarray) -> np.ndarray:
    np.copyto(out, src)
    return out


def limit_runners(case: Case, buffer: np.ndarray) -> list[Runner]:
    value = case.data.reshape(-1)[:1].reshape(())  # a 0-d array of the data's dtype
    scalar = value.item()

    def fill() -> None:
        buffer.fill(scalar)

    def copyto() -> None:
        np.copyto(buffer, value)

    def fresh() -> None:
        np.empty(case.shape, case.data.dtype).fill(scalar)

    return [
        Runner("limit_fill", "limit", fill, "preallocated.fill(v): the write-bandwidth limit"),
        Runner("limit_copyto", "limit", copyto, "np.copyto(preallocated, v): the same limit, other numpy path"),
        Runner("limit_fresh", "limit", fresh, "np.empty(shape).fill(v) per call: allocation and page faults too"),
    ]


def openvino_runners(case: Case, threads: int | None) -> list[Runner]:
    import openvino as ov
    import openvino.opset3 as opset3

    data = opset3.parameter(list(case.data.shape), case.data.dtype, name="data")
    target = ov.op.Constant(np.array(case.target_shape, dtype=np.int64))
    inputs = [data, target]
    if case.axes_mapping is not None:
        inputs.append(ov.op.Constant(np.array(case.axes_mapping, dtype=np.int64)))
    from openvino.utils.node_factory import NodeFactory

    node = NodeFactory("opset3").create("Broadcast", inputs, {"mode": case.mode})
    model = ov.Model([node.output(0)], [data], "broadcast")
    config = {} if threads is None else {"INFERENCE_NUM_THREADS": threads}
    compiled = ov.Core().compile_model(model, "CPU", config)
    shared = compiled.create_infer_request()
    into = compiled.create_infer_request()
    buffer = np.empty(case.shape, case.data.dtype)
    into.set_output_tensor(0, ov.Tensor(buffer, shared_memory=True))
    feed = {0: case.data}

    def run_shared() -> np.ndarray:
        return shared.infer(feed, share_inputs=True, share_outputs=True)[0]

    def run_into() -> np.ndarray:
        into.infer(feed, share_inputs=True, share_outputs=True)
        return buffer

    where = f"INFERENCE_NUM_THREADS={threads}" if threads else "default config"
    return [
        Runner("openvino", "peer", run_shared,
               f"opset3 Broadcast compiled once on CPU ({where}), one InferRequest reused, share_inputs and "
               "share_outputs: the result is the request's own buffer, overwritten by its next infer "
               "(infer() without share_outputs copies it into a new array)", [compiled, shared]),
        Runner("openvino_out", "peer", run_into,
               "the same, with set_output_tensor(ov.Tensor(preallocated, shared_memory=True)): writes into our "
               "array, like out=", [compiled, into, buffer]),
    ]


def onnxruntime_runners(case: Case) -> list[Runner]:
    import onnxruntime as ort
    from onnx import helper, numpy_helper

    aligned = np.ascontiguousarray(case.aligned)
    elem = helper.np_dtype_to_tensor_dtype(aligned.dtype)
    graph = helper.make_graph(
        [helper.make_node("Expand", ["data", "shape"], ["output"])], "expand",
        [helper.make_tensor_value_info("data", elem, list(aligned.shape))],
        [helper.make_tensor_value_info("output", elem, list(case.shape))],
        [numpy_helper.from_array(np.array(case.shape, dtype=np.int64), "shape")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    options = ort.SessionOptions()
    options.log_severity_level = 3
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    feed = {"data": aligned}
    buffer = np.empty(case.shape, case.data.dtype)
    binding = session.io_binding()
    binding.bind_ortvalue_input("data", ort.OrtValue.ortvalue_from_numpy(aligned))
    binding.bind_ortvalue_output("output", ort.OrtValue.ortvalue_from_numpy(buffer))

    def run_bound() -> np.ndarray:
        session.run_with_iobinding(binding)
        return buffer

    explicit = "" if case.axes_mapping is None else f"; Expand has no explicit mode: data given as {aligned.shape}"
    return [
        Runner("onnxruntime", "peer", lambda: session.run(None, feed)[0],
               "Expand (opset 13, shape as initializer), one InferenceSession, session.run: the result wraps "
               f"ORT's arena memory, no copy{explicit}", [session]),
        Runner("onnxruntime_iobind", "peer", run_bound,
               f"the same through io_binding, output bound to a preallocated OrtValue, like out={explicit}",
               [session, binding, buffer]),
    ]
