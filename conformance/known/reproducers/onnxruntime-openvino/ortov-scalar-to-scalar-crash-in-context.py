"""ortov-scalar-to-scalar-crash-in-context (conformance/known/onnxruntime-openvino.yaml)

A scalar f32 fed to a model Transpose, Expand to the empty shape initializer [], Transpose (opset 13; valid: the
spec's rules example 1, scalar to scalar) kills the process with SIGSEGV when ONNX Runtime's OpenVINO execution
provider (alone, the CPU fallback off) creates the session: OpenVINO's CPU plugin crashes on the Broadcast of a
scalar to an empty target. Data (1,) with the same shape runs (the control). Each model runs in a child process.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import subprocess
import sys

CHILD = r'''
import sys
import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
rank = int(sys.argv[1])
data = np.full((1,) * rank, 1.5, np.float32)
def transpose(src, dst):  # rank 0: the default perm, nothing to reverse
    return helper.make_node("Transpose", [src], [dst]) if rank == 0 else helper.make_node(
        "Transpose", [src], [dst], perm=[0])
nodes = [transpose("x_t", "x"), helper.make_node("Expand", ["x", "s"], ["e"]), transpose("e", "y")]
graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x_t", TensorProto.FLOAT, list(data.shape))],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                          initializer=[numpy_helper.from_array(np.array([], np.int64), "s")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
options = ort.SessionOptions()
options.log_severity_level = 4
options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
try:
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["OpenVINOExecutionProvider"])
except Exception as e:
    print("refused:", str(e).strip()[-120:])
    sys.exit(0)
(out,) = session.run(None, {"x_t": data})
print("ran: output shape", out.shape, "values", out.reshape(-1).tolist())
'''

try:
    import onnxruntime as ort
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)
if "OpenVINOExecutionProvider" not in ort.get_available_providers():
    print(f"cannot run: onnxruntime {ort.__version__} has no OpenVINOExecutionProvider "
          "(pip install onnxruntime-openvino)")
    sys.exit(2)


def run(rank: int) -> tuple[int, str]:
    child = subprocess.run([sys.executable, "-c", CHILD, str(rank)], capture_output=True, text=True, timeout=300)
    return child.returncode, (child.stdout.strip() or child.stderr.strip()[-200:])


print("onnxruntime", ort.__version__, "with OpenVINOExecutionProvider alone; Transpose, Expand to [], Transpose")
code, text = run(0)
control_code, control = run(1)
print(f"scalar data: exit {code}", text)
print(f"data (1,):   exit {control_code}", control)
print("spec: the scalar 1.5 (and (1,) of 1.5 for the control)")
if control_code != 0 or not control.startswith("ran"):
    print("cannot run: the control does not run")
    sys.exit(2)
bug = code == -11  # SIGSEGV
print("the bug shows: the process dies with SIGSEGV" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
