"""ort-cpu-no-bfloat16-expand-kernel (conformance/known/onnxruntime.yaml)

ONNX Expand-13 allows bfloat16 data, but ONNX Runtime's CPU execution provider cannot create a session for it:
it registers no bfloat16 Expand kernel (NOT_IMPLEMENTED). The same model with float data runs.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import onnxruntime as ort
    from onnx import TensorProto, helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)


def session(elem: int) -> str:
    graph = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g",
                              [helper.make_tensor_value_info("x", elem, [1]),
                               helper.make_tensor_value_info("shape", TensorProto.INT64, [1])],
                              [helper.make_tensor_value_info("y", elem, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    try:
        ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        return "session created"
    except Exception as e:  # NotImplemented
        return f"{type(e).__name__}: {e}"


print("onnxruntime", ort.__version__)
control = session(TensorProto.FLOAT)
got = session(TensorProto.BFLOAT16)
print("float:", control)
print("bfloat16:", got)
if control != "session created":
    print("cannot run: the float model is refused too")
    sys.exit(2)
sys.exit(0 if "Could not find an implementation for Expand" in got else 1)
