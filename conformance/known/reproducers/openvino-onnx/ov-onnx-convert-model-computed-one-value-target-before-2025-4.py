"""ov-onnx-convert-model-computed-*-before-2025-4 (conformance/known/openvino-onnx.yaml)

An ONNX Expand whose shape is Shape of a graph input x (declared with the target's shape), converted by
openvino.convert_model from the model's file and run on the CPU plugin, on OpenVINO 2025.0: an empty target (x a
scalar) is refused at compile; with one target value, data (0,) with [1] is refused, (1,) with [0] gives (1,), and
(0,) with [0] kills the process (SIGFPE). The spec (bidirectional broadcast) gives (2, 3), (0,), (0,) and (0,).
Each runs in a child process, so a crash is shown.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import subprocess
import sys

CHILD = r"""
import os, sys, tempfile
import numpy as np, onnx, openvino as ov
from onnx import TensorProto, helper
data_shape, target = eval(sys.argv[1]), eval(sys.argv[2])
graph = helper.make_graph([helper.make_node("Shape", ["x"], ["s"]), helper.make_node("Expand", ["d", "s"], ["y"])], "g",
                          [helper.make_tensor_value_info("d", TensorProto.FLOAT, list(data_shape)),
                           helper.make_tensor_value_info("x", TensorProto.UINT8, list(target))],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 8)], ir_version=7)
with tempfile.TemporaryDirectory() as directory:
    name = os.path.join(directory, "expand.onnx")
    onnx.save(model, name)
    converted = ov.convert_model(name)
try:
    compiled = ov.Core().compile_model(converted, "CPU")
    out = compiled([np.zeros(data_shape, np.float32), np.zeros(target, np.uint8)])[0]
    print("shape", tuple(out.shape))
except RuntimeError as e:
    print("refused:", str(e).strip().splitlines()[-1][:100])
"""

try:
    import numpy  # noqa: F401
    import onnx  # noqa: F401
    import openvino as ov
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("openvino", ov.__version__)
bug = False
for data_shape, target, spec in (((2, 3), (), (2, 3)), ((0,), (1,), (0,)), ((1,), (0,), (0,)), ((0,), (0,), (0,))):
    run = subprocess.run([sys.executable, "-c", CHILD, repr(data_shape), repr(target)], capture_output=True, text=True)
    got = run.stdout.strip() or f"process died ({run.returncode})"
    bug |= got != f"shape {spec}"
    print(f"data {data_shape}, shape = Shape(x of shape {target}), convert_model: {got}; spec: shape {spec}")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
