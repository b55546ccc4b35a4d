"""ov-cpu-u64-clamped-to-i32-max (conformance/known/openvino.yaml; OpenVINO 2025.0 to 2025.3)

Up to OpenVINO 2025.3 the u64 -> i32 -> u64 round trip of ov-cpu-u64-computed-as-i32 clamps instead of wrapping:
every value above 2**31 - 1, u64 max included, comes back as 2**31 - 1. From 2025.4 (PR 32389) it wraps, and only
values at or above 2**32 differ. The spec's output replicates the data unchanged.

Exit 0: the bug shows; 1: the runtime does not clamp (2025.4 and later, or fixed); 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import openvino as ov
    import openvino.opset3 as ops
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

x = np.array([2**64 - 1, 2**32 + 3, 2**63 + 1, 5], np.uint64)
d = ops.parameter(x.shape, x.dtype)
c = ov.Core().compile_model(ov.Model([ops.broadcast(d, ops.constant(np.array([2, 4], np.int64)))], [d]), "CPU")
out = c([x])[0]
print("openvino", ov.__version__, "numpy, data (4,) u64, target_shape [2, 4] (Constant)")
print("got  ", out[1].tolist())
print("spec:", x.tolist())
bug = out[1].tolist() == [2**31 - 1, 2**31 - 1, 2**31 - 1, 5]
print("the bug shows: values above 2**31 - 1 are clamped" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
