"""ov-onnx-convertbroadcast3-max-of-one-and-zero-shape (conformance/known/openvino-onnx.yaml)

With a shape initializer, data (1,) with shape [0] gives (1,), and data (1, 3) with [0, 1] gives (1, 3): the same
std::max in ConvertBroadcast3, the other way round (the openvino backend's
ov-convertbroadcast3-max-of-one-and-zero-shape). By numpy's rule they give (0,) and (0, 3). Each model runs in a
child process.

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
    import sys, numpy as np, openvino as ov
    from onnx import helper, numpy_helper, TensorProto as TP
    data_shape, target, where = map(eval, sys.argv[1:])
    shape = np.array(target, np.int64)
    inputs = [helper.make_tensor_value_info("x", TP.FLOAT, data_shape)]
    inputs += [helper.make_tensor_value_info("shape", TP.INT64, [len(target)])] if where == "input" else []
    inits = [numpy_helper.from_array(shape, "shape")] if where == "initializer" else []
    g = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g", inputs,
                          [helper.make_tensor_value_info("y", TP.FLOAT, None)], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    feeds = [np.ones(data_shape, np.float32)] + ([shape] if where == "input" else [])
    try:
        c = ov.Core().compile_model(ov.Core().read_model(m.SerializeToString(), b""), "CPU")
        print("ACCEPTED, output", c(feeds)[0].shape)
    except RuntimeError as e:
        print("rejected:", " ".join(str(e).split())[-100:])"""


def run(*args):
    r = subprocess.run([sys.executable, "-c", CHILD, *map(repr, args)], capture_output=True, text=True)
    if r.returncode < 0:
        return f"killed by {signal.Signals(-r.returncode).name}"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


print("openvino", ov.__version__, "onnx", onnx.__version__, "numpy", np.__version__)
bug = False
for data_shape, target in (([1], [0]), ([1, 3], [0, 1])):
    got = run(data_shape, target, "initializer")
    want = np.broadcast_shapes(tuple(data_shape), tuple(target))
    bug |= got.startswith("ACCEPTED") and got != f"ACCEPTED, output {want}"
    print(f"Expand, data {data_shape}, shape {target} (initializer): {got}; spec: output {want}")
print("the bug shows: the output keeps the 1" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
