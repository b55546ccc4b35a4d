"""ov-cpu-broadcast-divides-by-zero-dim (conformance/known/openvino.yaml)

compile_model kills the process with SIGFPE when a data dimension mapped to the output is 0 and target_shape is a
Constant: the CPU plugin's Broadcast node computes its repeat counts in getSupportedDescriptors() as
target_shape[j] / data_shape[i] without guarding a zero divisor (numpy and explicit mode, and bidirectional after
ConvertBroadcast3). The spec allows zero-size dimensions: the output is the empty tensor of the target shape.
Each model is compiled in a child process, whose death is the finding.

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
    shape, target, mode, axes = map(eval, sys.argv[1:])
    d = ops.parameter(shape, np.float32)  # data a Parameter, target_shape (and axes_mapping) Constants
    args = [ov.op.Constant(np.array(v, np.int64)) for v in (target, axes) if v is not None]
    try:
        c = ov.Core().compile_model(ov.Model([ops.broadcast(d, *args, broadcast_spec=mode)], [d]), "CPU")
        print("output", c([np.zeros(shape, np.float32)])[0].shape)
    except RuntimeError as e:
        print("rejected:", " ".join(str(e).split())[-100:])"""


def run(*args):
    r = subprocess.run([sys.executable, "-c", CHILD, *map(repr, args)], capture_output=True, text=True)
    if r.returncode < 0:
        return f"killed by {signal.Signals(-r.returncode).name}"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


print("openvino", ov.__version__)
bug = False
for shape, target, mode, axes in (([0], [3, 0], "NUMPY", None), ([0, 3], [0, 3], "NUMPY", None),
                                  ([0], [2, 0], "EXPLICIT", [1]), ([0], [0], "BIDIRECTIONAL", None),
                                  ([2, 0], [], "BIDIRECTIONAL", None)):
    got = run(shape, target, mode, axes)
    bug |= got.startswith("killed")
    want = np.broadcast_shapes(tuple(shape), tuple(target)) if mode == "BIDIRECTIONAL" else tuple(target)
    print(f"{mode.lower()}, data {shape}, target_shape {target}{f', axes_mapping {axes}' if axes else ''} "
          f"(Constants): {got}; spec: output {want}")
print("the bug shows: compile_model dies" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
