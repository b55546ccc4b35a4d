"""ov-cpu-broadcast-8bit-constant-axes-shapeof-target (conformance/known/openvino.yaml)

Explicit mode with target_shape Convert(ShapeOf(x), u8) and a u8 Constant axes_mapping: the CPU Broadcast node reads
the axes Constant with get_vector<int32_t>(), "Buffer over-read", a valid input rejected at compile. With an i32 axes
Constant it works. The spec allows any integer type for axes_mapping.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import openvino as ov
    import openvino.opset1 as ops1
    import openvino.opset3 as ops
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("openvino", ov.__version__)
bug = False
for st in (np.uint8, np.int32):
    d, x = ops.parameter([3], np.float32), ops.parameter([-1, -1, -1], np.uint8)
    target = ops1.convert(ops.shape_of(x, "i64"), st)
    node = ops.broadcast(d, target, ov.op.Constant(np.array([1], st)), "EXPLICIT")
    try:
        c = ov.Core().compile_model(ov.Model([node], [d, x]), "CPU")
        got = f"output shape {c([np.ones(3, np.float32), np.zeros((2, 3, 4), np.uint8)])[0].shape}"
    except RuntimeError as e:
        got = "rejected: " + " ".join(str(e).split())[-90:]
        bug |= st == np.uint8
    print(f"explicit, data (3,), target_shape Convert(ShapeOf(x (2, 3, 4)), {np.dtype(st).name}), axes_mapping "
          f"Constant [1]: {got}; spec: output shape (2, 3, 4)")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
