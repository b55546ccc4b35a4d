"""ov-cpu-eltwise-auto-broadcast-none-ignored-dynamic (conformance/known/openvino.yaml)

Add with auto_broadcast "none" requires equal input shapes. Built with static shapes (2, 1) and (2, 3) it is refused
("Argument shapes are inconsistent"); with the same ranks but dynamic dimensions the model compiles and the CPU
plugin broadcasts numpy-style at run time, returning a (2, 3) output: its EltwiseShapeInfer applies the numpy rule
whatever the node's auto_broadcast says.

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

a = ops.parameter(ov.PartialShape([-1, -1]), np.float32)
b = ops.parameter(ov.PartialShape([-1, -1]), np.float32)
compiled = ov.Core().compile_model(ov.Model([ops.add(a, b, auto_broadcast="none")], [a, b]), "CPU")
try:
    out = compiled([np.ones((2, 1), np.float32), np.ones((2, 3), np.float32)])[0]
except RuntimeError as e:
    print("openvino", ov.__version__, "rejects (2, 1) + (2, 3) with auto_broadcast none:", str(e).splitlines()[-1])
    sys.exit(1)
print("openvino", ov.__version__, f"Add(auto_broadcast=none) of (2, 1) and (2, 3): output shape {out.shape}; "
      "spec: a rejection (the shapes must be equal)")
sys.exit(0)
