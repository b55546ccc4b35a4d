"""ov-onnx-empty-data-initializer-accepts-any-shape (conformance/known/openvino-onnx.yaml)

An ONNX Expand whose data is an initializer with no element accepts shapes the spec rejects: the frontend replaces
the empty initializer by a failsafe scalar Constant (ov-onnx-empty-data-initializer-becomes-scalar), and a scalar
broadcasts to anything. The spec: data (0,) with [2], and (2, 0) with [3], are rejected (0 against 2 or 3).

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
for data_shape, target in (((0,), [2]), ((2, 0), [3])):
    graph = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g", [],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(np.zeros(data_shape, np.float32), "x"),
                               numpy_helper.from_array(np.array(target, np.int64), "shape")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    try:
        compiled = core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU")
        got = f"ACCEPTED, output {compiled([])[0].shape}"
        bug = True
    except RuntimeError as e:
        got = "rejected: " + " ".join(str(e).split())[-80:]
    print(f"Expand(initializer of shape {data_shape}, shape {target}): got {got}; spec: rejected")
print("the bug shows: an empty data initializer takes any shape" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
