"""ov-onnx-convertbroadcast3-input-empty-shape (conformance/known/openvino-onnx.yaml)

An empty shape fed as a graph input is rejected at infer ("Broadcast target_shape has smaller rank 0 than arg shape
1"): ConvertBroadcast3 rewrites a bidirectional Broadcast with a non-constant target as data * Broadcast-1(Constant
[1], target_shape), and a rank-1 tensor cannot be numpy-broadcast to a rank-0 target (the openvino backend's
ov-convertbroadcast3-param-empty-target). ONNX Expand with shape [] leaves the data as it is. Each model runs in a
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
        print("rejected:", " ".join(str(e).split()))"""


def run(*args):
    r = subprocess.run([sys.executable, "-c", CHILD, *map(repr, args)], capture_output=True, text=True)
    if r.returncode < 0:
        return f"killed by {signal.Signals(-r.returncode).name}"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


def short(text):
    return text if len(text) <= 160 else f"{text[:60]} ... {text[-95:]}"


print("openvino", ov.__version__, "onnx", onnx.__version__, "numpy", np.__version__)
bug = False
for data_shape, target in (([2, 3], []), ([], []), ([2, 3], [3])):  # the last one, a shorter shape, works
    got = run(data_shape, target, "input")
    bug |= not target and got.startswith("rejected") and "smaller rank" in got
    want = np.broadcast_shapes(tuple(data_shape), tuple(target))
    print(f"Expand, data {data_shape}, shape {target} (graph input): {short(got)}; spec: output {want}")
print("the bug shows: an empty shape fed at run time is rejected" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
