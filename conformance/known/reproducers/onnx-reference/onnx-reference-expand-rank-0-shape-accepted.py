"""onnx-reference-expand-rank-0-shape-accepted (conformance/known/onnx-reference.yaml)

ONNX's reference evaluator runs an Expand whose shape is a rank-0 tensor (a single value) as if it were the 1-D
shape of that value: data (2, 1) with the shape 3 gives (2, 3). ONNX Expand's shape is a 1-D tensor.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    from onnx.reference import ReferenceEvaluator
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("onnx", onnx.__version__)
shape = numpy_helper.from_array(np.array(3, dtype=np.int64), "shape")  # rank 0
graph = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 1])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], initializer=[shape])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
try:
    (y,) = ReferenceEvaluator(model).run(None, {"x": np.zeros((2, 1), np.float32)})
    got = f"output of shape {y.shape}"
except Exception as e:
    got = f"{type(e).__name__}: {e}"
print("rank-0 shape 3, data (2, 1):", got)
sys.exit(0 if got == "output of shape (2, 3)" else 1)
