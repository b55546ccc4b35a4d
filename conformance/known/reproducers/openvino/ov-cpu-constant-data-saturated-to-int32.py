"""ov-cpu-constant-data-saturated-to-int32 (conformance/known/openvino.yaml)

The CPU plugin computes i64 in int32 (its precision map), and converts an i64 Constant with ConvertPrecision's
convert_value(), which saturates: -2**63 becomes -2**31, 2**63 - 1 and 2**32 + 3 become 2**31 - 1. The same data fed
as a Parameter goes through a Convert node instead, which wraps (ov-cpu-i64-computed-as-i32). The spec's output
replicates the data unchanged.

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

core = ov.Core()
print("openvino", ov.__version__)
bug = False
for x in (np.array([-2**63, 2**63 - 1, 2**32 + 3, 5], np.int64),):
    target = ov.op.Constant(np.array([2, 4], np.int64))
    const = core.compile_model(ov.Model([ops.broadcast(ov.op.Constant(x), target)], []), "CPU")([])[0][1]
    d = ops.parameter([4], x.dtype)
    param = core.compile_model(ov.Model([ops.broadcast(d, target)], [d]), "CPU")([x])[0][1]
    bug |= const.tolist() != x.tolist()
    print(f"{x.dtype} data {x.tolist()} -> [2, 4]: as a Constant got {const.tolist()}; as a Parameter got "
          f"{param.tolist()}; spec: {x.tolist()}")
print("the bug shows: Constant data is clamped to int32" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
