"""ov-convertbroadcast3-multiply-quiets-signalling-nans (conformance/known/openvino.yaml)

Bidirectional Broadcast-3 with target_shape fed at run time makes a signalling NaN of the data quiet:
ConvertBroadcast3 rewrites it as data * Broadcast-1(Constant [1], target_shape), and a product of a signalling NaN
is a quiet NaN. The spec's output replicates the data bit for bit.

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

bits = np.array([[0x7F800001], [0xFFA00000]], np.uint32)  # signalling NaNs, data (2, 1)
d, t = ops.parameter([2, 1], np.float32), ops.parameter([2], np.int64)
c = ov.Core().compile_model(ov.Model([ops.broadcast(d, t, broadcast_spec="BIDIRECTIONAL")], [d, t]), "CPU",
                            {"INFERENCE_PRECISION_HINT": "f32"})
out = np.ascontiguousarray(c([bits.view(np.float32), np.array([2, 3], np.int64)])[0])
print("openvino", ov.__version__, "bidirectional, data (2, 1) f32, target_shape [2, 3] (Parameter); bits:")
print("got  ", [hex(v) for v in out[:, 0].view(np.uint32)])
print("spec:", [hex(v) for v in bits[:, 0]])
bug = not np.array_equal(out.view(np.uint32), np.broadcast_to(bits, (2, 3)))
print("the bug shows: the signalling NaNs come back quiet" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
