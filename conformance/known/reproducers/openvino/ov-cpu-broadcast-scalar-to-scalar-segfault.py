"""ov-cpu-broadcast-scalar-to-scalar-segfault (conformance/known/openvino.yaml)

Broadcasting a scalar to an empty Constant target_shape (scalar to scalar, numpy or bidirectional mode) kills
compile_model with SIGSEGV, whatever the integer type of the empty Constant: Broadcast::getSupportedDescriptors()
loops over the data dims, which the CPU plugin holds as [1] for a scalar, and indexes repeats[ndims - 1 - i] with
ndims = 0. The spec's rules example 1: a scalar to result () is valid and gives a scalar. Each model is compiled
in a child process, whose death is the finding.

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
    shape, target, mode, st = map(eval, sys.argv[1:])
    d = ops.parameter(shape, np.float32)  # data a Parameter, target_shape a Constant
    n = ops.broadcast(d, ov.op.Constant(np.array(target, st)), broadcast_spec=mode)
    try:
        c = ov.Core().compile_model(ov.Model([n], [d]), "CPU")
        print("output", c([np.full(shape, 7, np.float32)])[0].shape)
    except RuntimeError as e:
        print("rejected:", " ".join(str(e).split())[-100:])"""


def run(*args):
    r = subprocess.run([sys.executable, "-c", CHILD, *map(repr, args)], capture_output=True, text=True)
    if r.returncode < 0:
        return f"killed by {signal.Signals(-r.returncode).name}"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


print("openvino", ov.__version__, "numpy", np.__version__)
bug = False
for target, mode, st in (([], "NUMPY", "int64"), ([], "NUMPY", "uint8"), ([], "NUMPY", "int32"),
                         ([], "BIDIRECTIONAL", "int64"), ([3], "NUMPY", "int64")):
    got = run([], target, mode, st)
    bug |= not target and got.startswith("killed")
    print(f"{mode.lower()}, scalar data, target_shape {target} ({st} Constant): {got}; spec: output {tuple(target)}")
print("the bug shows: compile_model dies on scalar to scalar" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
