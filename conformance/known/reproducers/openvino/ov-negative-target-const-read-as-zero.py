"""ov-negative-target-const-read-as-zero (conformance/known/openvino.yaml; OpenVINO 2025.4 and later)

A negative Constant target_shape value (-2 or -2**63) on the first or a middle axis is accepted in numpy, explicit
and bidirectional mode: shape inference reads it as dimension 0 (ov::Interval clips negative values to 0;
ov.Dimension(-2) == 0), so data (1, 3) with target_shape [-2, 3] gives an empty (0, 3) output. Fed at run time, -2
is rejected. The spec requires target_shape values to be non-negative dimensions. Each model runs in a child
process (a negative value on the last axis crashes: ov-target-int64-min-read-as-zero; 2025.0 crashes here too).

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
    shape, target, mode, axes, how = map(eval, sys.argv[1:])
    vals = [np.array(v, np.int64) for v in (target, axes) if v is not None]
    d = ops.parameter(shape, np.float32)
    ins = [ov.op.Constant(v) if how == "Constant" else ops.parameter(v.shape, np.int64) for v in vals]
    try:
        n = ops.broadcast(d, *ins, broadcast_spec=mode)
        c = ov.Core().compile_model(ov.Model([n], [d] + ([] if how == "Constant" else ins)), "CPU")
        print("ACCEPTED, output", c([np.ones(shape, np.float32)] + ([] if how == "Constant" else vals))[0].shape)
    except RuntimeError as e:
        print("rejected:", " ".join(str(e).split())[-70:])"""


def run(*args):
    r = subprocess.run([sys.executable, "-c", CHILD, *map(repr, args)], capture_output=True, text=True)
    if r.returncode < 0:
        return f"killed by {signal.Signals(-r.returncode).name}"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


print("openvino", ov.__version__, "numpy", np.__version__)
print("ov.Dimension(-2) =", ov.Dimension(-2), "; ov.Dimension(-2**63) =", ov.Dimension(-2**63))
bug = False
for shape, target, mode, axes, how in (([1, 3], [-2, 3], "NUMPY", None, "Constant"),
                                       ([1, 3], [-2**63, 3], "NUMPY", None, "Constant"),
                                       ([3], [-2, 3], "EXPLICIT", [1], "Constant"),
                                       ([1, 3], [-2, 3], "BIDIRECTIONAL", None, "Constant"),
                                       ([1, 3], [-2, 3], "NUMPY", None, "Parameter")):
    got = run(shape, target, mode, axes, how)
    bug |= how == "Constant" and got.startswith("ACCEPTED")
    print(f"{mode.lower()}, data {shape}, target_shape {target}{f', axes_mapping {axes}' if axes else ''} ({how}): "
          f"{got}; spec: rejected (a negative dimension)")
print("the bug shows: a negative Constant dimension is read as 0" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
