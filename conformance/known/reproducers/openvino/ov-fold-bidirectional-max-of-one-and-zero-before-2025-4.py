"""ov-fold-bidirectional-max-of-one-and-zero-before-2025-4 (conformance/known/openvino.yaml; OpenVINO 2025.0 to 2025.3)

A folded bidirectional Broadcast-3 (Constant data and target_shape) takes each output dimension as std::max(data
dimension, target dimension) (v3::Broadcast's get_result_shape_bidirectional(), used by its evaluate()), so a target
0 facing a data dimension 1, or facing no data dimension, gives 1. By the spec's rule (numpy.array(data) *
numpy.ones(target_shape)) a 1 pairs with a 0 to give 0.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import openvino as ov
    import openvino.opset3 as ops
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("openvino", ov.__version__)
bug = False
for shape, target in (([1], [0]), ([], [0, 2, 3]), ([2, 3], [2, 3])):
    node = ops.broadcast(ov.op.Constant(np.ones(shape, np.float32)), ov.op.Constant(np.array(target, np.int64)),
                         broadcast_spec="BIDIRECTIONAL")
    got = ov.Core().compile_model(ov.Model([node], []), "CPU")([])[0].shape
    want = np.broadcast_shapes(tuple(shape), tuple(target))
    bug |= tuple(got) != want
    print(f"bidirectional, data Constant {shape}, target_shape Constant {target}: output shape {tuple(got)}; "
          f"spec: {want}")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
