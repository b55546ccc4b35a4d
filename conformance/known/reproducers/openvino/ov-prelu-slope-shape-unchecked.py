"""ov-prelu-slope-shape-unchecked (conformance/known/openvino.yaml)

PRelu's slope broadcasts to data, one way: the output has data's shape. A slope that would make data grow, (2, 3)
against data (3,), is accepted: PRelu::validate_and_infer_types sets the output to data's shape and never looks at
the slope's, and the CPU plugin returns a (3,) output.

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

data, slope = ops.parameter([3], np.float32), ops.parameter([2, 3], np.float32)
try:
    node = ops.prelu(data, slope)
    compiled = ov.Core().compile_model(ov.Model([node], [data, slope]), "CPU")
    out = compiled([-np.ones(3, np.float32), np.full((2, 3), 0.5, np.float32)])[0]
except RuntimeError as e:
    print("openvino", ov.__version__, "rejects a (2, 3) slope for (3,) data:", str(e).splitlines()[-1])
    sys.exit(1)
print("openvino", ov.__version__, f"PRelu of data (3,) and slope (2, 3): output shape {out.shape}, values "
      f"{out.tolist()}; spec: a rejection (the slope broadcasts to data, never data to the slope)")
sys.exit(0)
