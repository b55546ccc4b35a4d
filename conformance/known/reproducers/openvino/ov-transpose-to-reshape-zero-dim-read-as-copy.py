"""ov-transpose-to-reshape-zero-dim-read-as-copy (conformance/known/openvino.yaml)

A Transpose of a tensor of static shape whose only dimension other than 1 is a 0 ((1, 0) with order [1, 0]) gives a
tensor of shape (1, 1) on the CPU plugin instead of (0, 1): TransposeToReshape replaces the Transpose by a Reshape with
special_zero=true whose pattern holds the moved dimension's length, 0, which Reshape reads as "copy the input's
dimension here" (a 1). A bidirectional Broadcast-3 after it (data (0, 1) with a Constant target_shape [1, 3], the spec's
output (0, 3)) then broadcasts one element: (1, 3). A Transpose after a Broadcast whose output is (1, 0) gives (1, 1)
the same way.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import openvino as ov
    import openvino.opset3 as op3
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)


def order(rank):
    return ov.op.Constant(np.arange(rank - 1, -1, -1, dtype=np.int64))


print("openvino", ov.__version__, "numpy", np.__version__)
core = ov.Core()
fed = np.zeros((1, 0), np.float32)  # the data (0, 1), fed in reversed axis order

x = op3.parameter([1, 0], np.float32)
transposed = core.compile_model(ov.Model([op3.transpose(x, order(2))], [x]), "CPU")([fed])[0]
print(f"Transpose of (1, 0) with order [1, 0]: {transposed.shape}; numpy: {fed.T.shape}")

x = op3.parameter([1, 0], np.float32)
target = ov.op.Constant(np.array([1, 3], np.int64))
b = op3.broadcast(op3.transpose(x, order(2)), target, broadcast_spec="BIDIRECTIONAL")
out = core.compile_model(ov.Model([b], [x]), "CPU")([fed])[0]
want = np.broadcast_shapes(fed.T.shape, (1, 3))
print(f"Broadcast-3 bidirectional of that (0, 1) to target_shape [1, 3]: {out.shape}; spec: {want}")

x = op3.parameter([1], np.float32)
b = op3.broadcast(x, ov.op.Constant(np.array([1, 0], np.int64)))
after = core.compile_model(ov.Model([op3.transpose(b, order(2))], [x]), "CPU")([np.ones(1, np.float32)])[0]
print(f"Transpose of Broadcast-3 numpy (1,) to [1, 0] (order [1, 0]): {after.shape}; spec: (0, 1)")

bug = transposed.shape != fed.T.shape and out.shape != want
print("the bug shows: the 0 became a 1" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
