"""ortov-prelu-slope-shape-unchecked, ortov-gemm-c-broadcast-both-ways
(conformance/known/onnxruntime-openvino.yaml)

ONNX's PRelu broadcasts its slope to X, and Gemm its C to (M, N), in one direction only; ONNX Runtime's OpenVINO
execution provider takes such inputs: PRelu of X (3,) with a slope (2, 3) gives (3,), Gemm of A (1, 2),
B (2, 3) and C (2, 3) gives (2, 3), where ONNX refuses both (the ONNX checker's shape inference does not see it:
printed is what the provider gives).

Exit 0: the bugs show; 1: the runtime does what the spec says; 2: cannot run here.
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


def run(op: str, arrays: dict[str, np.ndarray]) -> str:
    graph = helper.make_graph([helper.make_node(op, list(arrays), ["y"])], "g",
                              [helper.make_tensor_value_info(n, TensorProto.FLOAT, list(a.shape))
                               for n, a in arrays.items()],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    try:
        session = ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])
        (out,) = session.run(None, arrays)
    except Exception as e:
        return f"refused: {str(e).strip()[-100:]}"
    return f"ran: output shape {out.shape}"


print("onnxruntime", ort.__version__, "with", PROVIDER, "alone; one node of opset 18 on graph inputs")
prelu = run("PRelu", {"x": np.ones(3, np.float32), "slope": np.ones((2, 3), np.float32)})
gemm = run("Gemm", {"a": np.ones((1, 2), np.float32), "b": np.ones((2, 3), np.float32),
                    "c": np.ones((2, 3), np.float32)})
print("PRelu X (3,), slope (2, 3):        ", prelu)
print("Gemm A (1, 2), B (2, 3), C (2, 3):", gemm)
print("spec: both rejected (the slope, C, broadcast to X, (1, 3), one way only)")
bug = prelu.startswith("ran") and gemm.startswith("ran")
print("the bugs show" if bug else "the bugs do not both show")
sys.exit(0 if bug else 1)
