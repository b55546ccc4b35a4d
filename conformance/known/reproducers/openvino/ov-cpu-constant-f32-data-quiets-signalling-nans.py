"""ov-cpu-constant-f32-data-quiets-signalling-nans (conformance/known/openvino.yaml)

An f32 Constant data input holding a signalling NaN comes back with the NaN quiet, with INFERENCE_PRECISION_HINT
f32 (and bf16 alike); the same data as a Parameter keeps its bits. The spec's output replicates the data.

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

bits = np.array([0x7F800001, 0xFFA00000], np.uint32)  # signalling NaNs: + low payload bit, - high payload bit
t = ops.parameter([2], np.int64)
model = ov.Model([ops.broadcast(ops.constant(bits.view(np.float32)), t)], [t])
c = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
out = np.ascontiguousarray(c([np.array([2, 2], np.int64)])[0])
print("openvino", ov.__version__, "numpy mode, data (2,) f32 Constant, target_shape [2, 2] (Parameter), hint f32;")
print("got  ", [hex(v) for v in out[1].view(np.uint32)])
print("spec:", [hex(v) for v in bits])
bug = not np.array_equal(out.view(np.uint32), np.broadcast_to(bits, (2, 2)))
print("the bug shows: the signalling NaNs come back quiet" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
