"""ortov-f16-lone-expand-scalar-empty-shape-crash (conformance/known/onnxruntime-openvino.yaml)

An f16 Expand alone (the one type ONNX Runtime's OpenVINO execution provider claims alone) of a scalar with an empty
shape initializer: the process dies with SIGSEGV when the session is created (in a child process). ONNX Expand with
shape [] leaves the scalar as it is. The control, data (2, 3) with the same shape, runs.

Exit 0: the bugs show; 1: the runtime does what the spec says; 2: cannot run here.
"""

import subprocess
import sys

CHILD = r'''
import sys
import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
scalar = sys.argv[1] == "scalar"
data = np.array(-1.5, np.float16) if scalar else np.full((2, 3), -1.5, np.float16)
inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT16, list(data.shape))]
inits, feeds = [numpy_helper.from_array(np.array([], np.int64), "s")], {"x": data}
graph = helper.make_graph([helper.make_node("Expand", ["x", "s"], ["y"])], "g", inputs,
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT16, None)], initializer=inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
options = ort.SessionOptions()
options.log_severity_level = 4
options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
session = ort.InferenceSession(model.SerializeToString(), options, providers=["OpenVINOExecutionProvider"])
out = session.run(None, feeds)[0]
print("ran:", out.shape, "values", sorted(set(np.asarray(out, np.float32).reshape(-1).tolist())))
'''

try:
    import onnx  # noqa: F401
    import onnxruntime as ort
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)
if "OpenVINOExecutionProvider" not in ort.get_available_providers():
    print(f"cannot run: onnxruntime {ort.__version__} has no OpenVINOExecutionProvider")
    sys.exit(2)


def run(which: str) -> str:
    child = subprocess.run([sys.executable, "-c", CHILD, which], capture_output=True, text=True, timeout=300)
    if child.returncode < 0:
        return f"crashed: signal {-child.returncode}"
    return child.stdout.strip() or f"exit {child.returncode}: {child.stderr.strip()[-200:]}"


print("onnxruntime", ort.__version__, "with OpenVINOExecutionProvider alone; Expand of f16 data -1.5, shape []")
scalar, control = run("scalar"), run("control")
print("scalar data: ", scalar)
print("data (2, 3): ", control)
print("spec: the data as it is: () and (2, 3), every value -1.5")
if not control.startswith("ran"):
    print("cannot run: the control fails too")
    sys.exit(2)
bug = scalar == "crashed: signal 11"
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
