"""ov-onnx-transpose-to-reshape-zero-dim-read-as-copy (conformance/known/openvino-onnx.yaml)

An ONNX Transpose of a graph input of static shape (1, 0), whose only dimension other than 1 is a 0, gives a tensor
of shape (1, 1) on the CPU plugin instead of (0, 1): TransposeToReshape replaces the Transpose by a Reshape with
special_zero=true whose pattern writes the moved dimension's length, 0, which Reshape then reads as "copy the input's
dimension here" (1). An Expand after it (data (0, 1) with shape [2, 1, 5], the bidirectional rule: (2, 0, 5)) then
broadcasts a one-element tensor: (2, 1, 5). The Transpose alone shows it, and the Expand shows the wrong shape.

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


def model(with_expand):
    nodes = [helper.make_node("Transpose", ["x_t"], ["x"], perm=[1, 0])]
    inputs = [helper.make_tensor_value_info("x_t", TensorProto.FLOAT, [1, 0])]
    if with_expand:
        nodes.append(helper.make_node("Expand", ["x", "shape"], ["y"]))
        inputs.append(helper.make_tensor_value_info("shape", TensorProto.INT64, [3]))
    out = "y" if with_expand else "x"
    graph = helper.make_graph(nodes, "g", inputs, [helper.make_tensor_value_info(out, TensorProto.FLOAT, None)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)


print("openvino", ov.__version__, "onnx", onnx.__version__, "numpy", np.__version__)
core = ov.Core()
data_t = np.zeros((1, 0), np.float32)
transposed = core.compile_model(core.read_model(model(False).SerializeToString(), b""), "CPU")([data_t])[0]
print(f"Transpose of (1, 0) with perm [1, 0]: {transposed.shape}; numpy: {data_t.T.shape}")
expanded = core.compile_model(core.read_model(model(True).SerializeToString(), b""), "CPU")(
    [data_t, np.array([2, 1, 5], np.int64)])[0]
want = np.broadcast_shapes(data_t.T.shape, (2, 1, 5))
print(f"Expand of that (0, 1) with shape [2, 1, 5]: {expanded.shape}; spec: {want}")
bug = transposed.shape != data_t.T.shape and expanded.shape != want
print("the bug shows: the 0 became a 1" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
