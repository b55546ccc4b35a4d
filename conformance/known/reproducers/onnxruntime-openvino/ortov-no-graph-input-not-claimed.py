"""ortov-no-graph-input-not-claimed (conformance/known/onnxruntime-openvino.yaml)

A model whose every input is an initializer (Expand of constant data to a constant shape) is not claimed by ONNX
Runtime's OpenVINO execution provider, which leaves it to ONNX Runtime's constant folding; with the graph
optimizations off (ORT_DISABLE_ALL) nothing folds it, and with the CPU fallback off the session is refused. With the
optimizations on it is folded and runs. The spec's output is the broadcast data.

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


def run(optimized: bool) -> str:
    graph = helper.make_graph([helper.make_node("Expand", ["x", "s"], ["y"])], "g", [],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              initializer=[numpy_helper.from_array(np.arange(3, dtype=np.float32).reshape(3, 1), "x"),
                                           numpy_helper.from_array(np.array([2, 3, 4], np.int64), "s")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    if not optimized:
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    try:
        session = ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])
    except Exception as e:
        return f"refused: {e}"
    (out,) = session.run(None, {})
    return f"ran: output shape {out.shape}"


print("onnxruntime", ort.__version__, "with", PROVIDER, "alone, the CPU fallback off; data and shape initializers")
disabled, control = run(False), run(True)
print("ORT_DISABLE_ALL:", disabled)
print("ORT_ENABLE_ALL: ", control)
print("spec: an output of shape (2, 3, 4), the data broadcast")
if not control.startswith("ran"):
    print("cannot run: the folded model is refused too")
    sys.exit(2)
bug = "fallback to CPU EP has been explicitly disabled" in disabled
print("the bug shows: a model without graph inputs is not the provider's" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
