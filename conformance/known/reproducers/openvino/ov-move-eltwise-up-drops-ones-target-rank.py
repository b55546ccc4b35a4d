"""ov-move-eltwise-up-drops-ones-target-rank (conformance/known/openvino.yaml)

A bidirectional Broadcast-3 of data with dynamic dimensions to a Constant target_shape of ones longer than the data
([1, 1, 1] for data (?, ?)) becomes data * Constant(ones of shape (1, 1, 1)) in ConvertBroadcast3. Between a Transpose
of the data and a Transpose of the output, the CPU plugin's MoveEltwiseUpThroughDataMovScalar moves that Multiply (its
constant has one element) above the data's Transpose and, the ranks differing, makes the constant a scalar: the
Multiply no longer adds the leading axis, and compile_model refuses the output Transpose ("Input order must have shape
[n], where n is the rank of arg"). Without the Transposes the same Broadcast gives (1, 2, 3), as the spec says.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import openvino as ov
    import openvino.opset3 as op3
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)


def run(transposes):
    x = op3.parameter([-1, -1], np.float32)
    data = op3.transpose(x, ov.op.Constant(np.array([1, 0], np.int64))) if transposes else x
    b = op3.broadcast(data, ov.op.Constant(np.array([1, 1, 1], np.int64)), broadcast_spec="BIDIRECTIONAL")
    out = op3.transpose(b, ov.op.Constant(np.array([2, 1, 0], np.int64))) if transposes else b
    fed = np.ones((3, 2) if transposes else (2, 3), np.float32)  # the data (2, 3), transposed back when fed (3, 2)
    try:
        got = ov.Core().compile_model(ov.Model([out], [x]), "CPU")([fed])[0]
    except RuntimeError as e:
        return "rejected: " + " ".join(str(e).split("\n")[-4:-1]).strip()[:160]
    return f"output {got.T.shape if transposes else got.shape}"


print("openvino", ov.__version__, "numpy", np.__version__)
alone, between = run(False), run(True)
print(f"Broadcast-3 bidirectional, data (?, ?) fed (2, 3), target_shape [1, 1, 1]: {alone}; spec: output (1, 2, 3)")
print(f"the same between Transposes of the data and of the output: {between}; spec: output (1, 2, 3)")
bug = between.startswith("rejected")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
