"""ov-onnx-convertbroadcast3-max-of-zero-and-one-rejects (conformance/known/openvino-onnx.yaml)

With a shape initializer, a data dimension 0 against a shape dimension 1 fails at compile in ConvertBroadcast3
("Input shape dimension equal 0 cannot be broadcasted (numpy mode) to 1"): make_compatible_shape() takes
std::max(1, 0) = 1 (the openvino backend's ov-convertbroadcast3-max-of-zero-and-one-rejects). An empty shape
initializer with zero-size data fails the same way, the converter having replaced it by [1]. By numpy's rule,
which ONNX Expand names, 1 and 0 give 0. Each model runs in a child process.

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
for data_shape, target in (([0], [1]), ([0, 1], [1, 5]), ([2, 0], [])):
    got = run(data_shape, target, "initializer")
    bug |= got.startswith("rejected") and "cannot be broadcasted" in got
    want = np.broadcast_shapes(tuple(data_shape), tuple(target))
    print(f"Expand, data {data_shape}, shape {target} (initializer): {short(got)}; spec: output {want}")
print("the bug shows: a valid 0-against-1 Expand is rejected" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
