"""ov-reference-run-time-axes-values-truncated-to-int32 (conformance/known/openvino.yaml; OpenVINO 2025.4 and later)

Explicit mode, target_shape a Constant, axes_mapping fed at run time: the CPU plugin converts the i64 axes_mapping to
i32 (wrapping since 2025.4), and the Reference node that runs the static Broadcast accepts the cut value, so
axes_mapping [2**32 + 1] acts as [1] and data (3,) with target_shape [2, 3] gives (2, 3). The spec rejects an axis
beyond the output rank.

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
d, a = ops.parameter([3], np.float32), ops.parameter([1], np.int64)
node = ops.broadcast(d, ov.op.Constant(np.array([2, 3], np.int64)), a, "EXPLICIT")
c = ov.Core().compile_model(ov.Model([node], [d, a]), "CPU")
bug = False
for axes in ([1], [2**32 + 1], [2**32]):
    try:
        got = f"ACCEPTED, output shape {c([np.ones(3, np.float32), np.array(axes, np.int64)])[0].shape}"
        bug |= axes != [1]
    except RuntimeError as e:
        got = "rejected: " + " ".join(str(e).split())[-80:]
    spec = "output shape (2, 3)" if axes == [1] else "rejected (an axis beyond the output rank)"
    print(f"explicit, data (3,), target_shape Constant [2, 3], axes_mapping Parameter {axes}: {got}; spec: {spec}")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
