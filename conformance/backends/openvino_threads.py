"""The ``threads`` path axis of the OpenVINO backends (openvino's Broadcast and elementwise ops, openvino-onnx): how
many threads the CPU plugin infers with, and what an inference that runs on one thread does not report.

``default``  the CPU plugin's own choice (every CPU the process may run on; one on a one-CPU machine or container);
``1``        compile_model given INFERENCE_NUM_THREADS 1, as a deployment that keeps a model to one core does.

One stream of one thread is another code path: the CPU plugin's AsyncInferRequest then runs a synchronous
``infer()`` through CPUStreamsExecutor::execute() (``is_optimized_single_stream``), whose Defer() catches every
exception a task raises and drops it. An inference that fails there (a shape the shape inference refuses at run
time, a node that cannot run) returns as if it had succeeded, its outputs whatever their tensors held; start_async()
and wait() run the same request through the task pipeline, which keeps the exception. So where a check's inference
ran on one thread and returned, the backend runs the same inputs once more in a new request of the same compiled
model through start_async() and wait(): an error there is the error the check's inference did not report
(``Outcome.unreported_error``), a fact known differences can name (``unreported_error: true``).
"""

from __future__ import annotations

from typing import Any

from conformance.run.paths import Axis

THREADS = Axis("threads", ("default", "1"), {"1": "t1"},
               "how many threads the CPU plugin infers with: its own choice, or INFERENCE_NUM_THREADS 1 (one stream "
               "of one thread, whose synchronous inference reports no error: conformance/backends/"
               "openvino_threads.py)", default="default")
SAMPLED = "spec_example"  # the valid cases the default run takes one thread on (an invalid case takes it everywhere)
NOT_CPU = ("INFERENCE_NUM_THREADS 1 is the CPU plugin's setting: another device (or a virtual one) has threads of "
           "its own")


def config(path: Any) -> dict[str, Any]:
    """compile_model's configuration for a path."""
    return {"INFERENCE_NUM_THREADS": 1} if dict(path or ()).get("threads", "default") == "1" else {}


def device_reason(path: Any, device: str) -> str | None:
    """Why a path's threads value cannot run on a device, or None."""
    return NOT_CPU if config(path) and device != "CPU" else None


def one_thread(compiled: Any) -> bool:
    """The compiled model infers with one stream of one thread: the plugin's single-stream path, which drops errors."""
    try:
        return int(compiled.get_property("INFERENCE_NUM_THREADS")) == 1 and \
            int(compiled.get_property("NUM_STREAMS")) == 1
    except (RuntimeError, TypeError, ValueError):  # a device without these properties
        return False


def unreported_error(compiled: Any, feeds: Any) -> str | None:
    """Where the compiled model infers on one thread: the error that running ``feeds`` in a new request through
    start_async() and wait() raises (the error a synchronous inference of them did not report), else None."""
    if not one_thread(compiled):
        return None
    request = compiled.create_infer_request()
    try:
        request.start_async(feeds)
        request.wait()
    except RuntimeError as e:
        return str(e)
    return None
