"""ov-cpu-f64-computed-as-f32 (conformance/known/openvino.yaml)

f64 data is rounded through f32: a NaN payload is dropped, subnormals flush to 0, and +-inf and +-max become
+-FLT_MAX. The CPU plugin's precision map converts f64 to f32. The spec's output replicates the data.

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

# a NaN with a payload, inf, the smallest subnormal, the largest finite f64
bits = np.array([0x7FF8000000000123, 0x7FF0000000000000, 1, 0x7FEFFFFFFFFFFFFF], np.uint64)
x = bits.view(np.float64)
d = ops.parameter(x.shape, x.dtype)
c = ov.Core().compile_model(ov.Model([ops.broadcast(d, ops.constant(np.array([2, 4], np.int64)))], [d]), "CPU")
out = np.ascontiguousarray(c([x])[0])
print("openvino", ov.__version__, "numpy, data (4,) f64, target_shape [2, 4] (Constant); bits:")
print("got  ", [hex(v) for v in out[1].view(np.uint64)])
print("spec:", [hex(v) for v in bits])
bug = not np.array_equal(out.view(np.uint64), np.broadcast_to(bits, (2, 4)))
print("the bug shows: f64 values change through f32" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
