"""ov-prelu-1d-slope-laid-on-channel-axis-accepted, -values; ov-prelu-constant-smaller-mismatched-slope-accepted
(conformance/known/openvino.yaml)

PRelu's slope broadcasts to data one way, right-aligned (spec 003, unidirectional). OpenVINO lays a 1-D slope as
long as data's axis 1 along that axis instead: data (3, 2, 5) with slope (2,) is accepted (2 against 5 should be
rejected), and data (2, 2, 2) with slope (2,) gives values of the slope along axis 1, not along the last axis.
As Constants, data (2, 4) with slope (2,) (neither right-aligned nor on axis 1) is folded to data's shape unchecked.

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


def run(x: np.ndarray, s: np.ndarray) -> np.ndarray:
    data, slope = ops.parameter(x.shape, np.float32), ops.parameter(s.shape, np.float32)
    compiled = ov.Core().compile_model(ov.Model([ops.prelu(data, slope)], [data, slope]), "CPU")
    return compiled([x, s])[0]


shows = False
try:
    out = run(-np.ones((3, 2, 5), np.float32), np.array([0.5, 2.0], np.float32))
    print("openvino", ov.__version__, f"data (3, 2, 5), slope (2,): output {out.shape}; spec: rejected (2 against 5)")
    shows = True
except RuntimeError as e:
    print("openvino", ov.__version__, "data (3, 2, 5), slope (2,) rejected:", str(e).strip().splitlines()[-1])
x, s = -np.ones((2, 2, 2), np.float32), np.array([0.5, 2.0], np.float32)
out = run(x, s)
spec = np.where(x < 0, x * s, x)
print(f"data (2, 2, 2) of -1, slope [0.5, 2]: {out.ravel().tolist()}; spec (last axis): {spec.ravel().tolist()}")
shows = shows or not np.array_equal(out, spec)
constants = ops.prelu(ops.constant(-np.ones((2, 4), np.float32)), ops.constant(np.array([0.5, 2.0], np.float32)))
folded = ov.Core().compile_model(ov.Model([constants], []), "CPU")([])[0]
print(f"Constants data (2, 4), slope (2,): output {folded.shape}; spec: rejected (2 against 4)")
shows = shows or folded.shape == (2, 4)
sys.exit(0 if shows else 1)
