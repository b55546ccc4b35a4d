"""ov-cpu-subtract-negative-zero-minus-zero (conformance/known/openvino.yaml)

IEEE 754: -0.0 - +0.0 is -0.0 (numpy agrees). The CPU plugin's Subtract gives -0.0 for inputs of static shape and
rank up to 6, but +0.0 with dynamic dimensions, or with static shapes of rank 7 or more.

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

core, bug = ov.Core(), False
for dims, label in [([2], "static rank 1"), ([-1], "dynamic rank 1"), ([1] * 6 + [2], "static rank 7")]:
    shape = [2 if d == -1 else d for d in dims]
    a, b = ops.parameter(ov.PartialShape(dims), np.float32), ops.parameter(ov.PartialShape(dims), np.float32)
    compiled = core.compile_model(ov.Model([ops.subtract(a, b)], [a, b]), "CPU")
    out = compiled([np.full(shape, -0.0, np.float32), np.zeros(shape, np.float32)])[0]
    wrong = not np.signbit(out).all()
    bug |= wrong
    print("openvino", ov.__version__, f"{label}: -0.0 - 0.0 = {out.ravel()[0]!r}; spec (IEEE 754): -0.0")
sys.exit(0 if bug else 1)
