"""ortov-convertbroadcast3-multiply-quiets-signalling-nans (conformance/known/onnxruntime-openvino.yaml)

f32 data holding a signalling NaN, expanded between two Transposes with the shape fed at run time, comes back from
ONNX Runtime's OpenVINO execution provider with the NaN quiet (0x7f800001 gives 0x7fc00001): OpenVINO turns the
Expand with a run-time shape into data * Broadcast(1, shape), and the Multiply quiets it. ONNX Expand's output
replicates the data bit for bit.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import onnxruntime as ort
    from onnx import TensorProto, helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

PROVIDER = "OpenVINOExecutionProvider"
if PROVIDER not in ort.get_available_providers():
    print(f"cannot run: onnxruntime {ort.__version__} has no {PROVIDER} (pip install onnxruntime-openvino)")
    sys.exit(2)

data = np.array([[0x7F800001, 0x3FC00000]], np.uint32).view(np.float32)  # (1, 2): a signalling NaN, 1.5
nodes = [helper.make_node("Transpose", ["x"], ["xt"], perm=[1, 0]),
         helper.make_node("Expand", ["xt", "s"], ["e"]),
         helper.make_node("Transpose", ["e"], ["y"], perm=[1, 0])]
graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2]),
                                       helper.make_tensor_value_info("s", TensorProto.INT64, [2])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
options = ort.SessionOptions()
options.log_severity_level = 4
options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
try:
    session = ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])
    (out,) = session.run(None, {"x": data, "s": np.array([2, 3], np.int64)})
except Exception as e:
    print(f"cannot run: {e}")
    sys.exit(2)
got = np.ascontiguousarray(out).view(np.uint32)
print("onnxruntime", ort.__version__, "with", PROVIDER, "alone; Transpose, Expand (shape fed), Transpose; bits:")
print("output row:", [hex(v) for v in got[0]])
print("spec:      ", [hex(v) for v in data.view(np.uint32)[0]])
bug = int(got[0, 0]) == 0x7FC00001
print("the bug shows: the signalling NaN comes back quiet" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
