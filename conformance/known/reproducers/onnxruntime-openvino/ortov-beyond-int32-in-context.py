"""ortov-int32-shape-refused-against-data-dim-beyond-int32, ortov-zero-dim-made-by-expand-beyond-int32-not-claimed
(conformance/known/onnxruntime-openvino.yaml)

Two valid empty broadcasts with a dimension beyond int32, run by ONNX Runtime's OpenVINO execution provider alone
(the CPU fallback off): data (2**32 + 2, 0) fed between two Transposes with the shape initializer [2**32 + 2, 0] is
refused when compiled (the shape saturated to int32 against the data's dimension); an initializer (1,) expanded to the
Shape of a (2**31, 0) input beside an Add (ORT_DISABLE_ALL) is refused as not claimed. The spec's outputs are
(4294967298, 0) and (2147483648, 0), empty.

Exit 0: the bugs show; 1: the runtime does what the spec says; 2: cannot run here.
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


def session(graph: object, opt_all: bool) -> object:
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    if not opt_all:
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])


def transposed() -> str:
    big = 2**32 + 2
    nodes = [helper.make_node("Transpose", ["x"], ["xt"], perm=[1, 0]),
             helper.make_node("Expand", ["xt", "s"], ["e"]),
             helper.make_node("Transpose", ["e"], ["y"], perm=[1, 0])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [0, big])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              initializer=[numpy_helper.from_array(np.array([big, 0], np.int64), "s")])
    try:
        s = session(graph, False)
        out = s.run(None, {"x": np.zeros((0, big), np.float32)})[0]
    except Exception as e:
        return "refused: " + str(e).strip().splitlines()[-1][-100:]
    return f"ran: output shape {out.T.shape}"


def beside_add() -> str:
    nodes = [helper.make_node("Shape", ["x"], ["s"]), helper.make_node("Expand", ["d", "s"], ["e"]),
             helper.make_node("Add", ["x", "e"], ["y"])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2**31, 0])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              initializer=[numpy_helper.from_array(np.ones(1, np.float32), "d")])
    try:
        s = session(graph, False)
        out = s.run(None, {"x": np.zeros((2**31, 0), np.float32)})[0]
    except Exception as e:
        return "refused: " + ("not claimed" if "fallback to CPU EP" in str(e) else str(e).strip()[-100:])
    return f"ran: output shape {out.shape}"


print("onnxruntime", ort.__version__, "with", PROVIDER, "alone, ORT_DISABLE_ALL")
first, second = transposed(), beside_add()
print("data (2**32 + 2, 0), shape [2**32 + 2, 0], between Transposes:", first)
print("data (1,) beside Add of x (2**31, 0):                        ", second)
print("spec: (4294967298, 0) and (2147483648, 0)")
bug = "Got 2147483647" in first and second == "refused: not claimed"
print("the bugs show" if bug else "the bugs do not both show")
sys.exit(0 if bug else 1)
