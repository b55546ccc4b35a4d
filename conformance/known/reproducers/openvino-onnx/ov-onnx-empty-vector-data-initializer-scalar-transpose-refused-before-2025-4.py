"""ov-onnx-empty-vector-data-initializer-scalar-transpose-refused-before-2025-4 (conformance/known/openvino-onnx.yaml)

A Transpose (perm [0]) of an initializer of shape (0,), with no element, followed by an Expand to [3, 1] (the
bidirectional rule: (3, 0)): Core.read_model of OpenVINO 2025.0 refuses the model. The frontend puts a failsafe scalar
in place of a (0,) initializer (ov-onnx-empty-vector-data-initializer-becomes-scalar-before-2025-4), and the
Transpose's order of one value no longer fits a scalar ("Input order must have shape [n], where n is the rank of
arg"). 2026.4.1 refuses it the same way (ov-onnx-empty-data-initializer-scalar-transpose-refused, for every empty
initializer there).

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import onnx
    import openvino as ov
    from onnx import TensorProto, helper, numpy_helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

nodes = [helper.make_node("Transpose", ["x_t"], ["x"], perm=[0]), helper.make_node("Expand", ["x", "shape"], ["y"])]
graph = helper.make_graph(nodes, "g", [], [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                          [numpy_helper.from_array(np.zeros((0,), np.float32), "x_t"),
                           numpy_helper.from_array(np.array([3, 1], np.int64), "shape")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)

print("openvino", ov.__version__, "onnx", onnx.__version__, "numpy", np.__version__)
want = np.broadcast_shapes((0,), (3, 1))
core = ov.Core()
try:
    out = core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU")([])[0]
    got, bug = f"output {out.shape}", False
except RuntimeError as e:
    got = "rejected: " + " ".join(line for line in str(e).splitlines() if "Input order" in line)
    bug = "Input order must have shape" in str(e)
print(f"Expand(Transpose(initializer (0,)), [3, 1]): {got}; spec: output {want}")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
