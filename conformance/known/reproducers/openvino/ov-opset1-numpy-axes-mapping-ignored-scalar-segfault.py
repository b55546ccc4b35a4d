"""ov-opset1-numpy-axes-mapping-ignored-scalar-segfault (conformance/known/openvino.yaml)

Broadcast-1 in numpy mode with a third input (an axes_mapping the spec forbids there) ignores it, so a scalar with an
empty Constant target_shape and axes_mapping [] is built, and the CPU Broadcast node then dies on scalar to scalar
(SIGSEGV). Broadcast-3 refuses the third input when the node is built. The spec rejects an axes_mapping in numpy mode.
Each model runs in a child process.

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
    import sys, numpy as np, openvino as ov, openvino.opset1 as op1
    from openvino.utils.node_factory import NodeFactory
    d = op1.parameter([], np.uint8)
    c = lambda v: ov.op.Constant(np.array(v, np.int64))
    try:
        node = NodeFactory(sys.argv[1]).create("Broadcast", [d, c([]), c([])], {"mode": "numpy"})
        out = ov.Core().compile_model(ov.Model([node], [d]), "CPU")([np.array(7, np.uint8)])[0]
        print("ACCEPTED, output shape", out.shape)
    except RuntimeError as e:
        print("rejected:", " ".join(str(e).split())[-70:])"""


def run(*args):
    r = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True, text=True)
    if r.returncode < 0:
        return f"killed by {signal.Signals(-r.returncode).name}"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


print("openvino", ov.__version__)
bug = False
for opset in ("opset1", "opset3"):
    got = run(opset)
    bug |= got.startswith("killed")
    print(f"{opset} numpy, scalar data, target_shape Constant [], axes_mapping Constant []: {got}; spec: rejected")
print("the bug shows: the process dies" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
