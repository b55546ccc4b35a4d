"""ov-reference-explicit-empty-target-axes-param-segfaults (conformance/known/openvino.yaml)

Explicit mode, data (1,), an empty Constant target_shape and axes_mapping [0] fed at run time: the node is static but
its axes_mapping is not a Constant, so the CPU plugin runs it as a Reference node (BroadcastBase::evaluate()), whose
get_broadcast_axes_none() indexes the empty target_shape with the axis before anything rejects it: SIGSEGV. With
both Constants the input is rejected when the node is built. The spec rejects axes_mapping [0] into an output of
rank 0. The model runs in a child process.

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
    d, t = ops.parameter([1], np.float32), ov.op.Constant(np.array([], np.int64))
    if sys.argv[1] == "Constant":
        a = ov.op.Constant(np.array([0], np.int64)); params, feeds = [d], [np.ones(1, np.float32)]
    else:
        a = ops.parameter([1], np.int64); params, feeds = [d, a], [np.ones(1, np.float32), np.array([0], np.int64)]
    try:
        c = ov.Core().compile_model(ov.Model([ops.broadcast(d, t, a, "EXPLICIT")], params), "CPU")
        print("ACCEPTED, output shape", c(feeds)[0].shape)
    except RuntimeError as e:
        print("rejected:", " ".join(str(e).split())[-70:])"""


def run(*args):
    r = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True, text=True)
    if r.returncode < 0:
        return f"killed by {signal.Signals(-r.returncode).name}"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


print("openvino", ov.__version__)
bug = False
for axes in ("Constant", "Parameter"):
    got = run(axes)
    bug |= got.startswith("killed")
    print(f"explicit, data (1,), target_shape Constant [], axes_mapping {axes} [0]: {got}; spec: rejected")
print("the bug shows: the process dies" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
