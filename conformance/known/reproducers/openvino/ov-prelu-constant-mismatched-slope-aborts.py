"""ov-prelu-constant-mismatched-slope-aborts (conformance/known/openvino.yaml)

PRelu of Constant data (2, 3) and a Constant slope (4,), whose last dimensions neither match nor are 1: nothing
refuses the node (PRelu::validate_and_infer_types never checks the slope), and compiling it on the CPU plugin,
which evaluates the Constant node, aborts the process (SIGABRT) instead of raising an error. Run in a child process
so the abort can be seen.

Exit 0: the bug shows; 1: the runtime does what the spec says (an error); 2: cannot run here.
"""

import subprocess
import sys

CHILD = """
import numpy as np, openvino as ov, openvino.opset13 as ops
node = ops.prelu(ops.constant(np.full((2, 3), -1.0, np.float32)), ops.constant(np.full((4,), 0.5, np.float32)))
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
print("openvino", ov.__version__, f"PRelu of Constants (2, 3) and (4,): exit code {child.returncode}, "
      f"{(child.stdout + child.stderr).strip()[-300:]!r}; spec: a rejection (3 against 4)")
sys.exit(0 if child.returncode < 0 else 1)
