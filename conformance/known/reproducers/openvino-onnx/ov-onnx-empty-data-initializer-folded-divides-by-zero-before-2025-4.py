"""ov-onnx-empty-data-initializer-folded-divides-by-zero-before-2025-4 (conformance/known/openvino-onnx.yaml)

In OpenVINO 2025.0 an ONNX Expand whose data is an initializer with no element and whose shape is an initializer
kills the process with SIGFPE at compile_model: the empty data is an empty Constant, and folding the Broadcast
divides by its zero dimension. The spec (numpy's rule): data (0,) with [1] gives (0,), (2, 0) with [2, 0] gives (2, 0).

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import subprocess
import sys

CHILD = """
import sys
import numpy as np
import openvino as ov
from onnx import TensorProto, helper, numpy_helper
data_shape, target = eval(sys.argv[1])
graph = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g", [],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                          [numpy_helper.from_array(np.zeros(data_shape, np.float32), "x"),
                           numpy_helper.from_array(np.array(target, np.int64), "shape")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
core = ov.Core()
try:
    print("output", tuple(core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU")([])[0].shape))
except RuntimeError as e:
    print("rejected: " + " ".join(str(e).split())[-80:])
"""

try:
    import numpy as np
    import onnx  # noqa: F401
    import openvino as ov
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("openvino", ov.__version__)
bug = False
for data_shape, target in (((0,), [1]), ((2, 0), [2, 0])):
    run = subprocess.run([sys.executable, "-c", CHILD, repr((data_shape, target))], capture_output=True, text=True)
    got = run.stdout.strip() if run.returncode == 0 else f"process died (exit status {run.returncode})"
    spec = f"output {np.broadcast_shapes(data_shape, tuple(target))}"
    bug |= run.returncode < 0
    print(f"Expand(initializer of shape {data_shape}, shape initializer {target}): got {got}; spec: {spec}")
print("the bug shows: the folding divides by zero" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
