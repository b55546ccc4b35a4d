"""ortov-scalar-initializer-transpose-not-claimed (conformance/known/onnxruntime-openvino.yaml)

A scalar f32 initializer between Transposes (Transpose, Expand to a shape fed at run time, Transpose; valid) under
ORT_DISABLE_ALL is refused at opset 13 by ONNX Runtime's OpenVINO execution provider, the CPU fallback off: the
rank-0 output of the scalar's Transpose is not claimed ("...fallback to CPU EP has been explicitly disabled"). At
opset 8 (Transpose-1, whose output shape ONNX Runtime leaves unknown for a rank-0 input) the same model is claimed
and runs right (the control). The spec's output is the data broadcast.

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


def run(opset: int) -> str:
    nodes = [helper.make_node("Transpose", ["x"], ["xt"]),  # rank 0: the default perm, nothing to reverse
             helper.make_node("Expand", ["xt", "s"], ["e"]),
             helper.make_node("Transpose", ["e"], ["y"], perm=[1, 0])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("s", TensorProto.INT64, [2])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              initializer=[numpy_helper.from_array(np.array(1.5, np.float32), "x")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=7)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    try:
        session = ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])
    except Exception as e:
        return f"refused: {str(e).strip()[-150:]}"
    (out,) = session.run(None, {"s": np.array([2, 3], np.int64)})
    return f"ran: output shape {out.shape}, values {sorted(set(out.reshape(-1).tolist()))}"


print("onnxruntime", ort.__version__, "with", PROVIDER, "alone, ORT_DISABLE_ALL; Transpose of a scalar initializer,"
      " Expand to [2, 3] (fed), Transpose")
bug_run, control = run(13), run(8)
print("opset 13:", bug_run)
print("opset 8: ", control)
print("spec: an output of shape (3, 2) (the (2, 3) broadcast, transposed) of 1.5")
if control != "ran: output shape (3, 2), values [1.5]":
    print("cannot run: the opset 8 control does not run right")
    sys.exit(2)
bug = bug_run.startswith("refused")
print("the bug shows: the scalar's Transpose is not the provider's" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
