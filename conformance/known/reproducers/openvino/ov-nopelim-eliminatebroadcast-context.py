"""ov-nopelim-eliminatebroadcast-context (conformance/known/openvino.yaml)

NopElimination's EliminateBroadcast removes a Broadcast whose static input and declared output shapes are equal,
without looking at its target_shape. A bidirectional Broadcast with a run-time target no longer than the data declares
the data's shape, so an incompatible target is never checked once the Broadcast may be replaced by its input: with the
data a Parameter that is the case as soon as an op follows it (here BitwiseXor with 0) or precedes it (a Transpose).
Alone, between the data Parameter and the Result, the Broadcast is kept and rejects.

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
for context in ("alone", "BitwiseXor after", "Transpose before"):
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    d = ops.parameter([3, 2] if context.startswith("Transpose") else [2, 3], np.int32)
    data = ops.transpose(d, ov.op.Constant(np.array([1, 0], np.int64))) if context.startswith("Transpose") else d
    t = ops.parameter([2], np.int64)
    node = ops.broadcast(data, t, broadcast_spec="BIDIRECTIONAL")
    out = ops13.bitwise_xor(node, ov.op.Constant(np.array(0, np.int32))) if context.startswith("BitwiseXor") else node
    compiled = core.compile_model(ov.Model([out], [d, t]), "CPU")
    feed = np.ascontiguousarray(x.T) if context.startswith("Transpose") else x
    try:
        got = f"ACCEPTED, output shape {compiled([feed, np.array([3, 2], np.int64)])[0].shape}"
        bug |= context != "alone"
    except RuntimeError:
        got = "rejected"
    print(f"bidirectional, data Parameter (2, 3), target_shape Parameter [3, 2], {context}: {got}; spec: rejected")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
