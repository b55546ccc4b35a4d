"""ov-explicit-scalar-axes-mapping-of-one-accepted-constant-data (conformance/known/openvino.yaml)

Explicit mode, a scalar Constant, target_shape [1, 2] fed at run time, axes_mapping [0]: the CPU Broadcast node runs
on the Constant and, counting a rank-0 input as rank 1, gives (1, 2). Folded (target_shape a Constant too), the same
input is rejected. The spec: the size of axes_mapping must match the data rank (a scalar takes axes_mapping []).

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import openvino as ov
    import openvino.opset3 as ops
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("openvino", ov.__version__)
bug = False
for target_kind in ("Parameter", "Constant"):
    data, axes = ov.op.Constant(np.array(6.0, np.float32)), ov.op.Constant(np.array([0], np.int64))
    target = np.array([1, 2], np.int64)
    try:
        if target_kind == "Parameter":
            t = ops.parameter([2], np.int64)
            out = ov.Core().compile_model(ov.Model([ops.broadcast(data, t, axes, "EXPLICIT")], [t]), "CPU")([target])[0]
        else:
            node = ops.broadcast(data, ov.op.Constant(target), axes, "EXPLICIT")
            out = ov.Core().compile_model(ov.Model([node], []), "CPU")([])[0]
        got = f"ACCEPTED, output {out.tolist()}"
        bug |= target_kind == "Parameter"
    except RuntimeError as e:
        got = "rejected: " + " ".join(str(e).split())[-70:]
    print(f"explicit, scalar Constant, target_shape {target_kind} [1, 2], axes_mapping [0]: {got}; spec: rejected")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
