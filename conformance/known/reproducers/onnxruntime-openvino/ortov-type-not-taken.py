"""ortov-type-not-taken (conformance/known/onnxruntime-openvino.yaml)

ONNX Runtime's OpenVINO execution provider takes no uint64, double, bfloat16 or string tensors on the CPU: an Expand
of such data is not claimed even where it is not alone (between two Transposes), and with the CPU fallback off the
session is refused. The same model of f32 data runs. ONNX Expand takes every tensor type; the spec's output is the
broadcast data.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import onnxruntime as ort
    from onnx import TensorProto, helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

PROVIDER = "OpenVINOExecutionProvider"
if PROVIDER not in ort.get_available_providers():
    print(f"cannot run: onnxruntime {ort.__version__} has no {PROVIDER} (pip install onnxruntime-openvino)")
    sys.exit(2)


def session(elem: int) -> str:
    nodes = [helper.make_node("Transpose", ["x"], ["xt"], perm=[1, 0]),
             helper.make_node("Expand", ["xt", "s"], ["e"]),
             helper.make_node("Transpose", ["e"], ["y"], perm=[2, 1, 0])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", elem, [3, 3]),
                                           helper.make_tensor_value_info("s", TensorProto.INT64, [3])],
                              [helper.make_tensor_value_info("y", elem, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    try:
        ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])
        return "session created"
    except Exception as e:
        return f"refused: {e}"


print("onnxruntime", ort.__version__, "with", PROVIDER, "alone, the CPU fallback off; Transpose, Expand, Transpose")
control = session(TensorProto.FLOAT)
print("float:", control)
if control != "session created":
    print("cannot run: the float model is refused too")
    sys.exit(2)
refused = []
for name in ("UINT64", "DOUBLE", "BFLOAT16", "STRING"):
    got = session(getattr(TensorProto, name))
    print(f"{name.lower()}:", got)
    refused.append("fallback to CPU EP has been explicitly disabled" in got)
print("the bug shows: the types are not the provider's" if all(refused) else "the bug does not show (in full)")
sys.exit(0 if all(refused) else 1)
