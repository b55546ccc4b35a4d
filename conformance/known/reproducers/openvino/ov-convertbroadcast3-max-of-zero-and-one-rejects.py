"""ov-convertbroadcast3-max-of-zero-and-one-rejects (conformance/known/openvino.yaml)

Bidirectional Broadcast-3 with a Constant target_shape is rejected at compile, in the ConvertBroadcast3 pass, when
a data dimension 0 meets a target dimension 1: make_compatible_shape() builds the Broadcast-1 target as
std::max(1, 0) = 1, and Broadcast-1 refuses to broadcast 0 to 1. The spec's rule (numpy's) pairs a 1 with a 0
to give 0. Each model is compiled in a child process: without the rejection, a Constant target with a zero-size
data dimension could reach the CPU node's division by it (ov-cpu-broadcast-divides-by-zero-dim).

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
    shape, target = map(eval, sys.argv[1:])
    d = ops.parameter(shape, np.float32)
    n = ops.broadcast(d, ov.op.Constant(np.array(target, np.int64)), broadcast_spec="BIDIRECTIONAL")
    try:
        c = ov.Core().compile_model(ov.Model([n], [d]), "CPU")
    except RuntimeError as e:
        sys.exit(print("rejected:", " ".join(str(e).split())))
    print("output", c([np.ones(shape, np.float32)])[0].shape)"""


def run(*args):
    r = subprocess.run([sys.executable, "-c", CHILD, *map(repr, args)], capture_output=True, text=True)
    if r.returncode < 0:
        return f"killed by {signal.Signals(-r.returncode).name}"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


def short(text):
    return text if len(text) <= 160 else f"{text[:60]} ... {text[-95:]}"


print("openvino", ov.__version__)
bug = False
for shape, target in (([0], [1]), ([2, 0], [1, 1]), ([0, 1], [1, 5])):
    got = run(shape, target)
    bug |= got.startswith("rejected") and "cannot be broadcasted" in got
    want = np.broadcast_shapes(tuple(shape), tuple(target))
    print(f"bidirectional, data {shape}, target_shape {target} (Constant): {short(got)}; spec: output {want}")
print("the bug shows: a valid 0-against-1 broadcast is rejected" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
