"""ov-explicit-empty-target-param-runs-reference-and-segfaults (conformance/known/openvino.yaml)

Explicit mode with data (1,), an empty target_shape and axes_mapping [0], both fed at run time, kills infer with
SIGSEGV instead of rejecting axes_mapping[0] = 0 as beyond the output rank 0 (with Constants it is rejected): the
static output shape [] sends the op to a "Reference" node, whose BroadcastBase::evaluate() indexes the empty
target_shape with axes_mapping without re-running shape inference. Each model runs in a child process, whose death
is the finding.

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
    target, axes = np.array(eval(sys.argv[1]), np.int64), np.array([0], np.int64)
    d = ops.parameter([1], np.float32)
    try:
        if sys.argv[2] == "Constant":
            n = ops.broadcast(d, ov.op.Constant(target), ov.op.Constant(axes), "EXPLICIT")
            params, feeds = [d], [np.ones(1, np.float32)]
        else:
            t, a = ops.parameter([len(target)], np.int64), ops.parameter([1], np.int64)
            n, params, feeds = ops.broadcast(d, t, a, "EXPLICIT"), [d, t, a], [np.ones(1, np.float32), target, axes]
        print("output", ov.Core().compile_model(ov.Model([n], params), "CPU")(feeds)[0].shape)
    except RuntimeError as e:
        print("rejected:", " ".join(str(e).split())[-100:])"""


def run(*args):
    r = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True, text=True)
    if r.returncode < 0:
        return f"killed by {signal.Signals(-r.returncode).name}"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


print("openvino", ov.__version__, "numpy", np.__version__)
bug = False
for target, how, want in (("[]", "Constant", "rejected"), ("[]", "Parameter", "rejected"),
                          ("[2]", "Parameter", "output (2,)")):
    got = run(target, how)
    bug |= target == "[]" and how == "Parameter" and got.startswith("killed")
    print(f"explicit, data (1,), target_shape {target}, axes_mapping [0] ({how}s): {got}; spec: {want}")
print("the bug shows: infer dies instead of rejecting" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
