"""ov-nopelim-all-ones-target-explicit-axes-unchecked (conformance/known/openvino.yaml)

NopElimination's EliminateNopBroadcast removes a Broadcast whose target_shape is a Constant of ones and whose output
has its input's rank, in any mode, without looking at the data's dimensions or at axes_mapping. Explicit data (0,)
with target_shape [1] and axes_mapping [0] (0 cannot map to 1) fed at run time: with the data a Constant the node is
removed and the empty data comes back; with the data a Parameter (kept between the Parameter and the Result) the
node runs and rejects, as the spec does.

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
core = ov.Core()
bug = False
for how in ("Parameter", "Constant"):
    axes = ops.parameter([1], np.int64)
    d = ov.op.Constant(np.ones(0, np.float32)) if how == "Constant" else ops.parameter([0], np.float32)
    node = ops.broadcast(d, ov.op.Constant(np.array([1], np.int64)), axes, broadcast_spec="EXPLICIT")
    params = [axes] if how == "Constant" else [d, axes]
    feeds = [np.array([0], np.int64)] if how == "Constant" else [np.ones(0, np.float32), np.array([0], np.int64)]
    try:
        got = f"ACCEPTED, output shape {core.compile_model(ov.Model([node], params), 'CPU')(feeds)[0].shape}"
        bug |= how == "Constant"
    except RuntimeError:
        got = "rejected"
    print(f"explicit, data {how} (0,), target_shape Constant [1], axes_mapping Parameter [0]: {got}; "
          "spec: rejected (a data dimension 0 cannot map to 1)")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
