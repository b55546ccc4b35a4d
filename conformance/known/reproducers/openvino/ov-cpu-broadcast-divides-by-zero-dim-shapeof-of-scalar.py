"""ov-cpu-broadcast-divides-by-zero-dim-shapeof-of-scalar (conformance/known/openvino.yaml)

Bidirectional data (2, 0) with target_shape ShapeOf(x) of a scalar x (an empty shape known when the model is built,
folded to an empty Constant): the static CPU Broadcast node divides by the zero data dimension (SIGFPE). With x of
rank 1 the target stays a run-time value and the dynamic node gives the empty output. The spec's output is (2, 0).
Each model runs in a child process.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import signal
import subprocess
import sys

try:
    import numpy as np
    import openvino as ov
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

CHILD = """if 1:
    import sys, numpy as np, openvino as ov, openvino.opset3 as ops
    x_shape = eval(sys.argv[1])
    d, x = ops.parameter([2, 0], np.float32), ops.parameter([-1] * len(x_shape), np.uint8)
    node = ops.broadcast(d, ops.shape_of(x, "i64"), broadcast_spec="BIDIRECTIONAL")
    c = ov.Core().compile_model(ov.Model([node], [d, x]), "CPU")
    print("output shape", c([np.zeros((2, 0), np.float32), np.zeros(x_shape, np.uint8)])[0].shape)"""


def run(*args):
    r = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True, text=True)
    if r.returncode < 0:
        return f"killed by {signal.Signals(-r.returncode).name}"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


print("openvino", ov.__version__)
bug = False
for x_shape in ((), (1,)):
    got = run(repr(x_shape))
    bug |= got.startswith("killed")
    want = np.broadcast_shapes((2, 0), x_shape)
    print(f"bidirectional, data (2, 0), target_shape ShapeOf(x of shape {x_shape}): {got}; spec: output shape {want}")
print("the bug shows: the process dies" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
