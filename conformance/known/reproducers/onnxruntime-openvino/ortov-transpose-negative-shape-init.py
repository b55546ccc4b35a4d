"""ortov-transpose-minus-one-shape-init-accepted, ortov-transpose-negative-shape-init-crash,
ortov-transpose-negative-shape-init-one-byte-scalar-crash (conformance/known/onnxruntime-openvino.yaml)

Between two Transposes, an Expand whose shape initializer holds a negative value, of data fed as a graph input, run by
ONNX Runtime's OpenVINO execution provider: data (3,) with [-1, 3] is accepted and gives an empty (0, 3); data
(1, 3, 4) with [-2, 3, 4] kills the process with SIGSEGV (each in a child process held to one CPU: with more CPUs the
-1 is refused, "Cannot get dims for non static shape", a rejection); and a u8 scalar with [-2, 1] at opset 8 dies with
SIGSEGV too. ONNX Expand's shape holds
dimensions, and the spec rejects a negative one.

Exit 0: the bugs show; 1: the runtime does what the spec says; 2: cannot run here.
"""

import subprocess
import sys

CHILD = r'''
import os
import sys
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one CPU: with more, the -1 is refused (may_pass)
import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
data_shape, shape, elem, opset = eval(sys.argv[1])
rank, out_rank = len(data_shape), max(len(data_shape), len(shape))
first = (helper.make_node("Transpose", ["x"], ["xt"]) if rank == 0  # no perm for rank 0: the default reverses
         else helper.make_node("Transpose", ["x"], ["xt"], perm=list(range(rank))[::-1]))
nodes = [first,
         helper.make_node("Expand", ["xt", "s"], ["e"]),
         helper.make_node("Transpose", ["e"], ["y"], perm=list(range(out_rank))[::-1])]
graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", elem, list(data_shape)[::-1])],
                          [helper.make_tensor_value_info("y", elem, None)],
                          initializer=[numpy_helper.from_array(np.array(shape, np.int64), "s")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=7)
options = ort.SessionOptions()
options.log_severity_level = 4
options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
try:
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["OpenVINOExecutionProvider"])
    (out,) = session.run(None, {"x": np.ones(data_shape[::-1], {1: np.float32, 2: np.uint8}[elem])})
except Exception as e:
    print("refused:", str(e).strip()[-100:])
    sys.exit(0)
print("ran: output shape", out.T.shape)
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


def run(data_shape: tuple[int, ...], shape: list[int], elem: int = 1, opset: int = 13) -> str:
    child = subprocess.run([sys.executable, "-c", CHILD, repr((data_shape, shape, elem, opset))], capture_output=True,
                           text=True,
                           timeout=300)
    return child.stdout.strip() or f"crashed: signal {-child.returncode}" if child.returncode < 0 else \
        child.stdout.strip() or f"exit {child.returncode}: {child.stderr.strip()[-200:]}"


print("onnxruntime", ort.__version__, "with OpenVINOExecutionProvider alone, ORT_DISABLE_ALL; Transpose, Expand, "
      "Transpose")
minus_one, minus_two = run((3,), [-1, 3]), run((1, 3, 4), [-2, 3, 4])
scalar = run((), [-2, 1], 2, 8)  # TensorProto.UINT8, opset 8
print("data (3,), shape [-1, 3]:      ", minus_one)
print("data (1, 3, 4), shape [-2, 3, 4]:", minus_two)
print("u8 scalar, shape [-2, 1], opset 8:", scalar)
print("spec: each rejected (a negative dimension)")
bug = minus_one.startswith("ran") and minus_two == "crashed: signal 11" and scalar == "crashed: signal 11"
print("the bugs show" if bug else "the bugs do not both show")
sys.exit(0 if bug else 1)
