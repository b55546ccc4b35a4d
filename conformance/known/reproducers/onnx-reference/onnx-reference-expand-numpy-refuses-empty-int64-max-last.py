"""onnx-reference-expand-numpy-refuses-empty-int64-max-last (conformance/known/onnx-reference.yaml)

ONNX's reference evaluator computes Expand as data * numpy.ones(shape). For a shape [0, 2**63 - 1] (an output with no
element) numpy makes the ones, but the multiplication cannot allocate its output: "automatically allocated output
array specified with an inconsistent axis mapping". [2**63 - 1, 0] and [0, 2**62] work. By numpy's broadcasting rule
(which ONNX Expand follows) data (1,) with [0, 2**63 - 1] gives (0, 9223372036854775807), empty.

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

print("onnx", onnx.__version__, "numpy", np.__version__)
graph = helper.make_graph([helper.make_node("Expand", ["x", "s"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", TensorProto.UINT8, [1]),
                           helper.make_tensor_value_info("s", TensorProto.INT64, [2])],
                          [helper.make_tensor_value_info("y", TensorProto.UINT8, None)])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
try:
    got = ReferenceEvaluator(model).run(None, {"x": np.ones(1, np.uint8), "s": np.array([0, 2**63 - 1], np.int64)})
    got, bug = f"output shape {got[0].shape}", got[0].shape != (0, 2**63 - 1)
except ValueError as e:
    got, bug = f"REJECTED: {e}", True
print(f"Expand-13, data u8 (1,), shape [0, 2**63 - 1]: {got}; spec: (0, 9223372036854775807)")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
