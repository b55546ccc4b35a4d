"""ortov-cpu-broadcast-divides-by-zero-dim-transposed-initializer, ortov-convertbroadcast3-max-of-zero-and-one-rejects-
transposed-initializer (conformance/known/onnxruntime-openvino.yaml)

Zero-size f32 data (0,), an initializer, between Transposes (Transpose, Expand to the Shape of a (0,) input,
Transpose; valid, the output is (0,)) under ORT_DISABLE_ALL: ONNX Runtime's OpenVINO execution provider leaves the
data's Transpose (an empty output) unclaimed but compiles the Expand and the output's Transpose while the session
is made, and OpenVINO's CPU Broadcast node divides by the zero data dimension: the process dies with SIGFPE. The
same model of data (1,) and an input (1,) runs (the control). A shape initializer instead of the Shape crashes alike
(then the model has no graph input left). With the Shape of a (1,) input instead (valid, the output (0,)) the
same subgraph is refused when compiled: ConvertBroadcast3 makes the 0 facing the 1 a 1 ("cannot be broadcasted").
Each model runs in a child process of its own.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import subprocess
import sys

CHILD = r'''
import sys
import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
n, m = int(sys.argv[1]), int(sys.argv[2])  # the data's size, the size of x (whose Shape is the target)
nodes = [helper.make_node("Transpose", ["d_t"], ["d"], perm=[0]), helper.make_node("Shape", ["x"], ["s"]),
         helper.make_node("Expand", ["d", "s"], ["e"]), helper.make_node("Transpose", ["e"], ["y"], perm=[0])]
graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.UINT8, [m])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                          initializer=[numpy_helper.from_array(np.ones((n,), np.float32), "d_t")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
options = ort.SessionOptions()
options.log_severity_level = 4
options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
try:
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["OpenVINOExecutionProvider"])
except Exception as e:
    print("refused:", str(e).strip()[-120:])
    sys.exit(0)
(out,) = session.run(None, {"x": np.zeros((m,), np.uint8)})
print("ran: output shape", out.shape)
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


def run(n: int, m: int) -> tuple[int, str]:
    child = subprocess.run([sys.executable, "-c", CHILD, str(n), str(m)], capture_output=True, text=True, timeout=300)
    return child.returncode, (child.stdout.strip() or child.stderr.strip()[-200:])


print("onnxruntime", ort.__version__, "with OpenVINOExecutionProvider alone, ORT_DISABLE_ALL; Transpose, Expand, "
      "Transpose of a data initializer")
code, text = run(0, 0)
one_code, one = run(0, 1)
control_code, control = run(1, 1)
print(f"data (0,) with Shape of (0,): exit {code}", text)
print(f"data (0,) with Shape of (1,): exit {one_code}", one)
print(f"data (1,) with Shape of (1,): exit {control_code}", control)
print("spec: an output of shape (0,) (and (1,) for the control)")
if control_code != 0 or not control.startswith("ran"):
    print("cannot run: the control does not run")
    sys.exit(2)
bug = code == -8 and "cannot be broadcasted" in one  # SIGFPE; the refusal
print("the bugs show: the process dies with SIGFPE, and the 0 facing a 1 is refused" if bug else
      "the bugs do not both show")
sys.exit(0 if bug else 1)
