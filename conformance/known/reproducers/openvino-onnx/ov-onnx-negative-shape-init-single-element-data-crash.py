"""ov-onnx-negative-shape-init-single-element-data-crash (conformance/known/openvino-onnx.yaml)

An Expand with a shape initializer [-2, 1] or [-2, 3] kills the process with SIGSEGV when the data holds one element
(a scalar, or (1,)), for float and uint8 data alike; data (3,) with [-2, 3] is accepted as (0, 3) instead
(ov-onnx-negative-shape-init-read-as-zero). ONNX Expand and the spec reject a negative dimension. Each model runs in a
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
for data_shape, target in (([], [-2, 1]), ([1], [-2, 3]), ([3], [-2, 3])):
    got = run(data_shape, target, "FLOAT")
    bug |= data_shape != [3] and got.startswith("killed")
    print(f"Expand, float data {data_shape}, shape {target} (initializer): {got}; spec: rejected (a negative "
          "dimension)")
print("the bug shows: the process dies" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
