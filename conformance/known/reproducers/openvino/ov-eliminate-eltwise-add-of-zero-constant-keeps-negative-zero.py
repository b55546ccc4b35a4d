"""ov-eliminate-eltwise-add-of-zero-constant-keeps-negative-zero (conformance/known/openvino.yaml)

Add of two Constants, the second all +0.0: -0.0 + +0.0 is +0.0 (IEEE 754), but the compiled model gives -0.0, the
first input unchanged (EliminateEltwise drops an Add of an all-zero Constant). With the zeros first, or with a
Parameter first input, the sum is computed and +0.0 shows.

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

a = np.array([[1.0, -0.0, 2.0]], np.float32)
zero = np.zeros((1,), np.float32)
model = ov.Model([ops.add(ops.constant(a), ops.constant(zero))], [])
out = ov.Core().compile_model(model, "CPU")([])[0]
print("openvino", ov.__version__, f"Add(Constant [1, -0.0, 2], Constant [+0.0]) element 1: {out[0, 1]!r} "
      f"(sign bit {bool(np.signbit(out[0, 1]))}); IEEE 754: +0.0")
sys.exit(0 if np.signbit(out[0, 1]) else 1)
