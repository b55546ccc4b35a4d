"""ov-cpu-broadcast-8bit-constant-axes-buffer-over-read (conformance/known/openvino.yaml)

Explicit mode with target_shape fed at run time and an i8 or u8 Constant axes_mapping: the CPU Broadcast node reads the
axes Constant with get_vector<int32_t>(), which asserts that int32 is no wider than the element type ("Buffer
over-read"), so a valid input is rejected at compile. Wider types, and an 8-bit axes_mapping fed as a Parameter, work.
The spec allows any integer type for axes_mapping.

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
for st in (np.int8, np.uint8, np.int32):
    d, t = ops.parameter([3], np.float32), ops.parameter([3], np.int64)
    node = ops.broadcast(d, t, ov.op.Constant(np.array([1], st)), "EXPLICIT")
    try:
        c = ov.Core().compile_model(ov.Model([node], [d, t]), "CPU")
        got = f"output shape {c([np.ones(3, np.float32), np.array([2, 3, 4], np.int64)])[0].shape}"
    except RuntimeError as e:
        got = "rejected: " + " ".join(str(e).split())[-90:]
        bug |= st != np.int32
    print(f"explicit, data (3,), target_shape Parameter [2, 3, 4], axes_mapping {np.dtype(st).name} Constant [1]: "
          f"{got}; spec: output shape (2, 3, 4)")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
