"""ov-onnx-empty-vector-data-initializer-folds-to-one-before-2025-4 (conformance/known/openvino-onnx.yaml)

In OpenVINO 2025.0 an ONNX Expand whose data is an initializer of shape (0,) (no element) and whose shape is an
initializer gives the shape with every 0 made 1: the data becomes a scalar, folded with the max of 1 and the target.
The spec (numpy's rule): data (0,) with [0] gives (0,), with [2, 0] gives (2, 0).

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
for data_shape, target in (((0,), [0]), ((0,), [2, 0])):
    graph = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g", [],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(np.zeros(data_shape, np.float32), "x"),
                               numpy_helper.from_array(np.array(target, np.int64), "shape")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    try:
        got = f"output {core.compile_model(core.read_model(model.SerializeToString(), b''), 'CPU')([])[0].shape}"
    except RuntimeError as e:
        got = "rejected: " + " ".join(str(e).split())[-80:]
    spec = f"output {np.broadcast_shapes(data_shape, tuple(target))}"
    bug |= got != spec
    print(f"Expand(initializer of shape {data_shape}, shape initializer {target}): got {got}; spec: {spec}")
print("the bug shows: an empty data initializer gives the target with 0 made 1" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
