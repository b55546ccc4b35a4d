"""ov-onnx-data-initializer-fold-max-of-one-and-zero-before-2025-4 (conformance/known/openvino-onnx.yaml)

In OpenVINO 2025.0 an ONNX Expand whose data and shape are initializers is folded with each output dimension the
max of the data's and the target's, so a 1 (or no data dimension) facing a target 0 gives 1. The spec (numpy's
rule): data (1,) with [0] gives (0,), (1, 3) with [0, 3] gives (0, 3).

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
for data_shape, target in (((1,), [0]), ((1, 3), [0, 3])):
    graph = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g", [],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(np.ones(data_shape, np.float32), "x"),
                               numpy_helper.from_array(np.array(target, np.int64), "shape")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    try:
        got = f"output {core.compile_model(core.read_model(model.SerializeToString(), b''), 'CPU')([])[0].shape}"
    except RuntimeError as e:
        got = "rejected: " + " ".join(str(e).split())[-80:]
    spec = f"output {np.broadcast_shapes(data_shape, tuple(target))}"
    bug |= got != spec
    print(f"Expand(initializer of shape {data_shape}, shape initializer {target}): got {got}; spec: {spec}")
print("the bug shows: a 1 facing a 0 gives 1" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
