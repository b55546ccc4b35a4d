"""ortov-f16-lone-expand-empty-shape-input-refused (conformance/known/onnxruntime-openvino.yaml)

An f16 Expand alone, run by ONNX Runtime's OpenVINO execution provider, of data (2, 3) with an empty shape fed at run
time (valid: ONNX Expand with shape [] leaves the data as it is) is refused at infer ("Broadcast target_shape has
smaller rank 0 than arg shape 1"). Run in a child process with a time limit: held to one CPU the same model has been
seen to hang, or to return values never written.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import subprocess
import sys

CHILD = r'''
import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper
data = np.full((2, 3), -1.5, np.float16)
graph = helper.make_graph([helper.make_node("Expand", ["x", "s"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [2, 3]),
                           helper.make_tensor_value_info("s", TensorProto.INT64, [0])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT16, None)])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
options = ort.SessionOptions()
options.log_severity_level = 4
options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
session = ort.InferenceSession(model.SerializeToString(), options, providers=["OpenVINOExecutionProvider"])
try:
    out = session.run(None, {"x": data, "s": np.array([], np.int64)})[0]
except Exception as e:
    print("refused at infer:", str(e).strip().splitlines()[-1][-100:] if str(e).strip() else "")
else:
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

try:
    child = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=120)
    got = child.stdout.strip() or f"exit {child.returncode}: {child.stderr.strip()[-200:]}"
except subprocess.TimeoutExpired:
    got = "hung (no answer in 120 s)"
print("onnxruntime", ort.__version__, "with OpenVINOExecutionProvider alone; f16 data (2, 3), shape [] fed:", got)
print("spec: the data as it is, (2, 3), every value -1.5")
bug = got != "ran: (2, 3) values [-1.5]"
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
