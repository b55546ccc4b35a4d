"""ov-reference-explicit-bad-axes-crash-before-2025-4 (conformance/known/openvino.yaml; OpenVINO 2025.0 to 2025.3)

A static explicit Broadcast (target_shape a Constant) whose axes_mapping is fed at run time runs on the CPU as a
Reference node (BroadcastBase::evaluate()); up to 2025.3 an unsorted or out-of-range axes_mapping kills the process
there (get_broadcast_axes_none() erases each mapped axis from a vector of the output's axes before anything checks
it). The spec rejects these inputs. Each model runs in a child process.

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
    shape, target, axes = eval(sys.argv[1]), eval(sys.argv[2]), eval(sys.argv[3])
    d, a = ops.parameter(shape, np.float32), ops.parameter([len(axes)], np.int64)
    node = ops.broadcast(d, ov.op.Constant(np.array(target, np.int64)), a, "EXPLICIT")
    c = ov.Core().compile_model(ov.Model([node], [d, a]), "CPU")
    try:
        print("ACCEPTED, output shape", c([np.ones(shape, np.float32), np.array(axes, np.int64)])[0].shape)
    except RuntimeError as e:
        print("rejected:", " ".join(str(e).split())[-60:])"""


def run(*args):
    r = subprocess.run([sys.executable, "-c", CHILD, *map(repr, args)], capture_output=True, text=True)
    if r.returncode < 0:
        return f"killed by {signal.Signals(-r.returncode).name}"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


print("openvino", ov.__version__)
bug = False
for shape, target, axes in (([3], [2, 3], [1]), ([3], [2, 3], [2]), ([2, 3], [3, 2], [1, 0])):
    got = run(shape, target, axes)
    bug |= got.startswith("killed")
    spec = "output shape (2, 3)" if axes == [1] else "rejected"
    print(f"explicit, data {shape}, target_shape Constant {target}, axes_mapping Parameter {axes}: {got}; spec: {spec}")
print("the bug shows: the process dies" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
