"""ov-broadcasttransition-shapeof-unchecked (conformance/known/openvino.yaml)

In Add(x, Broadcast-1(y, ShapeOf(x))) BroadcastTransition moves the numpy-mode Broadcast-1 after the Add, with the
target Maximum(ShapeOf(Add(x, y)), ShapeOf(x)): the Add broadcasts both ways, so a y the Broadcast must reject (a
dimension other than 1 against a 1 of x) gives a shape larger than x's. Where a 0 of y meets a 1 of x, the std::max
makes the new Broadcast's target 1 and it rejects 0 to 1, as the spec does (by another rule). Broadcast-3 takes
BroadcastElementwiseFusion's road instead (ov-broadcast-elementwise-fusion-shapeof-unchecked).

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import openvino as ov
    import openvino.opset1 as op1
    import openvino.opset3 as op3
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("openvino", ov.__version__)
x, y = op3.parameter([-1, -1], np.float32), op3.parameter([-1, -1], np.float32)
model = ov.Model([op3.add(x, op1.broadcast(y, op3.shape_of(x)))], [x, y])
compiled = ov.Core().compile_model(model, "CPU")
bug = False
for xs, ys, valid in (([2, 3], [1, 3], True), ([2, 1], [2, 3], False), ([1, 3], [0, 3], False)):
    try:
        got = f"ACCEPTED, output shape {compiled([np.zeros(xs, np.float32), np.ones(ys, np.float32)])[0].shape}"
        bug |= not valid
    except RuntimeError:
        got = "rejected"
    spec = f"output shape {tuple(xs)}" if valid else "rejected: Broadcast-1 numpy cannot stretch y to the shape of x"
    print(f"Add(x {xs}, Broadcast-1(y {ys}, ShapeOf(x))): {got}; spec: {spec}")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
