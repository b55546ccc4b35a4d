"""ortov-constant-i64-saturated-to-int32 and -u32- (conformance/known/onnxruntime-openvino.yaml)

i64 and u32 data given as an initializer, in a model ONNX Runtime's OpenVINO execution provider runs (the Expand
between two Transposes, its shape a graph input), come back saturated to int32: -2**63 as -2**31, u32 max as 2**31 - 1.
OpenVINO's CPU plugin computes these types in int32 and converts a Constant with a saturating convert_value(). The
same data fed as a graph input: printed (i64 is cut to its low 32 bits there, ortov-i64-computed-as-i32; u32 comes
back whole). The spec's output replicates the data.

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


def run(data: np.ndarray, elem: int, initializer: bool) -> np.ndarray:
    nodes = [helper.make_node("Transpose", ["x"], ["xt"], perm=[1, 0]),
             helper.make_node("Expand", ["xt", "s"], ["e"]),
             helper.make_node("Transpose", ["e"], ["y"], perm=[1, 0])]
    inputs = [helper.make_tensor_value_info("s", TensorProto.INT64, [2])]
    if not initializer:
        inputs.insert(0, helper.make_tensor_value_info("x", elem, list(data.shape)))
    graph = helper.make_graph(nodes, "g", inputs, [helper.make_tensor_value_info("y", elem, None)],
                              initializer=[numpy_helper.from_array(data, "x")] if initializer else [])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])
    feeds = {"s": np.array([2, 3], np.int64)}
    if not initializer:
        feeds["x"] = data
    (out,) = session.run(None, feeds)
    return out[0]  # the first of the 3 rows of the (3, 2) output: the data's 2 values


i64 = np.array([[-2**63, 5]], np.int64)  # (1, 2): Transposed to (2, 1), expanded to (2, 3), transposed back
u32 = np.array([[2**32 - 1, 5]], np.uint32)
try:
    results = {name: (run(data, elem, True), run(data, elem, False))
               for name, data, elem in (("i64", i64, TensorProto.INT64), ("u32", u32, TensorProto.UINT32))}
except Exception as e:
    print(f"cannot run: the session is refused: {e}")
    sys.exit(2)
print("onnxruntime", ort.__version__, "with", PROVIDER, "alone, ORT_DISABLE_ALL; Transpose, Expand, Transpose")
bug = False
for name, data in (("i64", i64), ("u32", u32)):
    constant, fed = results[name]
    print(f"{name} initializer: {constant.tolist()}   fed as an input: {fed.tolist()}   spec: {data[0].tolist()}")
    bug |= constant.tolist() == [int(np.iinfo(np.int32).min if name == "i64" else np.iinfo(np.int32).max), 5]
print("the bug shows: the initializer's values are saturated to int32" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
