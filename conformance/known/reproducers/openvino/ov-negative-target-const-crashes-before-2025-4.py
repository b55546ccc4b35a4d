"""ov-negative-target-const-crashes-before-2025-4 (conformance/known/openvino.yaml; OpenVINO 2025.0 to 2025.3)

A negative Constant target_shape value (-2 or -2**63) on the first or a middle axis is not rejected, and up to
OpenVINO 2025.3 the process dies with SIGSEGV (from 2025.4 an empty output comes back instead:
ov-negative-target-const-read-as-zero). The spec requires non-negative target_shape values. Each model runs in a
child process, whose death is the finding.

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
    shape, target, mode = map(eval, sys.argv[1:])
    d = ops.parameter(shape, np.float32)
    try:
        n = ops.broadcast(d, ov.op.Constant(np.array(target, np.int64)), broadcast_spec=mode)
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
for shape, target, mode in (([1, 3], [-2, 3], "NUMPY"), ([1, 3], [-2**63, 3], "NUMPY"),
                            ([4], [2, -2, 4], "NUMPY"), ([1, 3], [-2, 3], "BIDIRECTIONAL")):
    got = run(shape, target, mode)
    bug |= got.startswith("killed")
    print(f"{mode.lower()}, data {shape}, target_shape {target} (Constant): {got}; "
          "spec: rejected (a negative dimension)")
print("the bug shows: the process dies" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
