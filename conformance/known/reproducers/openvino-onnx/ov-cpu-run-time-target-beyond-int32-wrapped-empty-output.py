"""ov-cpu-run-time-target-beyond-int32-wrapped-empty-output (conformance/known/openvino.yaml; OpenVINO 2025.4 and later)

A target_shape fed at run time with a value beyond int32 beside a 0 (an output with no element, valid): the CPU
plugin converts the i64 input to i32, keeping the low 32 bits, so numpy data (1,) with target_shape [0, 2**32 + 1]
gives (0, 1) and [0, 2**32] gives (0, 0). The spec's outputs are (0, 4294967297) and (0, 4294967296).

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
d, t = ops.parameter([1], np.float32), ops.parameter([2], np.int64)
c = ov.Core().compile_model(ov.Model([ops.broadcast(d, t)], [d, t]), "CPU")
bug = False
for big in (2**32 + 1, 2**32):
    try:
        got = c([np.ones(1, np.float32), np.array([0, big], np.int64)])[0].shape
        bug |= tuple(got) != (0, big)
    except RuntimeError as e:
        got = "rejected: " + " ".join(str(e).split())[-80:]
    print(f"numpy, data (1,), target_shape Parameter [0, {big}]: {got}; spec: (0, {big})")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
