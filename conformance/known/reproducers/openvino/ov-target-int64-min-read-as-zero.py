"""ov-target-int64-min-read-as-zero (conformance/known/openvino.yaml)

A negative Constant target_shape value (-2 or -2**63, the most negative int64) on the last axis is not rejected:
shape inference declares the output dimension as 0 (ov::Interval clips negatives to 0), and infer then dies with
SIGSEGV, in a memcpy of the CPU Broadcast node's copy loop sized from the negative innermost repeat. The spec
requires target_shape values to be non-negative dimensions. Each model runs in a child process, whose death is the
finding.

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
        print("declared", n.get_output_partial_shape(0), end=", ", flush=True)
        print("output", ov.Core().compile_model(ov.Model([n], [d]), "CPU")([np.ones(shape, np.float32)])[0].shape)
    except RuntimeError as e:
        print("rejected:", " ".join(str(e).split())[-100:])"""


def run(*args):
    r = subprocess.run([sys.executable, "-c", CHILD, *map(repr, args)], capture_output=True, text=True)
    if r.returncode < 0:
        return f"{r.stdout.strip()} killed by {signal.Signals(-r.returncode).name}"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


print("openvino", ov.__version__, "numpy", np.__version__)
bug = False
for shape, target, mode, axes in (([3, 1], [3, -2], "NUMPY", None), ([3, 1], [3, -2**63], "NUMPY", None),
                                  ([3], [3, -2], "EXPLICIT", [0]), ([1], [3, -2], "BIDIRECTIONAL", None)):
    got = run(shape, target, mode, axes)
    bug |= "killed" in got
    print(f"{mode.lower()}, data {shape}, target_shape {target}{f', axes_mapping {axes}' if axes else ''} "
          f"(Constant): {got}; spec: rejected (a negative dimension)")
print("the bug shows: infer dies on a negative last dimension" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
