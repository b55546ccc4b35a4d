"""ortov-constant-f32-subnormals-flushed (conformance/known/onnxruntime-openvino.yaml)

f32 data given as an initializer, in a model ONNX Runtime does not fold (ORT_DISABLE_ALL) and its OpenVINO execution
provider claims (the Expand between two Transposes), comes back with its subnormals flushed to +0.0: the provider
makes the initializer an OpenVINO Constant, and OpenVINO's CPU plugin flushes the subnormals of f32 Constants when it
loads them. The same data fed as a graph input comes back bit for bit. The spec's output replicates the data.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

PROVIDER = "OpenVINOExecutionProvider"
if PROVIDER not in ort.get_available_providers():
    print(f"cannot run: onnxruntime {ort.__version__} has no {PROVIDER} (pip install onnxruntime-openvino)")
    sys.exit(2)

bits = np.array([[0x00000001], [0x3FC00000], [0x80000001]], np.uint32)  # a subnormal, 1.5, a negative subnormal
data = bits.view(np.float32)


def run(initializer: bool) -> np.ndarray:
    nodes = [helper.make_node("Transpose", ["x"], ["xt"], perm=[1, 0]),
             helper.make_node("Expand", ["xt", "s"], ["e"]),
             helper.make_node("Transpose", ["e"], ["y"], perm=[1, 0])]
    inputs = [helper.make_tensor_value_info("s", TensorProto.INT64, [2])]
    if not initializer:
        inputs.insert(0, helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 1]))
    graph = helper.make_graph(nodes, "g", inputs, [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              initializer=[numpy_helper.from_array(data, "x")] if initializer else [])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])
    feeds = {"s": np.array([2, 3], np.int64)} if initializer else {"x": data, "s": np.array([2, 3], np.int64)}
    (out,) = session.run(None, feeds)
    return np.ascontiguousarray(out)


try:
    constant, fed = run(True), run(False)
except Exception as e:
    print(f"cannot run: the session is refused: {e}")
    sys.exit(2)
expected = np.broadcast_to(data, (3, 2)).view(np.uint32)
print("onnxruntime", ort.__version__, "with", PROVIDER, "alone, ORT_DISABLE_ALL; Transpose, Expand, Transpose; bits:")
print("initializer data:", [hex(v) for v in constant[:, 0].view(np.uint32)])
print("input data:      ", [hex(v) for v in fed[:, 0].view(np.uint32)])
print("spec:            ", [hex(v) for v in expected[:, 0]])
if not np.array_equal(fed.view(np.uint32), expected):
    print("cannot run: the data fed as an input is not copied bit for bit either")
    sys.exit(2)
bug = not np.array_equal(constant.view(np.uint32), expected)
print("the bug shows: the initializer's subnormals are flushed" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
