"""ortov-i64-computed-as-i32 (conformance/known/onnxruntime-openvino.yaml)

i64 data fed as a graph input to a model ONNX Runtime's OpenVINO execution provider runs (the Expand between two
Transposes) comes back with its upper 32 bits lost: OpenVINO's CPU plugin computes i64 as i32 (-2**63 gives 0,
2**32 + 7 gives 7). The spec's output replicates the data.

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

data = np.array([[-2**63, 2**32 + 7, 5]], np.int64)
nodes = [helper.make_node("Transpose", ["x"], ["xt"], perm=[1, 0]),
         helper.make_node("Expand", ["xt", "s"], ["e"]),
         helper.make_node("Transpose", ["e"], ["y"], perm=[1, 0])]
graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.INT64, [1, 3]),
                                       helper.make_tensor_value_info("s", TensorProto.INT64, [2])],
                          [helper.make_tensor_value_info("y", TensorProto.INT64, None)])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
options = ort.SessionOptions()
options.log_severity_level = 4
options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
try:
    session = ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])
    (out,) = session.run(None, {"x": data, "s": np.array([3, 2], np.int64)})
except Exception as e:
    print(f"cannot run: {e}")
    sys.exit(2)
print("onnxruntime", ort.__version__, "with", PROVIDER, "alone; Transpose, Expand, Transpose of i64 data")
print("output row:", out[0].tolist())
print("spec:      ", data[0].tolist())
bug = out[0].tolist() == [0, 7, 5]
print("the bug shows: the values are cut to 32 bits" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
