"""ortov-string-initializer-not-folded (conformance/known/onnxruntime-openvino.yaml)

An Expand of a string initializer of 4 elements (valid: [2, 2] to shape [2, 2]), in a session with every graph
optimization (ORT_ENABLE_ALL, the default), is refused: ONNX Runtime 1.24.1 moves an initializer of more than 127
bytes into memory named as external data, counting a string as its 32-byte std::string, and its constant folding
then reads the initializer back through GetExternalDataInfo, which refuses external strings ("External data type
cannot be UNDEFINED or STRING"). 3 strings are kept inline and folded right (the control). The CPU provider of the
same package is refused alike (printed). The spec's output is the broadcast data.

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


def run(data: np.ndarray, provider: str) -> str:
    shape = np.array(data.shape, np.int64)
    graph = helper.make_graph([helper.make_node("Expand", ["x", "s"], ["y"])], "g", [],
                              [helper.make_tensor_value_info("y", TensorProto.STRING, None)],
                              initializer=[numpy_helper.from_array(data, "x"), numpy_helper.from_array(shape, "s")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    if provider != "CPUExecutionProvider":
        options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    try:
        session = ort.InferenceSession(model.SerializeToString(), options, providers=[provider])
    except Exception as e:
        return f"refused: {str(e).strip().splitlines()[-1][-120:]}"
    (out,) = session.run(None, {})
    return f"ran: {out.tolist()}"


four = np.array([["a", "b"], ["c", "d"]], dtype=object)
three = np.array(["a", "b", "c"], dtype=object)
print("onnxruntime", ort.__version__, "ORT_ENABLE_ALL; Expand of a string initializer to its own shape")
bug_run, control = run(four, PROVIDER), run(three, PROVIDER)
print(f"4 strings, {PROVIDER}:", bug_run)
print("4 strings, CPUExecutionProvider:", run(four, "CPUExecutionProvider"))
print(f"3 strings, {PROVIDER}:", control)
print("spec: the data itself, [['a', 'b'], ['c', 'd']]")
if not control.startswith("ran"):
    print("cannot run: the 3-string control is refused too")
    sys.exit(2)
bug = "External data type cannot be UNDEFINED or STRING" in bug_run
print("the bug shows: the 4-string initializer is refused" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
