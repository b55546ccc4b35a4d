"""ov-negative-target-beside-zero-const-accepted (conformance/known/openvino.yaml)

A -2 beside a 0 in a Constant target_shape (e.g. [-2, 0]) is accepted: shape inference reads -2 as 0 (ov::Interval
clips negatives to 0), and with an empty output nothing runs that could crash. The spec requires non-negative
target_shape values. Each model runs in a child process (other negative values crash: ov-target-int64-min-read-as-zero).

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
    d = ops.parameter(shape, np.float32)
    args = [ov.op.Constant(np.array(v, np.int64)) for v in (target, axes) if v is not None]
    try:
        n = ops.broadcast(d, *args, broadcast_spec=mode)
        c = ov.Core().compile_model(ov.Model([n], [d]), "CPU")
        print("ACCEPTED, output", c([np.ones(shape, np.float32)])[0].shape)
    except RuntimeError as e:
        print("rejected:", " ".join(str(e).split())[-100:])"""


def run(*args):
    r = subprocess.run([sys.executable, "-c", CHILD, *map(repr, args)], capture_output=True, text=True)
    if r.returncode < 0:
        return f"killed by {signal.Signals(-r.returncode).name}"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


print("openvino", ov.__version__, "numpy", np.__version__)
bug = False
for shape, target, mode, axes in (([1], [-2, 0], "NUMPY", None), ([1, 1], [0, -2], "NUMPY", None),
                                  ([2], [2, -2, 0], "EXPLICIT", [0])):
    got = run(shape, target, mode, axes)
    bug |= got.startswith("ACCEPTED")
    print(f"{mode.lower()}, data {shape}, target_shape {target}{f', axes_mapping {axes}' if axes else ''} "
          f"(Constant): {got}; spec: rejected (a negative dimension)")
print("the bug shows: a -2 beside a 0 is accepted" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
