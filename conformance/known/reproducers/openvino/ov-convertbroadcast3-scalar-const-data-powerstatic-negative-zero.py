"""ov-convertbroadcast3-scalar-const-data-powerstatic-negative-zero (conformance/known/openvino.yaml)

Bidirectional Broadcast-3 of a single-element Constant (shape () or (1,)) with target_shape not a Constant: for a
non-constant target ConvertBroadcast3 builds data * Broadcast-1(Constant [1], target_shape), the CPU plugin's
ConvertToPowerStatic turns that Multiply by a scalar Constant into PowerStatic(x, power 1, scale = data, shift 0), and
1 * -0.0 + 0.0 is +0.0: the sign of a zero is lost. numpy mode, a Constant target and a data Parameter keep it. The
spec's output replicates the data bit for bit.

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
for dtype in (np.float32, np.float16):
    for shape in ([], [1]):
        for mode in ("BIDIRECTIONAL", "NUMPY"):
            t = ops.parameter([2], np.int64)
            node = ops.broadcast(ov.op.Constant(np.full(shape, -0.0, dtype)), t, broadcast_spec=mode)
            c = core.compile_model(ov.Model([node], [t]), "CPU")
            layers = [o.get_rt_info()["layerType"].astype(str) for o in c.get_runtime_model().get_ordered_ops()]
            out = c([np.array([2, 2], np.int64)])[0]
            lost = not np.signbit(out).all()
            bug |= lost
            print(f"{mode.lower()}, {np.dtype(dtype).name} Constant -0.0 of shape {shape}, target_shape Parameter "
                  f"[2, 2]: runs as {layers[1:-1]}; got {out.ravel().tolist()}; spec: [-0.0, -0.0, -0.0, -0.0]")
print("the bug shows: -0.0 becomes +0.0" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
