"""ov-opset1-axes-mapping-missing-zero-size-divides-by-zero (conformance/known/openvino.yaml)

Broadcast-1 in explicit mode without axes_mapping runs as numpy mode (ov-opset1-axes-mapping-count-unchecked);
with zero-size data and a Constant target_shape (data (0,), target_shape [2, 0]) the CPU node then divides by the
data dimension 0 and compile_model dies with SIGFPE; with the data a Constant too, compile_model folds the Broadcast and
ov::reference::broadcast makes the same division. Fed at run time it is accepted; Broadcast-3 rejects it, as
the spec asks: explicit mode requires axes_mapping. Each model runs in a child process, whose death is the finding.

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
    import sys, numpy as np, openvino as ov, openvino.opset1 as op1
    from openvino.utils.node_factory import NodeFactory
    opset, how = sys.argv[1], sys.argv[2]
    target = np.array([2, 0], np.int64)
    const_data = how == "Constant data"
    d = ov.op.Constant(np.ones(0, np.float32)) if const_data else op1.parameter([0], np.float32)
    t = op1.parameter([2], np.int64) if how == "Parameter" else ov.op.Constant(target)
    params = ([] if const_data else [d]) + ([t] if how == "Parameter" else [])
    feeds = ([] if const_data else [np.ones(0, np.float32)]) + ([target] if how == "Parameter" else [])
    try:
        n = NodeFactory(opset).create("Broadcast", [d, t], {"mode": "explicit"})  # no axes_mapping
        c = ov.Core().compile_model(ov.Model([n], params), "CPU")
        print("ACCEPTED, output", c(feeds)[0].shape)
    except RuntimeError as e:
        print("rejected:", " ".join(str(e).split())[-100:])"""


def run(*args):
    r = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True, text=True)
    if r.returncode < 0:
        return f"killed by {signal.Signals(-r.returncode).name}"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


print("openvino", ov.__version__, "numpy", np.__version__)
bug = False
ROADS = (("opset1", "Constant"), ("opset1", "Constant data"), ("opset1", "Parameter"), ("opset3", "Constant"))
for opset, how in ROADS:
    got = run(opset, how)
    bug |= opset == "opset1" and how != "Parameter" and got.startswith("killed")
    print(f"{opset} explicit without axes_mapping, data (0,), target_shape [2, 0] ({how}): {got}; spec: rejected")
print("the bug shows: compile_model dies" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
