"""onnx-reference-sum-negative-zero-lost (conformance/known/onnx-reference.yaml)

Sum of -0.0 and -0.0 is -0.0 (IEEE 754; numpy's a + b). The reference evaluator computes sum(args), which starts
from the integer 0, and 0 + -0.0 is +0.0: the output is +0.0. Add of the same inputs keeps -0.0.

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
    [helper.make_node("Sum", ["a", "b"], ["out"])], "sum",
    [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2]) for n in ("a", "b")],
    [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
a = b = np.array([-0.0, 1.0], np.float32)
out = ReferenceEvaluator(model).run(None, {"a": a, "b": b})[0]
print("onnx", onnx.__version__, f"Sum([-0.0, 1], [-0.0, 1]) = {out.tolist()} (sign bits {np.signbit(out).tolist()}); "
      f"numpy a + b: {(a + b).tolist()}")
sys.exit(0 if not np.signbit(out[0]) else 1)
