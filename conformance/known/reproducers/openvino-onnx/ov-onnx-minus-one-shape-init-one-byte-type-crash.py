"""ov-onnx-minus-one-shape-init-one-byte-type-crash (conformance/known/openvino-onnx.yaml)

An Expand of uint8 data with a shape initializer [-1] kills the process with SIGSEGV when compiled (data (0,) or
(3,) alike), where ONNX Expand (and the spec: a target_shape value is a dimension, never negative) must reject the -1.
With float data the same model is rejected ("Cannot allocate memory for type: f32 and shape: [18446744073709551615]"):
ConvertBroadcast3 makes a Constant of ones of the target's shape, read as size_t, and only a type of one byte gets
past the byte-count overflow check. Each model runs in a child process.

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
    data_shape, target, elem = map(eval, sys.argv[1:])
    g = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", getattr(TP, elem), data_shape)],
                          [helper.make_tensor_value_info("y", getattr(TP, elem), None)],
                          [numpy_helper.from_array(np.array(target, np.int64), "shape")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    try:
        c = ov.Core().compile_model(ov.Core().read_model(m.SerializeToString(), b""), "CPU")
        print("ACCEPTED, output", c([np.zeros(data_shape, {"FLOAT": np.float32, "UINT8": np.uint8}[elem])])[0].shape)
    except RuntimeError as e:
        print("rejected:", " ".join(str(e).split())[-100:])"""


def run(*args):
    r = subprocess.run([sys.executable, "-c", CHILD, *map(repr, args)], capture_output=True, text=True)
    if r.returncode < 0:
        return f"killed by {signal.Signals(-r.returncode).name}"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


print("openvino", ov.__version__, "onnx", onnx.__version__, "numpy", np.__version__)
bug = False
for elem in ("UINT8", "FLOAT"):
    for data_shape in ([0], [3]):
        got = run(data_shape, [-1], elem)
        bug |= got.startswith("killed")
        print(f"Expand, {elem} data {data_shape}, shape [-1] (initializer): {got}; spec: rejected (a negative "
              "dimension)")
print("the bug shows: the process dies" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
