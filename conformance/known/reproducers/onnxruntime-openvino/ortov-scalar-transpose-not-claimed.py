"""ortov-scalar-transpose-not-claimed (conformance/known/onnxruntime-openvino.yaml)

Scalar f32 data fed to a model Transpose, Expand to (2, 3), Transpose (valid) is refused by ONNX Runtime's OpenVINO
execution provider: it does not claim the Transpose of the rank-0 data, and then at opset 13 the session is refused
("...fallback to CPU EP has been explicitly disabled"), at opset 8 the subgraph it compiles has a Parameter of dynamic
rank that OpenVINO's CPU plugin refuses. Data of shape (1,) runs (the control). The spec's output is the data broadcast.

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


def run(data: np.ndarray, opset: int) -> str:
    # the default perm reverses the axes: none for rank 0
    first = (helper.make_node("Transpose", ["x"], ["xt"]) if data.ndim == 0
             else helper.make_node("Transpose", ["x"], ["xt"], perm=[0]))
    nodes = [first, helper.make_node("Expand", ["xt", "s"], ["e"]),
             helper.make_node("Transpose", ["e"], ["y"], perm=[1, 0])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(data.shape))],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              initializer=[numpy_helper.from_array(np.array([2, 3], np.int64), "s")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=7)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    try:
        session = ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])
    except Exception as e:
        return f"refused: {str(e).strip()[-150:]}"
    (out,) = session.run(None, {"x": data})
    return f"ran: output shape {out.shape}"


print("onnxruntime", ort.__version__, "with", PROVIDER, "alone; Transpose, Expand to [2, 3], Transpose")
results = {opset: run(np.array(1.5, np.float32), opset) for opset in (8, 13)}
control = run(np.array([1.5], np.float32), 13)
for opset, result in results.items():
    print(f"scalar data, opset {opset}:", result)
print("data (1,), opset 13:", control)
print("spec: an output of shape (3, 2) (the (2, 3) broadcast, transposed)")
if not control.startswith("ran"):
    print("cannot run: the control is refused too")
    sys.exit(2)
bug = all(r.startswith("refused") for r in results.values())
print("the bug shows: the scalar's Transpose is not the provider's" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
