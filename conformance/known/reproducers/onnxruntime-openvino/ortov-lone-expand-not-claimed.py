"""ortov-lone-expand-not-claimed (conformance/known/onnxruntime-openvino.yaml)

ONNX Runtime's OpenVINO execution provider does not claim a model whose only node is an Expand (of f32 data, a valid
input): with the CPU fallback off the session is refused ("...assigned to the default CPU EP, but fallback to CPU EP
has been explicitly disabled"). The same Expand between two Transposes is claimed and runs. The spec's output is the
broadcast data.

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


def run(transposed: bool) -> str:
    nodes = [helper.make_node("Expand", ["x", "s"], ["y"])]
    if transposed:  # Transpose(Expand(Transpose(x))): three nodes, the Expand no longer alone
        nodes = [helper.make_node("Transpose", ["x"], ["xt"], perm=[1, 0]),
                 helper.make_node("Expand", ["xt", "s"], ["e"]),
                 helper.make_node("Transpose", ["e"], ["y"], perm=[2, 1, 0])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 3]),
                                           helper.make_tensor_value_info("s", TensorProto.INT64, [3])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    try:
        session = ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])
    except Exception as e:
        return f"refused: {e}"
    x = np.arange(9, dtype=np.float32).reshape(3, 3)
    (out,) = session.run(None, {"x": x, "s": np.array([2, 3, 3], np.int64)})
    return f"ran: output shape {out.shape}"


print("onnxruntime", ort.__version__, "with", PROVIDER, "alone, the CPU fallback off")
alone, control = run(False), run(True)
print("Expand alone:           ", alone)
print("between two Transposes: ", control)
print("spec: an output of shape (2, 3, 3), the data broadcast")
if not control.startswith("ran"):
    print("cannot run: the provider refuses the three-node model too")
    sys.exit(2)
bug = "fallback to CPU EP has been explicitly disabled" in alone
print("the bug shows: the lone Expand is not the provider's" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
