"""ov-explicit-duplicate-axes-mapping (conformance/known/openvino.yaml)

A repeated axis in axes_mapping ([1, 1], [0, 0]) is accepted in opset1 and opset3, with target_shape and
axes_mapping as Constants or Parameters; for [1, 1] on data (3, 3) the output is uninitialized memory. Validation
only checks std::is_sorted, which a repeated index passes. The spec requires sorted indices that each map one data
axis to an output axis (the suite reads that as strictly increasing).

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import openvino as ov
    import openvino.opset3 as ops
    from openvino.utils.node_factory import NodeFactory
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("openvino", ov.__version__)
bug = False
for opset in ("opset1", "opset3"):
    for how in ("Constant", "Parameter"):
        target, axes = np.array([2, 3], np.int64), np.array([1, 1], np.int64)
        d = ops.parameter([3, 3], np.float32)
        ins = [ov.op.Constant(v) if how == "Constant" else ops.parameter([2], np.int64) for v in (target, axes)]
        try:
            n = NodeFactory(opset).create("Broadcast", [d, *ins], {"mode": "explicit"})
            c = ov.Core().compile_model(ov.Model([n], [d] + ([] if how == "Constant" else ins)), "CPU")
            out = c([np.arange(9, dtype=np.float32).reshape(3, 3)] + ([] if how == "Constant" else [target, axes]))[0]
            got, bug = f"ACCEPTED, output {out.ravel().tolist()}", True
        except RuntimeError as e:
            got = "rejected: " + " ".join(str(e).split())[-80:]
        print(f"{opset} explicit, data (3, 3), target_shape [2, 3], axes_mapping [1, 1] ({how}s): {got}; "
              "spec: rejected")
print("the bug shows: a repeated axis is accepted" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
