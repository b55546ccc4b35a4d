"""ov-onnx-computed-shape-max-of-zero-and-one-rejects (conformance/known/openvino-onnx.yaml)

An ONNX Expand of data (0,) (a graph input) whose shape is computed, Shape of a graph input of shape (1,), fails at
compile_model: the Shape of a static input is folded into the Constant [1], and ConvertBroadcast3 builds the
Broadcast-1 with std::max(1, 0) = 1, which then refuses the 0 ("cannot be broadcasted (numpy mode) to 1"). The spec
(numpy's rule): 1 and 0 give 0, an empty output of shape (0,).

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import openvino as ov
    from onnx import TensorProto, helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

core = ov.Core()
print("openvino", ov.__version__)
bug = False
for data_shape, target in (((0,), [1]), ((2, 0), [3, 1, 1])):
    graph = helper.make_graph([helper.make_node("Shape", ["like"], ["shape"]),
                               helper.make_node("Expand", ["x", "shape"], ["y"])], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(data_shape)),
                               helper.make_tensor_value_info("like", TensorProto.UINT8, target)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    try:
        compiled = core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU")
        got = f"output {compiled([np.zeros(data_shape, np.float32), np.zeros(target, np.uint8)])[0].shape}"
    except RuntimeError as e:
        got = "rejected: " + " ".join(str(e).split())[-110:]
    spec = f"output {np.broadcast_shapes(data_shape, tuple(target))}"
    bug |= got != spec
    print(f"Expand(x {data_shape}, Shape(input of shape {target})): got {got}; spec: {spec}")
print("the bug shows: 0 against a computed 1 is refused" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
