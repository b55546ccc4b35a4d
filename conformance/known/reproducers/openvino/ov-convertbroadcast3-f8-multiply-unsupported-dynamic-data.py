"""ov-convertbroadcast3-f8-multiply-unsupported-dynamic-data (conformance/known/openvino.yaml)

Bidirectional Broadcast-3 of f8 data with dynamic dimensions and a Constant target_shape: ConvertBroadcast3's
make_compatible_shape() gives up where a target value 1 faces a data dimension (or the target is shorter than the
data), and the pass builds data * Constant(ones of the target's shape); the CPU plugin's Multiply has no f8 kernel.
With static data dimensions, or a target that aligns, the op becomes a Broadcast-1, which takes f8. The spec's output
is the data replicated.

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
for dims, target, note in (([3, 1], [1, 4], "a target 1 faces a data dimension"), ([-1, -1], [1, 4], "the same"),
                           ([-1, -1], [3, 4], "the target aligns")):
    d = ops.parameter(dims, ov.Type.f8e4m3)
    node = ops.broadcast(d, ov.op.Constant(np.array(target, np.int64)), broadcast_spec="BIDIRECTIONAL")
    x = ov.Tensor(ov.Type.f8e4m3, ov.Shape([3, 1]))
    try:
        got = f"output shape {ov.Core().compile_model(ov.Model([node], [d]), 'CPU')([x])[0].shape}"
    except RuntimeError as e:
        message = " ".join(str(e).split())
        got = "rejected: " + message[message.find("[CPU]"):][:90]
        bug |= -1 in dims
    print(f"bidirectional f8e4m3 data Parameter {dims} fed (3, 1), target_shape Constant {target} ({note}): {got}; "
          f"spec: output shape (3, 4)")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
