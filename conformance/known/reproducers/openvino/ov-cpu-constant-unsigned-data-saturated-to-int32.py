"""ov-cpu-constant-unsigned-data-saturated-to-int32 (conformance/known/openvino.yaml)

The CPU plugin computes u32 and u64 in int32 (its precision map), and converts a Constant of those types with
ConvertPrecision's convert_value<uint32_t / uint64_t, int32_t>(), which clamps every value above 2**31 - 1 (u32 and u64
max included) to 2**31 - 1. Fed as a Parameter, the data goes through Convert nodes that wrap: u32 data survives, u64
data keeps its low 32 bits (ov-cpu-u64-computed-as-i32). The spec's output
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
for x in (np.array([0, 2**32 - 1, 2**31, 5], np.uint32), np.array([0, 2**64 - 1, 2**40, 5], np.uint64)):
    target = ov.op.Constant(np.array([2, 4], np.int64))
    const = core.compile_model(ov.Model([ops.broadcast(ov.op.Constant(x), target)], []), "CPU")([])[0][1]
    d = ops.parameter([4], x.dtype)
    param = core.compile_model(ov.Model([ops.broadcast(d, target)], [d]), "CPU")([x])[0][1]
    bug |= const.tolist() != x.tolist()
    print(f"{x.dtype} data {x.tolist()} -> [2, 4]: as a Constant got {const.tolist()}; as a Parameter got "
          f"{param.tolist()}; spec: {x.tolist()}")
print("the bug shows: Constant data is clamped to int32" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
