"""ov-cpu-u64-computed-as-i32 (conformance/known/openvino.yaml)

u64 data loses its upper 32 bits (2**32 + 3 comes back as 3, 2**63 + 1 as 1; up to 2025.3 they clamp to 2**31 - 1
instead): the CPU plugin's precision map converts u64 to i32, so Broadcast runs in i32 between two Convert nodes.
Only values at or above 2**32 differ on 2025.4 and later. The spec's output replicates the data unchanged.

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

x = np.array([2**64 - 1, 2**32 + 3, 2**63 + 1, 5], np.uint64)
d = ops.parameter(x.shape, x.dtype)
c = ov.Core().compile_model(ov.Model([ops.broadcast(d, ops.constant(np.array([2, 4], np.int64)))], [d]), "CPU")
out = c([x])[0]
print("openvino", ov.__version__, "numpy, data (4,) u64, target_shape [2, 4] (Constant)")
print("got  ", out.tolist())
print("spec:", [x.tolist()] * 2)
wide = x >= 2**32
bug = not np.array_equal(out[:, wide], np.broadcast_to(x[wide], (2, int(wide.sum()))))
print("the bug shows: u64 values at or above 2**32 change" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
