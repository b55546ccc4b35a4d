"""ov-onnx-broadcasttransition-max-of-zero-and-one-rejects (conformance/known/openvino-onnx.yaml)

Add(x, Expand(y, Shape(x))), the pattern of real models, with y of shape (0, 1) and x of shape (5,): the
bidirectional rule gives (0, 5). compile_model refuses it: BroadcastTransition moves the Broadcast after the Add and
gives it the target Maximum(ShapeOf(Add(x, y)), [1, 5]) = max((0, 5), (1, 5)) = (1, 5), to which a numpy-mode
Broadcast cannot take the 0. A 0 of the data that meets a 1 of x (or no dimension of x) meets the same std::max.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import onnx
    import openvino as ov
    from onnx import TensorProto, helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

nodes = [helper.make_node("Shape", ["x"], ["shape"]), helper.make_node("Expand", ["y", "shape"], ["e"]),
         helper.make_node("Add", ["x", "e"], ["out"])]
graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [5]),
                                       helper.make_tensor_value_info("y", TensorProto.FLOAT, [0, 1])],
                          [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)

print("openvino", ov.__version__, "onnx", onnx.__version__, "numpy", np.__version__)
core = ov.Core()
want = np.broadcast_shapes((5,), (0, 1))
try:
    out = core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU")(
        [np.zeros(5, np.float32), np.zeros((0, 1), np.float32)])[0]
    got, bug = f"output {out.shape}", out.shape != want
except RuntimeError as e:
    got = "rejected: " + " ".join(line for line in str(e).splitlines() if "Input shape dimension" in line)
    bug = "cannot be broadcasted" in str(e)
print(f"Add(x (5,), Expand(y (0, 1), Shape(x))): {got}; spec: output {want}")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
