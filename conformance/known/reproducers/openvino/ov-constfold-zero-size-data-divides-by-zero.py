"""ov-constfold-zero-size-data-divides-by-zero (conformance/known/openvino.yaml)

A Broadcast whose data is a Constant with a 0 dimension kills the process with SIGFPE when OpenVINO evaluates it
while folding constants: ov::reference::broadcast computes its repeat counts as output dim / data dim with no guard
for a zero data dimension. Here openvino's own ConstantFolding pass, run on the model before compiling, dies
(compile_model's folding: ov-constfold-zero-size-data-divides-by-zero-at-compile). The
spec allows zero-size dimensions: the output is the empty tensor of the broadcast shape. Each model is folded or
compiled in a child process, whose death is the finding.

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
    try:
        from openvino.passes import ConstantFolding, Manager
    except ImportError:
        from openvino._pyopenvino.passes import ConstantFolding, Manager
    shape, target, mode, how = eval(sys.argv[1]), eval(sys.argv[2]), sys.argv[3], sys.argv[4]
    node = ops.broadcast(ov.op.Constant(np.zeros(shape, np.float32)), ov.op.Constant(np.array(target, np.int64)),
                         broadcast_spec=mode)
    model = ov.Model([node], [])
    if how == "ConstantFolding":
        manager = Manager(); manager.register_pass(ConstantFolding()); manager.run_passes(model)
        print("folded:", [op.get_type_name() for op in model.get_ordered_ops()])
    else:
        print("output shape", ov.Core().compile_model(model, "CPU")([])[0].shape)"""


def run(*args):
    r = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True, text=True)
    if r.returncode < 0:
        return f"killed by {signal.Signals(-r.returncode).name}"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


print("openvino", ov.__version__)
bug = False
for shape, target, mode in (([0], [0], "NUMPY"), ([2, 0], [2, 0], "NUMPY"), ([0], [3, 0], "NUMPY"),
                            ([0], [1], "BIDIRECTIONAL")):
    want = np.broadcast_shapes(tuple(shape), tuple(target))
    for how in ("ConstantFolding",):
        got = run(repr(shape), repr(target), mode, how)
        bug |= got.startswith("killed")
        print(f"{mode.lower()}, data Constant {shape}, target_shape {target}, {how}: {got}; spec: output {want}")
print("the bug shows: folding dies" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
