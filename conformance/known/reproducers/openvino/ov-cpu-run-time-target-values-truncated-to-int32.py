"""ov-cpu-run-time-target-values-truncated-to-int32 (conformance/known/openvino.yaml; OpenVINO 2025.4 and later)

Explicit mode, target_shape fed at run time, axes_mapping a Constant: a target_shape value outside int32 keeps its low
32 bits (the CPU plugin converts the i64 input to i32, wrapping since 2025.4), so data (3,) with target_shape
[2, 2**32 + 3] and axes_mapping [1] gives (2, 3). The spec rejects 3 against 2**32 + 3.

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
d, t = ops.parameter([3], np.float32), ops.parameter([2], np.int64)
node = ops.broadcast(d, t, ov.op.Constant(np.array([1], np.int64)), "EXPLICIT")
c = ov.Core().compile_model(ov.Model([node], [d, t]), "CPU")
try:
    got = f"ACCEPTED, output shape {c([np.ones(3, np.float32), np.array([2, 2**32 + 3], np.int64)])[0].shape}"
    bug = True
except RuntimeError as e:
    got, bug = "rejected: " + " ".join(str(e).split())[-80:], False
print(f"explicit, data (3,), target_shape Parameter [2, 2**32 + 3], axes_mapping Constant [1]: {got}; spec: rejected")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
