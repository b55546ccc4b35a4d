"""ov-reference-explicit-negative-axes-heap-corruption (conformance/known/openvino.yaml)

Explicit mode with a static output shape (target_shape a Constant) and axes_mapping fed at run time runs on the CPU
as a "Reference" node, i.e. BroadcastBase::evaluate(), which calls get_broadcast_axes_none() (axes.erase(axes.begin()
+ axis) with the axis as an unsigned index) before validate_target_shape_none() range-checks it; a negative axis
erases far outside the vector and the process aborts. The spec rejects a negative axes_mapping value. Each model runs
in a child process.

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
    axes = eval(sys.argv[1])
    d, a = ops.parameter([3], np.float32), ops.parameter([1], np.int64)
    t = ov.op.Constant(np.array([2, 3], np.int64))
    c = ov.Core().compile_model(ov.Model([ops.broadcast(d, t, a, "EXPLICIT")], [d, a]), "CPU")
    kinds = [o.get_rt_info()["layerType"].astype(str) for o in c.get_runtime_model().get_ordered_ops()]
    print("runs as", [k for k in kinds if k in ("Reference", "Broadcast")], end="; ", flush=True)
    try:
        print("ACCEPTED, output shape", c([np.ones(3, np.float32), np.array(axes, np.int64)])[0].shape)
    except RuntimeError as e:
        print("rejected:", " ".join(str(e).split())[-60:])"""


def run(*args):
    r = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True, text=True)
    if r.returncode < 0:
        return f"{r.stdout.strip()} killed by {signal.Signals(-r.returncode).name}"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


print("openvino", ov.__version__)
bug = False
for axes in ([1], [-1], [-2]):
    got = run(repr(axes))
    bug |= axes != [1] and "killed" in got
    spec = "output shape (2, 3)" if axes == [1] else "rejected (a negative axis)"
    print(f"explicit, data (3,), target_shape Constant [2, 3], axes_mapping Parameter {axes}: {got}; spec: {spec}")
print("the bug shows: a negative axis kills the process" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
