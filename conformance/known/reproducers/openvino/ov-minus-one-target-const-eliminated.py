"""ov-minus-one-target-const-eliminated (conformance/known/openvino.yaml)

Bidirectional Broadcast-3 of data (0,) with a Constant target_shape [-1], which the spec rejects (a negative value),
comes back as the data when an op follows the Broadcast (a BitwiseXor) or the data is a Constant: shape inference
reads the Constant -1 as a dimension of unknown length, the bidirectional Broadcast declares the data's shape, and
NopElimination's EliminateBroadcast removes a Broadcast whose input and output shapes are equal without looking at
its target. Between the data Parameter and the Result the Broadcast is kept.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import openvino as ov
    import openvino.opset13 as ops
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("openvino", ov.__version__, "numpy", np.__version__)
core = ov.Core()
target = ops.constant(np.array([-1], np.int64))
results = {}
d = ops.parameter([0], ov.Type.u8)
xor = ops.bitwise_xor(ops.broadcast(d, target, broadcast_spec="BIDIRECTIONAL"), ops.constant(np.uint8(5)))
const = ops.broadcast(ops.constant(np.zeros(0, np.uint8)), target, broadcast_spec="BIDIRECTIONAL")
for name, model, feeds in (("followed by BitwiseXor", ov.Model([xor], [d]), [np.zeros(0, np.uint8)]),
                           ("of Constant data", ov.Model([const], []), [])):
    try:
        results[name] = f"ACCEPTED, output {core.compile_model(model, 'CPU')(feeds)[0].shape}"
    except RuntimeError as e:
        results[name] = "rejected: " + " ".join(str(e).split())[-80:]
    print(f"Broadcast-3 bidirectional of u8 data (0,), Constant target_shape [-1], {name}: {results[name]}; spec: "
          "rejected")
bug = all(r.startswith("ACCEPTED") for r in results.values())
print("the bug shows: the -1 is never checked" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
