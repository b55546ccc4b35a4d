"""ov-cpu-broadcast-zero-size-output-over-rank-6-divides-by-zero (conformance/known/openvino.yaml)

Infer kills the process with SIGFPE when the data is not empty but the output is, and the broadcast has more than
6 dimensions that cannot be merged: the CPU Broadcast node runs such shapes through plainExecute(), which computes
i % dstDims[j], a division by the zero output dimension. Rank 6, empty data or a non-empty output work. The spec's
output is the empty tensor of the target shape. Each model runs in a child process, whose death is the finding.

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
    shape, target, axes = map(eval, sys.argv[1:])
    d, t = ops.parameter(shape, np.float32), ops.parameter([len(target)], np.int64)  # target_shape fed at run time
    n = ops.broadcast(d, t) if axes is None else ops.broadcast(d, t, ops.constant(np.array(axes, np.int64)), "EXPLICIT")
    c = ov.Core().compile_model(ov.Model([n], [d, t]), "CPU")
    try:
        print("output", c([np.ones(shape, np.float32), np.array(target, np.int64)])[0].shape)
    except RuntimeError as e:
        print("rejected:", " ".join(str(e).split())[-100:])"""


def run(*args):
    r = subprocess.run([sys.executable, "-c", CHILD, *map(repr, args)], capture_output=True, text=True)
    if r.returncode < 0:
        return f"killed by {signal.Signals(-r.returncode).name}"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


print("openvino", ov.__version__, "numpy", np.__version__)
bug = False
for shape, target, axes, affected in (([2, 1, 2, 1, 2, 1], [2, 2, 2, 2, 2, 0], None, False),  # rank 6: fine
                                      ([1, 1, 2, 1, 2, 1, 2, 1], [3, 2, 2, 2, 2, 2, 2, 2], None, False),  # not empty
                                      ([1, 1, 2, 1, 2, 1, 2, 1], [0, 2, 2, 2, 2, 2, 2, 2], None, True),
                                      ([2, 2, 2, 2], [0, 2, 2, 2, 2, 2, 2, 2], [1, 3, 5, 7], True)):
    got = run(shape, target, axes)
    bug |= affected and got.startswith("killed")
    print(f"data {shape}, target_shape {target}{'' if axes is None else f', axes_mapping {axes}'} (Parameter): "
          f"{got}; spec: output {tuple(target)}")
print("the bug shows: infer dies on an empty output of rank 8" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
