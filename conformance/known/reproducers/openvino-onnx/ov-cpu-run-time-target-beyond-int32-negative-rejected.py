"""ov-cpu-run-time-target-beyond-int32-negative-rejected (conformance/known/openvino.yaml; OpenVINO 2025.4 and later)

A target_shape fed at run time with a value beyond int32 whose low 32 bits are negative as int32 (2**31, 2**63 - 1),
beside a 0 (an output with no element, valid): the CPU plugin converts the i64 input to i32, keeping the low 32 bits,
and the run-time shape inference rejects the result ("Value -2147483648 not in range"). The spec's output for numpy
data (1,) with target_shape [2**31, 0] is (2147483648, 0).

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
try:
    got, bug = f"output shape {c([np.ones(1, np.float32), np.array([2**31, 0], np.int64)])[0].shape}", False
except RuntimeError as e:
    got, bug = "REJECTED: " + " ".join(str(e).split())[-90:], True
print(f"numpy, data (1,), target_shape Parameter [2**31, 0]: {got}; spec: (2147483648, 0)")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
