"""ov-onnx-convert-model-transpose-minus-one-shape-init-one-byte-type-crash (conformance/known/openvino-onnx.yaml)

openvino.convert_model of Transpose(Expand(Transpose(x), shape)), x a uint8 graph input of shape (0,) and shape the
initializer [-1], kills the process when the model is compiled and run (SIGFPE here), where Core.read_model of the
model's bytes accepts it (the Broadcast removed: output (0,)). ONNX Expand, and the spec, reject a negative dimension.
Each model runs in a child process.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import signal
import subprocess
import sys

try:
    import numpy as np
    import onnx
    import openvino as ov
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

CHILD = """if 1:
    import os, sys, tempfile, numpy as np, onnx, openvino as ov
    from onnx import helper, numpy_helper, TensorProto as TP
    source = sys.argv[1]
    nodes = [helper.make_node("Transpose", ["x"], ["xt"], perm=[0]), helper.make_node("Expand", ["xt", "shape"], ["e"]),
             helper.make_node("Transpose", ["e"], ["y"], perm=[0])]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TP.UINT8, [0])],
                          [helper.make_tensor_value_info("y", TP.UINT8, None)],
                          [numpy_helper.from_array(np.array([-1], np.int64), "shape")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "expand.onnx")
        onnx.save(m, path)
        try:
            model = ov.convert_model(path) if source == "convert_model" else \
                ov.Core().read_model(m.SerializeToString(), b"")
            c = ov.Core().compile_model(model, "CPU")
            print("ACCEPTED, output", c([np.zeros((0,), np.uint8)])[0].shape)
        except Exception as e:
            print("rejected:", " ".join(str(e).split())[-100:])"""


def run(source):
    r = subprocess.run([sys.executable, "-c", CHILD, source], capture_output=True, text=True)
    if r.returncode < 0:
        return f"killed by {signal.Signals(-r.returncode).name}"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


print("openvino", ov.__version__, "onnx", onnx.__version__, "numpy", np.__version__)
bug = False
for source in ("convert_model", "read_model of the bytes"):
    got = run(source)
    bug |= source == "convert_model" and got.startswith("killed")
    print(f"Transpose(Expand(Transpose(uint8 x (0,)), [-1] initializer)) by {source}: {got}; spec: rejected "
          "(a negative dimension)")
print("the bug shows: the process killed" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
