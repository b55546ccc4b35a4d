"""onnx-reference-prelu-slope-grows-x (conformance/known/onnx-reference.yaml)

ONNX PRelu: "slope should be unidirectional broadcastable to input tensor X", and the output has X's shape. ONNX's
reference evaluator computes numpy.where(x > 0, x, x * slope), which broadcasts both ways: X (3,) with a slope
(2, 3) gives a (2, 3) output.

Exit 0: the bug shows; 1: the runtime does what the spec says (a rejection); 2: cannot run here.
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
    [helper.make_node("PRelu", ["x", "slope"], ["out"])], "prelu",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3]),
     helper.make_tensor_value_info("slope", TensorProto.FLOAT, [2, 3])],
    [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
try:
    out = ReferenceEvaluator(model).run(None, {"x": -np.ones(3, np.float32),
                                               "slope": np.full((2, 3), 0.5, np.float32)})[0]
except Exception as e:
    print("onnx", onnx.__version__, "rejects it:", e)
    sys.exit(1)
print("onnx", onnx.__version__, f"ReferenceEvaluator PRelu of X (3,) and slope (2, 3): output shape {out.shape}; "
      "spec: a rejection (the slope broadcasts to X, one way)")
sys.exit(0)
