"""ov-shapeof-convert-bounds-rejected (conformance/known/openvino.yaml)

A target_shape computed as Convert(ShapeOf(x), T), x with dynamic dimensions, is rejected when the Broadcast is built
for T = i8, i16 or u64: shape inference evaluates the target's bounds, the upper bound of an unknown dimension (int64
max) converts to -1, and evaluate_as_partial_shape() asserts "Value for partial shape evaluation can't be lower than
zero". i32, u8, u16, u32 and the ShapeOf's own i64 work. The spec allows any integer type for target_shape.

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
for st in (np.int8, np.int16, np.uint64, np.int32, np.uint8):
    d, x = ops.parameter([3, 1], np.float32), ops.parameter([-1, -1, -1], np.uint8)
    try:
        node = ops.broadcast(d, ops1.convert(ops.shape_of(x, "i64"), st))
        c = ov.Core().compile_model(ov.Model([node], [d, x]), "CPU")
        got = f"output shape {c([np.ones((3, 1), np.float32), np.zeros((2, 3, 4), np.uint8)])[0].shape}"
    except RuntimeError as e:
        got = "rejected when built: " + " ".join(str(e).split())[-70:]
        bug |= st in (np.int8, np.int16, np.uint64)
    print(f"numpy, data (3, 1), target_shape Convert(ShapeOf(x (2, 3, 4)), {np.dtype(st).name}): {got}; "
          "spec: output shape (2, 3, 4)")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
