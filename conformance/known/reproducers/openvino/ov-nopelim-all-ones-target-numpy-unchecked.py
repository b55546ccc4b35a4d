"""ov-nopelim-all-ones-target-numpy-unchecked (conformance/known/openvino.yaml)

NopElimination's EliminateNopBroadcast removes a Broadcast (or Tile) whose target_shape is a Constant of ones of the
data's rank, as if it were a no-op. For a numpy-mode Broadcast it is one only when every data dimension is 1; with
data dimensions unknown until run time, data (2, 3) fed to target_shape [1, 1] should be rejected (3 cannot be
broadcast to 1) and is passed through instead. A Broadcast between the data Parameter and the Result is kept (and
rejects); with any op after it (here BitwiseXor with 0) it is removed.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import openvino as ov
    import openvino.opset3 as ops
    import openvino.opset13 as ops13
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("openvino", ov.__version__)
core = ov.Core()
bug = False
for after in (False, True):
    d = ops.parameter([-1, -1], np.int32)  # dynamic dimensions: nothing is known when the graph is built
    node = ops.broadcast(d, ov.op.Constant(np.array([1, 1], np.int64)))  # numpy mode
    out = ops13.bitwise_xor(node, ov.op.Constant(np.array(0, np.int32))) if after else node
    compiled = core.compile_model(ov.Model([out], [d]), "CPU")
    for shape in ([1, 1], [2, 3], [0, 1]):
        try:
            got = f"ACCEPTED, output shape {compiled([np.ones(shape, np.int32)])[0].shape}"
            bug |= shape != [1, 1]
        except RuntimeError:
            got = "rejected"
        spec = "output shape (1, 1)" if shape == [1, 1] else "rejected (numpy mode: a dimension other than 1 to 1)"
        print(f"numpy, data Parameter [?, ?] fed {shape}, target_shape Constant [1, 1]"
              f"{', BitwiseXor after' if after else ''}: {got}; spec: {spec}")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
