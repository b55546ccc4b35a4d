"""ov-onnx-transpose-cpu-rank-0-or-1-transpose-not-written-before-2025-4 (conformance/known/openvino-onnx.yaml)

OpenVINO 2025.0's CPU plugin runs a Transpose of a rank-0 or rank-1 input without writing its output. An ONNX model
Transpose(data_t) -> Expand(shape) -> Transpose, read with Core.read_model from its bytes: scalar data 7.0 with the
shape [2, 3] and data [7, 8, 9] with the shape [3] come back as whatever the output buffer held (zeros or garbage),
where ONNX Expand replicates the data. The Transpose of the scalar reaches the plugin as it is; for (3,) with [3] the
Expand is removed (its output is the data's shape) and the two Transposes of one axis are fused into one. The same
with openvino's own opset and no Expand: Parameter (3,) -> Transpose(order [0]) -> Result.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import onnx
    import openvino as ov
    import openvino.opset13 as ops
    from onnx import TensorProto, helper, numpy_helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)


def transpose(source, result, rank):
    if rank == 0:  # ONNX cannot hold an empty perm; the default reverses the axes
        return helper.make_node("Transpose", [source], [result])
    return helper.make_node("Transpose", [source], [result], perm=list(range(rank))[::-1])


def expand_between_transposes(data, target):
    rank, out_rank = data.ndim, max(data.ndim, len(target))
    nodes = [transpose("data_t", "data", rank), helper.make_node("Expand", ["data", "shape"], ["expanded"]),
             transpose("expanded", "y", out_rank)]
    data_t = helper.make_tensor_value_info("data_t", TensorProto.FLOAT, data.shape[::-1])
    graph = helper.make_graph(nodes, "g", [data_t], [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(np.array(target, np.int64), "shape")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    compiled = core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU")
    return np.transpose(compiled([np.transpose(data)])[0])  # the output transposed back


print("openvino", ov.__version__, "onnx", onnx.__version__, "numpy", np.__version__)
core = ov.Core()
bug = False
for data, target in ((np.array(7.0, np.float32), [2, 3]), (np.array([7.0, 8.0, 9.0], np.float32), [3])):
    got = expand_between_transposes(data, target)
    want = np.broadcast_to(data, np.broadcast_shapes(data.shape, tuple(target)))
    bug |= got.shape == want.shape and not np.array_equal(got, want)
    print(f"Transpose -> Expand(data {data.tolist()}, shape {target}) -> Transpose: {got.ravel().tolist()}; "
          f"spec: {want.ravel().tolist()}")
x = ops.parameter([3], ov.Type.f32, name="x")
plain = core.compile_model(ov.Model([ops.transpose(x, ops.constant(np.array([0], np.int64)))], [x]), "CPU")
out = plain([np.array([7.0, 8.0, 9.0], np.float32)])[0]
bug |= not np.array_equal(out, [7.0, 8.0, 9.0])
print(f"opset Parameter (3,) -> Transpose(order [0]) of [7, 8, 9]: {out.tolist()}; spec: [7.0, 8.0, 9.0]")
print("the bug shows: the Transpose's output is not written" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
