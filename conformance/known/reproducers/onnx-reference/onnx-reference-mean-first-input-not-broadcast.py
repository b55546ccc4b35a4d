"""onnx-reference-mean-first-input-not-broadcast (conformance/known/onnx-reference.yaml)

ONNX Mean broadcasts its inputs multidirectionally. The reference evaluator copies the first input and adds the
others into that copy in place (res += m), so an input larger than the first cannot be added: Mean of (3,) and
(2, 3) raises "non-broadcastable output operand" instead of giving (2, 3).

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import onnx
    from onnx import TensorProto, helper
    from onnx.reference import ReferenceEvaluator
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

graph = helper.make_graph(
    [helper.make_node("Mean", ["a", "b"], ["out"])], "mean",
    [helper.make_tensor_value_info("a", TensorProto.FLOAT, [3]),
     helper.make_tensor_value_info("b", TensorProto.FLOAT, [2, 3])],
    [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
a, b = np.array([1, 2, 3], np.float32), np.array([[1, 1, 1], [3, 3, 3]], np.float32)
try:
    out = ReferenceEvaluator(model).run(None, {"a": a, "b": b})[0]
except ValueError as e:
    print("onnx", onnx.__version__, f"Mean of (3,) and (2, 3) raises: {e}; spec: {((a + b) / 2).tolist()}")
    sys.exit(0)
print("onnx", onnx.__version__, f"Mean of (3,) and (2, 3): {out.tolist()}")
sys.exit(0 if not np.array_equal(out, (a + b) / 2) else 1)
