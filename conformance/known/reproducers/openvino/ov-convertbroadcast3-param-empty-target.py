"""ov-convertbroadcast3-param-empty-target (conformance/known/openvino.yaml)

Bidirectional Broadcast-3 with target_shape fed at run time (a Parameter) rejects an empty target_shape at infer:
for a non-constant target ConvertBroadcast3 rewrites the op as data * Broadcast-1(Constant [1], target_shape), and
a rank-1 tensor cannot be numpy-broadcast to a rank-0 target. The spec's rule, numpy.array(data) *
numpy.ones(target_shape), gives the data itself for an empty target_shape.

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
for shape, target in (([2, 3], []), ([1], []), ([2, 3], [3])):  # the last one, a shorter non-empty target, works
    want = np.broadcast_shapes(tuple(shape), tuple(target))
    d, t = ops.parameter(shape, np.float32), ops.parameter([len(target)], np.int64)
    c = ov.Core().compile_model(ov.Model([ops.broadcast(d, t, broadcast_spec="BIDIRECTIONAL")], [d, t]), "CPU")
    try:
        got = c([np.ones(shape, np.float32), np.array(target, np.int64)])[0].shape
    except RuntimeError as e:
        message = " ".join(str(e).split())
        got = "rejected: " + message[-100:]
        bug |= not target and ("smaller rank" in message or "start_axis" in message)
    print(f"bidirectional, data {shape}, target_shape {target} (Parameter): {got}; spec: output {want}")
print("the bug shows: an empty target_shape fed at run time is rejected" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
