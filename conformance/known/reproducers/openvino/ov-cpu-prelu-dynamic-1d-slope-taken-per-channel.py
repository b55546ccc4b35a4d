"""ov-cpu-prelu-dynamic-1d-slope-taken-per-channel (conformance/known/openvino.yaml)

PRelu of data (2, 3, 4) and a 1-D slope (4,): the slope broadcasts to data's last axis (numpy-style, one way; also
OpenVINO's own reference, which takes a 1-D slope per channel only when its length is data's axis 1). With static
shapes the CPU plugin does so; with the same ranks but dynamic dimensions it refuses at run time ("Eltwise shape
infer input shapes dim index: 0 mismatch"): the 1-D slope is laid along axis 1 whatever its length.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import openvino as ov
    import openvino.opset13 as ops
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

data, slope = ops.parameter(ov.PartialShape([-1, -1, -1]), np.float32), ops.parameter(ov.PartialShape([-1]), np.float32)
compiled = ov.Core().compile_model(ov.Model([ops.prelu(data, slope)], [data, slope]), "CPU")
x, s = -np.ones((2, 3, 4), np.float32), np.array([0.5, 2.0, 0.25, 1.0], np.float32)
try:
    out = compiled([x, s])[0]
except RuntimeError as e:
    print("openvino", ov.__version__, "rejects data (2, 3, 4), slope (4,) with dynamic shapes:",
          str(e).strip().splitlines()[-1], "; spec: output (2, 3, 4)")
    sys.exit(0)
right = np.array_equal(out, np.where(x < 0, x * s, x))
print("openvino", ov.__version__, f"output {out.shape}, {'as' if right else 'not as'} numpy gives")
sys.exit(1 if right else 0)
