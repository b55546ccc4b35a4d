"""ortov-expand-elimination-negative-read-as-one (conformance/known/onnxruntime-openvino.yaml)

Between two Transposes (opset 13, ORT_ENABLE_ALL), an Expand of f32 data (1, 3, 4) with the shape initializer
[-1, 3, 4] (invalid: a negative dimension), run by ONNX Runtime's OpenVINO execution provider alone (the CPU fallback
off), comes back as the data, shape (1, 3, 4): ONNX Runtime's ExpandElimination takes the -1 for a value "at most
1" that changes nothing and removes the Expand before the provider is asked, and the Transposes cancel. The spec
rejects a negative dimension; -2 is removed the same way.

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


def expanded(shape: list[int]) -> str:
    """Transpose, Expand (shape initializer, given reversed as the data is), Transpose of data (1, 3, 4)."""
    nodes = [helper.make_node("Transpose", ["x"], ["xt"], perm=[2, 1, 0]),
             helper.make_node("Expand", ["xt", "s"], ["e"]),
             helper.make_node("Transpose", ["e"], ["y"], perm=[2, 1, 0])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              initializer=[numpy_helper.from_array(np.array(shape[::-1], np.int64), "s")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    try:
        session = ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])
        return f"output {session.run(None, {'x': np.ones((1, 3, 4), np.float32)})[0].shape}"
    except Exception as e:
        return "refused: " + (str(e).strip().splitlines() or [""])[-1][-100:]


print("onnxruntime", ort.__version__, "with", PROVIDER, "alone, ORT_ENABLE_ALL; Transpose, Expand, Transpose")
got = expanded([-1, 3, 4])
print("data (1, 3, 4), shape initializer [-1, 3, 4]:", got, "  spec: rejected (a negative dimension)")
bug = got == "output (1, 3, 4)"
print("the bug shows: the invalid shape is never checked" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
