"""ov-onnx-negative-shape-init-constant-data-folded (conformance/known/openvino-onnx.yaml)

An ONNX Expand whose data and shape are both initializers, the shape holding a negative value on its last axis, is
accepted, the axis read as empty: data (2, 3, 1) with [2, 3, -2] gives (2, 3, 0). compile_model folds the Broadcast
of two Constants, and shape inference reads the negative value as 0 (ov::Interval clips negatives). With the data a
graph input the same shape crashes the CPU node instead. The spec: a negative dimension is rejected.

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
for target in ([2, 3, -2], [2, 3, -2**63]):
    graph = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g", [],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(np.ones((2, 3, 1), np.float32), "x"),
                               numpy_helper.from_array(np.array(target, np.int64), "shape")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    try:
        compiled = core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU")
        got = f"ACCEPTED, output {compiled([])[0].shape}"
        bug = True
    except RuntimeError as e:
        got = "rejected: " + " ".join(str(e).split())[-80:]
    print(f"Expand(initializer (2, 3, 1), shape initializer {target}): got {got}; spec: rejected (negative)")
print("the bug shows: a negative dimension is read as 0" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
