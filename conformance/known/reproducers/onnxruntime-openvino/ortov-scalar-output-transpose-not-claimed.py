"""ortov-scalar-output-transpose-not-claimed (conformance/known/onnxruntime-openvino.yaml)

A scalar f32 initializer between Transposes (Transpose, Expand to a shape fed at run time, Transpose), with every
graph optimization (ORT_ENABLE_ALL, the default), is refused by ONNX Runtime's OpenVINO execution provider, the CPU
fallback off, when the shape is fed with no value ([], a tensor of dimension [0]): the Expand's output has rank 0 and
the output's Transpose of it is not claimed ("...fallback to CPU EP has been explicitly disabled"). A shape of one
value ([3]) runs (the control). The spec's output is the scalar.

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


def run(shape: list[int]) -> str:
    last = (helper.make_node("Transpose", ["e"], ["y"]) if not shape
            else helper.make_node("Transpose", ["e"], ["y"], perm=[0]))
    nodes = [helper.make_node("Transpose", ["x"], ["xt"]),  # rank 0: the default perm, nothing to reverse
             helper.make_node("Expand", ["xt", "s"], ["e"]), last]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("s", TensorProto.INT64, [len(shape)])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              initializer=[numpy_helper.from_array(np.array(1.5, np.float32), "x")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    try:
        session = ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])
    except Exception as e:
        return f"refused: {str(e).strip()[-130:]}"
    (out,) = session.run(None, {"s": np.array(shape, np.int64)})
    return f"ran: output shape {out.shape}, values {out.reshape(-1).tolist()}"


print("onnxruntime", ort.__version__, "with", PROVIDER, "alone, ORT_ENABLE_ALL; Transpose of a scalar initializer, "
      "Expand (shape fed), Transpose")
bug_run, control = run([]), run([3])
print("shape []: ", bug_run)
print("shape [3]:", control)
print("spec: the scalar 1.5 (and (3,) of 1.5 for the control)")
if not control.startswith("ran"):
    print("cannot run: the control is refused too")
    sys.exit(2)
bug = bug_run.startswith("refused")
print("the bug shows: the rank-0 output's Transpose is not the provider's" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
