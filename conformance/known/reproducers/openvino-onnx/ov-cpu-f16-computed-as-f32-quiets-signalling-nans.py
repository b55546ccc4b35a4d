"""ov-cpu-f16-computed-as-f32-quiets-signalling-nans (conformance/known/openvino.yaml)

On a CPU without native f16 (no AVX512-FP16, no AVX2-VNNI-2) the CPU plugin runs f16 in f32: the conversion of
f16 data to f32 (vcvtph2ps) makes a signalling NaN quiet, and it comes back with its quiet bit set. The spec's
output replicates the data bit for bit.

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

bits = np.array([0x7C01, 0xFD00], np.uint16)  # signalling NaNs: + low payload bit, - high payload bit
x = bits.view(np.float16)
d = ops.parameter(x.shape, x.dtype)
c = ov.Core().compile_model(ov.Model([ops.broadcast(d, ops.constant(np.array([2, 2], np.int64)))], [d]), "CPU")
out = np.ascontiguousarray(c([x])[0])
print("openvino", ov.__version__, "numpy mode, data (2,) f16 Parameter, target_shape [2, 2] (Constant); bits:")
print("got  ", [hex(v) for v in out[1].view(np.uint16)])
print("spec:", [hex(v) for v in bits])
bug = not np.array_equal(out.view(np.uint16), np.broadcast_to(bits, (2, 2)))
print("the bug shows: the signalling NaNs come back quiet" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
