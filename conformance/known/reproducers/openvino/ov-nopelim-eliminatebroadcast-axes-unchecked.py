"""ov-nopelim-eliminatebroadcast-axes-unchecked (conformance/known/openvino.yaml)

NopElimination's EliminateBroadcast removes a Broadcast whose static input and declared output shapes are equal,
without looking at its axes_mapping. An explicit Broadcast with a Constant target_shape equal to the data's shape and
axes_mapping fed at run time declares the data's shape, so an unsorted axes_mapping ([1, 0] for data (3, 3) and
target_shape [3, 3]) is never checked once the Broadcast may be replaced by its input: with the data a Constant, or a
Transpose before it. Alone, between the data Parameter and the Result, the Broadcast is kept and rejects the axes.

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
x = np.arange(9, dtype=np.float32).reshape(3, 3)
bug = False
for how in ("data Parameter", "data Constant", "data Parameter, Transpose before"):
    params = []
    if how == "data Constant":
        data = ov.op.Constant(x)
        feeds = []
    else:
        d = ops.parameter([3, 3], np.float32)
        params.append(d)
        data = ops.transpose(d, ov.op.Constant(np.array([1, 0], np.int64))) if "Transpose" in how else d
        feeds = [np.ascontiguousarray(x.T) if "Transpose" in how else x]
    axes = ops.parameter([2], np.int64)
    node = ops.broadcast(data, ov.op.Constant(np.array([3, 3], np.int64)), axes, broadcast_spec="EXPLICIT")
    try:
        compiled = core.compile_model(ov.Model([node], params + [axes]), "CPU")
        got = f"ACCEPTED, output shape {compiled(feeds + [np.array([1, 0], np.int64)])[0].shape}"
        bug |= how != "data Parameter"
    except RuntimeError:
        got = "rejected"
    print(f"explicit, {how} (3, 3), target_shape Constant [3, 3], axes_mapping Parameter [1, 0]: {got}; "
          "spec: rejected (axes_mapping must be sorted)")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
