"""ov-onnx-empty-vector-data-initializer-becomes-scalar-before-2025-4 (conformance/known/openvino-onnx.yaml)

In OpenVINO 2025.0 an ONNX Expand whose data is an initializer of shape (0,) and whose shape is a graph input
gives the target's shape: the frontend's Graph::Graph
replaces an initializer whose Tensor::get_ov_constant() throws (a tensor without data bytes) by a failsafe scalar
Constant, and a scalar broadcast to the shape is the shape. The spec (numpy's rule): data (0,) with [1] gives (0,).

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import openvino as ov
    from onnx import TensorProto, helper, numpy_helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

core = ov.Core()
print("openvino", ov.__version__)
bug = False
for data_shape, target in (((0,), [1]),):
    graph = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g",
                              [helper.make_tensor_value_info("shape", TensorProto.INT64, [len(target)])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(np.zeros(data_shape, np.float32), "x"),
                               ])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    converted = core.read_model(model.SerializeToString(), b"")
    data_constant = [op for op in converted.get_ordered_ops() if op.get_type_name() == "Constant"][0]
    try:
        got = f"output {core.compile_model(converted, 'CPU')([np.array(target, np.int64)])[0].shape}"
    except RuntimeError as e:
        got = "rejected: " + " ".join(str(e).split())[-80:]
    spec = f"output {np.broadcast_shapes(data_shape, tuple(target))}"
    bug |= got != spec
    print(f"Expand(initializer of shape {data_shape}, shape {target}): the data became a Constant of shape "
          f"{data_constant.get_output_partial_shape(0)}; got {got}; spec: {spec}")
print("the bug shows: an empty data initializer becomes a scalar" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
