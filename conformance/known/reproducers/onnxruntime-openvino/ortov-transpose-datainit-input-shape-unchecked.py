"""ortov-transpose-datainit-input-shape-unchecked (conformance/known/onnxruntime-openvino.yaml)

Data (2, 3) given as an initializer, expanded between two Transposes with the shape [2, 2] fed at run time, is
accepted by ONNX Runtime's OpenVINO execution provider and comes back as the data, shape (2, 3): the fed shape is
never checked against the data (fed as a graph input the data is accepted alike: printed). The spec and ONNX Expand
reject 3 against 2.

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

data = np.arange(6, dtype=np.float32).reshape(2, 3)


def run(initializer: bool) -> str:
    nodes = [helper.make_node("Transpose", ["x"], ["xt"], perm=[1, 0]),
             helper.make_node("Expand", ["xt", "s"], ["e"]),
             helper.make_node("Transpose", ["e"], ["y"], perm=[1, 0])]
    inputs = [helper.make_tensor_value_info("s", TensorProto.INT64, [2])]
    feeds = {"s": np.array([2, 2], np.int64)}
    held = np.ascontiguousarray(data.T)  # (3, 2): transposed back to (2, 3) before the Expand
    if not initializer:
        inputs.insert(0, helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 2]))
        feeds["x"] = held
    graph = helper.make_graph(nodes, "g", inputs, [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              initializer=[numpy_helper.from_array(held, "x")] if initializer else [])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    try:
        session = ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])
        (out,) = session.run(None, feeds)
    except Exception as e:
        return f"refused: {str(e).strip()[-100:]}"
    return f"ran: output shape {out.T.shape}"


print("onnxruntime", ort.__version__, "with", PROVIDER, "alone, ORT_DISABLE_ALL; data (2, 3), shape [2, 2] fed")
constant, fed = run(True), run(False)
print("data an initializer:", constant)
print("data fed:           ", fed)
print("spec: a rejection (3 against 2)")
bug = constant.startswith("ran")
print("the bug shows: the shape is not checked" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
