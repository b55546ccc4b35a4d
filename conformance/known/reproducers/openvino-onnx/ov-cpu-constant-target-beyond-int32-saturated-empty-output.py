"""ov-cpu-constant-target-beyond-int32-saturated-empty-output (conformance/known/openvino.yaml)

A Constant target_shape value beyond int32 beside a 0 (an output with no element): the node declares the right shape,
but the CPU plugin converts the i64 Constant to i32 with ConvertPrecision's saturating convert_value(), so the output
computed at run time has 2**31 - 1 where the target says 2**31 (or 2**32 + 1, 2**62): numpy data (1,) with
target_shape [0, 2**31] gives (0, 2147483647). The spec's output is (0, 2147483648).

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
d = ops.parameter([1], np.float32)
node = ops.broadcast(d, ov.op.Constant(np.array([0, 2**31], np.int64)))
print("declared", node.get_output_partial_shape(0))
got = ov.Core().compile_model(ov.Model([node], [d]), "CPU")([np.ones(1, np.float32)])[0].shape
print(f"numpy, data (1,), target_shape Constant [0, 2**31]: output shape {got}; spec: (0, 2147483648)")
bug = tuple(got) != (0, 2**31)
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
