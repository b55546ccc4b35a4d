"""ov-transpose-constant-data-empty-output-2-62-hangs (conformance/known/openvino.yaml)

Explicit Broadcast of Constant uint8 data (1,) to the Constant target [0, 1, 2**62] with axes_mapping [1] (an empty
output, spec (0, 1, 4611686018427387904)), followed by a Transpose of order [2, 1, 0]: compile_model on the CPU does
not return (killed here after the timeout), while the same Broadcast alone compiles and runs at once and gives the
empty output.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import subprocess
import sys

try:
    import numpy as np
    import openvino as ov
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

TIMEOUT = 30  # seconds; the Broadcast alone takes well under one
CHILD = """if 1:
    import sys, numpy as np, openvino as ov
    import openvino.opset3 as ops
    transpose = sys.argv[1] == "transpose"
    data = ops.constant(np.array([7], np.uint8))
    b = ops.broadcast(data, ops.constant(np.array([0, 1, 2**62], np.int64)), ops.constant(np.array([1], np.int64)),
                      "explicit")
    out = ops.transpose(b, ops.constant(np.array([2, 1, 0], np.int64))) if transpose else b
    model = ov.Model([out], [], "m")
    compiled = ov.Core().compile_model(model, "CPU")
    print("output", compiled({})[0].shape)"""


def run(context):
    try:
        r = subprocess.run([sys.executable, "-c", CHILD, context], capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return f"no answer in {TIMEOUT} s"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


print("openvino", ov.__version__, "numpy", np.__version__)
alone, transposed = run("alone"), run("transpose")
print(f"Broadcast alone: {alone}; spec: (0, 1, 4611686018427387904)")
print(f"Broadcast then Transpose [2, 1, 0]: {transposed}; spec: (4611686018427387904, 1, 0)")
bug = transposed.startswith("no answer")
print("the bug shows: compile_model hangs" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
