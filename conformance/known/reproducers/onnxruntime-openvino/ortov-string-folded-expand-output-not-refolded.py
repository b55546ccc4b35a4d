"""ortov-string-folded-expand-output-not-refolded (conformance/known/onnxruntime-openvino.yaml)

A string scalar initializer between Transposes, Transpose, Expand to [2, 3], Transpose (valid), in a session with
every graph optimization (ORT_ENABLE_ALL, the default), is refused: ONNX Runtime's constant folding computes the
Expand into a new initializer of 6 strings, which 1.24.1 holds as in-memory external data (more than 127 bytes,
counting a string as its 32-byte std::string), and folding the output's Transpose then reads it back through
GetExternalDataInfo, which refuses external strings ("External data type cannot be UNDEFINED or STRING"). Expanded
to [3] (3 strings, kept inline) the model is folded right (the control). The spec's output is the broadcast data.

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
    perm = list(range(len(shape)))[::-1]
    nodes = [helper.make_node("Transpose", ["x"], ["xt"]),  # rank 0: the default perm, nothing to reverse
             helper.make_node("Expand", ["xt", "s"], ["e"]),
             helper.make_node("Transpose", ["e"], ["y"], perm=perm)]
    graph = helper.make_graph(nodes, "g", [], [helper.make_tensor_value_info("y", TensorProto.STRING, None)],
                              initializer=[numpy_helper.from_array(np.array("a", dtype=object), "x"),
                                           numpy_helper.from_array(np.array(shape, np.int64), "s")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    try:
        session = ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])
    except Exception as e:
        return f"refused: {str(e).strip().splitlines()[-1][-120:]}"
    (out,) = session.run(None, {})
    return f"ran: output shape {out.shape}, {out.reshape(-1).tolist()}"


print("onnxruntime", ort.__version__, "with", PROVIDER, "alone, ORT_ENABLE_ALL; Transpose, Expand, Transpose of a "
      "string scalar initializer")
bug_run, control = run([2, 3]), run([3])
print("to [2, 3]:", bug_run)
print("to [3]:   ", control)
print("spec: an output of shape (3, 2) (the (2, 3) broadcast, transposed) of 'a'")
if not control.startswith("ran"):
    print("cannot run: the 3-string control is refused too")
    sys.exit(2)
bug = "External data type cannot be UNDEFINED or STRING" in bug_run
print("the bug shows: the folded 6-string output is refused" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
