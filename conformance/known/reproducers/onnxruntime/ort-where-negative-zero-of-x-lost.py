"""ort-where-negative-zero-of-x-lost (conformance/known/onnxruntime.yaml)

Where(condition, X, Y) selects X where the condition is true; a -0.0 of X must come back as -0.0 (numpy.where, which
the ONNX spec names). ONNX Runtime's CPU kernel selects into two buffers, X or 0 and Y or 0, and merges them with
"x != 0 ? x : y": -0.0 compares equal to 0, so Y's buffer, +0.0, is taken instead.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import onnxruntime as ort
    from onnx import TensorProto, helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

graph = helper.make_graph(
    [helper.make_node("Where", ["c", "x", "y"], ["out"])], "where",
    [helper.make_tensor_value_info("c", TensorProto.BOOL, [2]),
     helper.make_tensor_value_info("x", TensorProto.FLOAT, [2]),
     helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
    [helper.make_tensor_value_info("out", TensorProto.FLOAT, [2])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
model.ir_version = 8
session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
c, x, y = np.array([True, False]), np.array([-0.0, 1.0], np.float32), np.array([5.0, 6.0], np.float32)
out = session.run(None, {"c": c, "x": x, "y": y})[0]
print("onnxruntime", ort.__version__, f"Where([True, False], [-0.0, 1.0], [5.0, 6.0]) = {out.tolist()}; "
      f"spec (numpy.where): {np.where(c, x, y).tolist()}")
sys.exit(0 if not np.signbit(out[0]) else 1)
