"""ov-opset1-axes-mapping-missing-zero-size-divides-by-zero (conformance/known/openvino.yaml)

Broadcast-1 in explicit mode without axes_mapping runs as numpy mode (ov-opset1-axes-mapping-count-unchecked);
with zero-size data and a Constant target_shape (data (0,), target_shape [2, 0]) the CPU node then divides by the
data dimension 0 and compile_model dies with SIGFPE. Fed at run time it is accepted; Broadcast-3 rejects it, as
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
    d = op1.parameter([0], np.float32)
    t = ov.op.Constant(target) if how == "Constant" else op1.parameter([2], np.int64)
    try:
        n = NodeFactory(opset).create("Broadcast", [d, t], {"mode": "explicit"})  # no axes_mapping
        c = ov.Core().compile_model(ov.Model([n], [d] + ([] if how == "Constant" else [t])), "CPU")
        print("ACCEPTED, output", c([np.ones(0, np.float32)] + ([] if how == "Constant" else [target]))[0].shape)
    except RuntimeError as e:
        print("rejected:", " ".join(str(e).split())[-100:])"""


def run(*args):
    r = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True, text=True)
    if r.returncode < 0:
        return f"killed by {signal.Signals(-r.returncode).name}"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


print("openvino", ov.__version__, "numpy", np.__version__)
bug = False
for opset, how in (("opset1", "Constant"), ("opset1", "Parameter"), ("opset3", "Constant")):
    got = run(opset, how)
    bug |= opset == "opset1" and how == "Constant" and got.startswith("killed")
    print(f"{opset} explicit without axes_mapping, data (0,), target_shape [2, 0] ({how}): {got}; spec: rejected")
print("the bug shows: compile_model dies" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
