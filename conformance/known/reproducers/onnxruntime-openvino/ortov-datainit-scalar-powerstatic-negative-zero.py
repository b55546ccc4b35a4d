"""ortov-datainit-scalar-powerstatic-negative-zero (conformance/known/onnxruntime-openvino.yaml)

A one-element f32 initializer holding -0.0, expanded between two Transposes with the shape fed at run time, comes
back from ONNX Runtime's OpenVINO execution provider as +0.0: OpenVINO turns the Expand with a run-time shape into
data * Broadcast(1, shape), and its CPU plugin turns the Multiply by a one-element Constant into PowerStatic(x,
power 1, scale -0.0, shift 0), where 1 * -0.0 + 0.0 is +0.0. The control, the same -0.0 in an initializer of two
elements (a Multiply by a Constant that is not a scalar), keeps its sign. ONNX Expand's output replicates the data
bit for bit.

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


def expanded(data: np.ndarray, shape: list[int]) -> np.ndarray:
    """Transpose, Expand (shape fed), Transpose of an initializer, ORT_ENABLE_ALL, opset 13."""
    nodes = [helper.make_node("Transpose", ["x"], ["xt"], perm=[0]),
             helper.make_node("Expand", ["xt", "s"], ["e"]),
             helper.make_node("Transpose", ["e"], ["y"], perm=list(range(len(shape)))[::-1])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("s", TensorProto.INT64, [len(shape)])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              initializer=[numpy_helper.from_array(data, "x")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    session = ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])
    return session.run(None, {"s": np.array(shape, np.int64)})[0]


try:
    one = expanded(np.array([-0.0], np.float32), [3, 1])
    two = expanded(np.array([-0.0, -0.0], np.float32), [3, 1])
except Exception as e:
    print(f"cannot run: {e}")
    sys.exit(2)
print("onnxruntime", ort.__version__, "with", PROVIDER, "alone; Transpose, Expand (shape fed), Transpose of an "
      "f32 initializer")
print("data [-0.0] with shape [3, 1]: sign bits", np.signbit(one).ravel().tolist(), "  spec: all True")
print("data [-0.0, -0.0] with shape [3, 1] (control): sign bits", np.signbit(two).ravel().tolist(), "  spec: all True")
bug = not np.signbit(one).any() and bool(np.signbit(two).all())
print("the bug shows: the one-element -0.0 comes back +0.0" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
