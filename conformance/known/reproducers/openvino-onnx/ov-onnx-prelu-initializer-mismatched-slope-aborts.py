"""ov-onnx-prelu-initializer-mismatched-slope-aborts (conformance/known/openvino-onnx.yaml)

ONNX PRelu of initializers X (2, 3) and slope (4,), whose last dimensions neither match nor are 1: the frontend
builds OpenVINO's PRelu (prelu.cpp), which never checks the slope, and compiling the constant node on the CPU plugin
aborts the process (SIGABRT) instead of refusing it. The same shapes as graph inputs are refused. Run in a child
process so the abort can be seen.

Exit 0: the bug shows; 1: the runtime does what the spec says (a refusal); 2: cannot run here.
"""

import subprocess
import sys

CHILD = """
import numpy as np, openvino as ov
from onnx import TensorProto, helper, numpy_helper
inits = [numpy_helper.from_array(np.full((2, 3), -1.0, np.float32), "x"),
         numpy_helper.from_array(np.full((4,), 0.5, np.float32), "slope")]
graph = helper.make_graph([helper.make_node("PRelu", ["x", "slope"], ["y"])], "g", [],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
core = ov.Core()
try:
    print(core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU")([])[0].shape)
except RuntimeError as e:
    print("refused:", str(e).splitlines()[-1])
"""

try:
    import onnx  # noqa: F401
    import openvino as ov
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

child = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=120)
print("openvino", ov.__version__, f"ONNX PRelu of initializers (2, 3) and (4,): exit code {child.returncode}, "
      f"{(child.stdout + child.stderr).strip()[-300:]!r}; spec: a refusal (3 against 4)")
sys.exit(0 if child.returncode < 0 else 1)
