"""ortov-zero-size-data-with-shape-fed-transposed-not-claimed (conformance/known/onnxruntime-openvino.yaml)

Zero-size f32 data (0, 3) fed to a model Transpose, Expand, Transpose with the shape [0, 3] fed at run time (valid:
the output is (0, 3), empty) is refused by ONNX Runtime's OpenVINO execution provider, the CPU fallback off: the
nodes are not claimed ("...fallback to CPU EP has been explicitly disabled"). Data (1, 3) with [1, 3] runs (the
control). The spec's output is the empty broadcast.

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


def run(rows: int) -> str:
    nodes = [helper.make_node("Transpose", ["xt"], ["x"], perm=[1, 0]),
             helper.make_node("Expand", ["x", "s"], ["e"]),
             helper.make_node("Transpose", ["e"], ["y"], perm=[1, 0])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("xt", TensorProto.FLOAT, [3, rows]),
                                           helper.make_tensor_value_info("s", TensorProto.INT64, [2])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    try:
        session = ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])
    except Exception as e:
        return f"refused: {str(e).strip()[-130:]}"
    (out,) = session.run(None, {"xt": np.ones((3, rows), np.float32), "s": np.array([rows, 3], np.int64)})
    return f"ran: output shape {out.shape}"


print("onnxruntime", ort.__version__, "with", PROVIDER, "alone; Transpose, Expand (shape fed), Transpose")
bug_run, control = run(0), run(1)
print("data (0, 3) with [0, 3]:", bug_run)
print("data (1, 3) with [1, 3]:", control)
print("spec: (3, 0) and (3, 1) (the broadcast, transposed)")
if not control.startswith("ran"):
    print("cannot run: the control is refused too")
    sys.exit(2)
bug = bug_run.startswith("refused")
print("the bug shows: the zero-size data is not claimed" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
