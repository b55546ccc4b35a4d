"""ov-broadcast-elementwise-fusion-shapeof-unchecked (conformance/known/openvino.yaml)

BroadcastElementwiseFusion rewrites Add(x, Broadcast(y, ShapeOf(x))) as Add(x, y): the numpy-mode Broadcast that
makes y the shape of x is dropped, and the Add's own broadcasting, which goes both ways, accepts a y the Broadcast must
reject (a dimension other than 1 against a 1 of x, or 0 against 1): the model gives a shape larger than x's.

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
x, y = ops.parameter([-1, -1], np.float32), ops.parameter([-1, -1], np.float32)
compiled = ov.Core().compile_model(ov.Model([ops.add(x, ops.broadcast(y, ops.shape_of(x)))], [x, y]), "CPU")
bug = False
for xs, ys, valid in (([2, 3], [1, 3], True), ([2, 1], [2, 3], False), ([1, 3], [0, 3], False)):
    try:
        got = f"ACCEPTED, output shape {compiled([np.zeros(xs, np.float32), np.ones(ys, np.float32)])[0].shape}"
        bug |= not valid
    except RuntimeError:
        got = "rejected"
    spec = f"output shape {tuple(xs)}" if valid else "rejected: Broadcast-3 numpy cannot stretch y to the shape of x"
    print(f"Add(x {xs}, Broadcast(y {ys}, ShapeOf(x))): {got}; spec: {spec}")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
