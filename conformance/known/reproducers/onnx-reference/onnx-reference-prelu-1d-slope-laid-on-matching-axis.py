"""onnx-reference-prelu-1d-slope-laid-on-matching-axis (conformance/known/onnx-reference.yaml)

ONNX PRelu's slope is unidirectionally broadcast to X, right-aligned: X (2, 4) with slope (2,) is not broadcastable
(2 against 4). The reference evaluator, when numpy refuses, looks for the slope's length among X's dimensions and
lays the slope along the one axis it finds: the output is (2, 4).

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
    [helper.make_node("PRelu", ["x", "slope"], ["y"])], "prelu",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4]),
     helper.make_tensor_value_info("slope", TensorProto.FLOAT, [2])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
x, slope = -np.ones((2, 4), np.float32), np.array([0.5, 2.0], np.float32)
try:
    out = ReferenceEvaluator(model).run(None, {"x": x, "slope": slope})[0]
except ValueError as e:
    print("onnx", onnx.__version__, f"X (2, 4), slope (2,) rejected: {e}")
    sys.exit(1)
print("onnx", onnx.__version__, f"X (2, 4), slope (2,): output {out.shape} {out.tolist()}; spec: rejected")
sys.exit(0)
