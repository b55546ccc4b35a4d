"""ov-onnx-expand-empty-shape-initializer-rank-unchecked (conformance/known/openvino-onnx.yaml)

ONNX Expand's shape is a 1-D tensor; OpenVINO's ONNX frontend replaces a shape initializer without values by the
Constant [1] (expand.cpp) whatever its rank, so a 2-D shape of no values ((1, 0) or (0, 2)) is not refused: the data
comes back as it is (a scalar with shape (1,)). The spec refuses a target_shape that is not 1-D; a 2-D shape input
fed at run time is refused when the model is converted.

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

print("openvino", ov.__version__)
core = ov.Core()
bug = False
for data_shape, shape in (((), (1, 0)), ((3,), (1, 0)), ((2, 3), (0, 2))):
    graph = helper.make_graph([helper.make_node("Expand", ["data", "shape"], ["y"])], "g",
                              [helper.make_tensor_value_info("data", TensorProto.FLOAT, list(data_shape))],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(np.zeros(shape, np.int64), "shape")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    try:
        compiled = core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU")
        got = f"ACCEPTED, output shape {compiled([np.ones(data_shape, np.float32)])[0].shape}"
        bug = True
    except RuntimeError:
        got = "refused"
    print(f"Expand(data {data_shape}, shape initializer of shape {shape}): {got}; spec: refused (the shape is not 1-D)")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
