"""ortov-prelu-1d-slope-laid-on-channel-axis-accepted, ortov-prelu-1d-slope-laid-on-channel-axis-values
(conformance/known/onnxruntime-openvino.yaml)

ONNX Runtime's OpenVINO execution provider lays a 1-D PRelu slope as long as X's axis 1 along that axis: X (3, 2, 5)
with a slope (2,) is accepted (ONNX broadcasts the slope against the last axis: 2 against 5, refused), and X (1, 2, 2)
of negatives with the slope [1, 3] gives values ONNX does not (the slope along the last axis).

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


def run(x: np.ndarray, slope: np.ndarray) -> np.ndarray | str:
    graph = helper.make_graph([helper.make_node("PRelu", ["x", "slope"], ["y"])], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape)),
                               helper.make_tensor_value_info("slope", TensorProto.FLOAT, list(slope.shape))],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    try:
        session = ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])
        return session.run(None, {"x": x, "slope": slope})[0]
    except Exception as e:
        return f"refused: {str(e).strip()[-80:]}"


print("onnxruntime", ort.__version__, "with", PROVIDER, "alone; PRelu of opset 18 on graph inputs")
accepted = run(-np.ones((3, 2, 5), np.float32), np.array([2.0, 3.0], np.float32))
x = -np.ones((1, 2, 2), np.float32)
slope = np.array([1.0, 3.0], np.float32)
values = run(x, slope)
print("X (3, 2, 5), slope (2,):", accepted if isinstance(accepted, str) else f"ran: output shape {accepted.shape}",
      "  spec: a rejection")
print("X (1, 2, 2) of -1, slope [1, 3]:", values if isinstance(values, str) else values.tolist(),
      "  spec:", (x * slope).tolist())
bug = not isinstance(accepted, str) and not isinstance(values, str) and not np.array_equal(values, x * slope)
print("the bugs show" if bug else "the bugs do not both show")
sys.exit(0 if bug else 1)
