"""ov-cpu-broadcast-zero-size-output-over-rank-6-constant-data (conformance/known/openvino.yaml)

Data (1, 1, 2, 1, 2, 1, 2, 1) as a Constant, target_shape [0, 2, 2, 2, 2, 2, 2, 2] fed at run time: the CPU Broadcast
node runs on the Constant, and with more than 6 dimensions that cannot be merged its plainExecute() divides by the zero
output dimension (SIGFPE). With a Constant target_shape the Broadcast is folded at compile and the empty output comes
back. The spec's output is the empty tensor. Each model runs in a child process.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import signal
import subprocess
import sys

try:
    import numpy as np  # noqa: F401  (the child needs it)
    import openvino as ov
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

CHILD = """if 1:
    import sys, numpy as np, openvino as ov, openvino.opset3 as ops
    shape, target = [1, 1, 2, 1, 2, 1, 2, 1], np.array([0, 2, 2, 2, 2, 2, 2, 2], np.int64)
    data = ov.op.Constant(np.ones(shape, np.float32))
    if sys.argv[1] == "Parameter":
        t = ops.parameter([8], np.int64); params, feeds = [t], [target]
    else:
        t, params, feeds = ov.op.Constant(target), [], []
    print("output shape", ov.Core().compile_model(ov.Model([ops.broadcast(data, t)], params), "CPU")(feeds)[0].shape)"""


def run(*args):
    r = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True, text=True)
    if r.returncode < 0:
        return f"killed by {signal.Signals(-r.returncode).name}"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


print("openvino", ov.__version__)
bug = False
for target in ("Parameter", "Constant"):
    got = run(target)
    bug |= got.startswith("killed")
    print(f"numpy, data Constant (1, 1, 2, 1, 2, 1, 2, 1), target_shape {target} [0, 2, 2, 2, 2, 2, 2, 2]: {got}; "
          "spec: output shape (0, 2, 2, 2, 2, 2, 2, 2)")
print("the bug shows: the process dies" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
