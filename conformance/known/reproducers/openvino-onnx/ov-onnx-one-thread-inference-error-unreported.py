"""ov-onnx-one-thread-inference-error-unreported (conformance/known/openvino-onnx.yaml)

An ONNX Expand whose shape is a graph input, read by OpenVINO's ONNX frontend and compiled for the CPU plugin with
INFERENCE_NUM_THREADS 1 (one stream of one thread, as on a one-CPU machine): data (2, 3) with shape [2, 2], which the
multidirectional rule refuses (3 against 2), is refused by infer() with two threads, and with one thread infer()
returns an output (the plugin's Defer() drops the shape inference's exception), while start_async() and wait() on the
same compiled model raise it.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import openvino as ov
    from onnx import TensorProto, helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("openvino", ov.__version__)
graph = helper.make_graph([helper.make_node("Expand", ["data", "shape"], ["y"])], "g",
                          [helper.make_tensor_value_info("data", TensorProto.FLOAT, [2, 3]),
                           helper.make_tensor_value_info("shape", TensorProto.INT64, [2])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
core = ov.Core()
feeds = [np.ones((2, 3), np.float32), np.array([2, 2], np.int64)]
bug = False
for threads in (2, 1):
    compiled = core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU",
                                  {"INFERENCE_NUM_THREADS": threads})
    try:
        request = compiled.create_infer_request()
        request.infer(feeds)
        sync = f"RETURNED an output of shape {request.get_output_tensor(0).shape}"
    except RuntimeError:
        sync = "raised"
    try:
        request = compiled.create_infer_request()
        request.start_async(feeds)
        request.wait()
        async_ = "returned"
    except RuntimeError:
        async_ = "raised"
    print(f"Expand((2, 3), shape [2, 2] fed), INFERENCE_NUM_THREADS {threads}: infer() {sync}; "
          f"start_async() and wait() {async_}")
    bug |= threads == 1 and sync.startswith("RETURNED") and async_ == "raised"
print("spec: refused (ONNX's multidirectional broadcasting: 3 against 2)")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
