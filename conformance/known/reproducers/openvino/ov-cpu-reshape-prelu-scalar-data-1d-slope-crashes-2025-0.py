"""ov-cpu-reshape-prelu-scalar-data-1d-slope-crashes-2025-0 (conformance/known/openvino.yaml)

PRelu of scalar data and a 1-D slope of shape (1,), both Constants: the spec rejects it (the slope would make data
grow). OpenVINO 2025.0's CPU plugin runs its ReshapePRelu pass on it, which writes element 1 of a Reshape target
sized by data's rank 0, and the process dies while the model compiles. Run in a child process so the crash can be
seen. (2026.4.1 compiles the node and returns data's shape: ov-prelu-slope-shape-unchecked-scalar-data.)

Exit 0: the bug shows (the child died of a signal); 1: it does not; 2: cannot run here.
"""

import subprocess
import sys

CHILD = """
import numpy as np, openvino as ov, openvino.opset13 as ops
node = ops.prelu(ops.constant(np.array(-1.0, np.float32)), ops.constant(np.full((1,), 0.5, np.float32)))
try:
    print(ov.Core().compile_model(ov.Model([node], []), "CPU")([])[0].shape)
except RuntimeError as e:
    print("rejected:", str(e).splitlines()[-1])
"""

try:
    import openvino as ov
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

child = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=120)
print("openvino", ov.__version__, f"PRelu of Constants () and (1,): exit code {child.returncode}, "
      f"{(child.stdout + child.stderr).strip()[-300:]!r}; spec: a rejection (the slope would make data grow)")
sys.exit(0 if child.returncode < 0 else 1)
