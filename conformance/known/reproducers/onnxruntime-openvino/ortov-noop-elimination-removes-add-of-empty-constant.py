"""ortov-noop-elimination-removes-add-of-empty-constant (conformance/known/onnxruntime-openvino.yaml)

Add(x, Expand(d, Shape(x))) with d an initializer of shape (0,) and x a graph input of shape (1,) (valid: the
output is empty, (0,)), in a session with every graph optimization (ORT_ENABLE_ALL, the default), is refused by
ONNX Runtime 1.24.1 itself: constant folding computes the Expand into an empty constant, NoopElimination takes the
Add of an empty constant for x + 0 and removes it without checking that it feeds the graph's output, and
graph_utils::RemoveNode throws ("Should be unreachable if CanRemoveNodeAndMergeEdges is in sync with the logic
here"). The OpenVINO execution provider's session and the CPU provider's alike (printed); d of shape (1,) with x
(1,), a non-empty output, runs (the control). The spec's output is the empty broadcast.

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


def run(data_shape: tuple[int, ...], provider: str) -> str:
    nodes = [helper.make_node("Shape", ["x"], ["s"]), helper.make_node("Expand", ["d", "s"], ["e"]),
             helper.make_node("Add", ["x", "e"], ["y"])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              initializer=[numpy_helper.from_array(np.full(data_shape, 2.0, np.float32), "d")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    if provider != "CPUExecutionProvider":
        options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    try:
        session = ort.InferenceSession(model.SerializeToString(), options, providers=[provider])
    except Exception as e:
        return f"refused: {str(e).strip().splitlines()[-1][-130:]}"
    (out,) = session.run(None, {"x": np.zeros((1,), np.float32)})
    return f"ran: output shape {out.shape}, {out.tolist()}"


print("onnxruntime", ort.__version__, "ORT_ENABLE_ALL; Add(x, Expand(d, Shape(x))), d an initializer, x (1,)")
bug_run, control = run((0,), PROVIDER), run((1,), PROVIDER)
print(f"d (0,), {PROVIDER}:", bug_run)
print("d (0,), CPUExecutionProvider:", run((0,), "CPUExecutionProvider"))
print(f"d (1,), {PROVIDER}:", control)
print("spec: an empty output of shape (0,)")
if not control.startswith("ran"):
    print("cannot run: the control is refused too")
    sys.exit(2)
bug = "Should be unreachable" in bug_run
print("the bug shows: NoopElimination removes the output's Add" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
