"""ov-cpu-i64-computed-as-i32 (conformance/known/openvino.yaml)

i64 data loses its upper 32 bits: int64 min comes back as 0, max as -1. The CPU plugin has no i64 Broadcast: its
precision map converts i64 to i32, so the compiled graph is Convert(i64 -> i32), Broadcast in i32, Convert back.
The spec's output replicates the data bit for bit.

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

x = np.array([-2**63, 2**63 - 1, 2**31 + 1, 2**53 + 1], np.int64)
d = ops.parameter(x.shape, x.dtype)
c = ov.Core().compile_model(ov.Model([ops.broadcast(d, ops.constant(np.array([2, 4], np.int64)))], [d]), "CPU")
out = c([x])[0]
print("openvino", ov.__version__, "numpy, data (4,) i64, target_shape [2, 4] (Constant)")
print("got  ", out.tolist())
print("spec:", [x.tolist()] * 2)
print("runtime graph:", [(o.get_rt_info()["layerType"].astype(str), o.get_rt_info()["runtimePrecision"].astype(str))
                         for o in c.get_runtime_model().get_ordered_ops()][1:-1])
bug = not np.array_equal(out, np.broadcast_to(x, (2, 4)))
print("the bug shows: i64 values are cut to 32 bits" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
