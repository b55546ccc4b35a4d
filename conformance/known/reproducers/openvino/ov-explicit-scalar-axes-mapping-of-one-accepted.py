"""ov-explicit-scalar-axes-mapping-of-one-accepted (conformance/known/openvino.yaml)

Explicit mode accepts a scalar with axes_mapping [0] (target_shape [1, 2], output (1, 2) of the scalar), in opset1
and opset3: shape inference counts a rank-0 input as rank 1 when axes_mapping is not empty. The Broadcast-1/3 spec:
the size of axes_mapping should match the rank of the input data, so a scalar takes axes_mapping [].

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
    for target, axes, want in (([1, 2], [0], "rejected"), ([1, 2], [], "output [[6.0, 6.0]]")):
        d = ops.parameter([], np.float32)
        args = [ov.op.Constant(np.array(v, np.int64)) for v in (target, axes)]
        try:
            n = NodeFactory(opset).create("Broadcast", [d, *args], {"mode": "explicit"})
            out = ov.Core().compile_model(ov.Model([n], [d]), "CPU")([np.full((), 6, np.float32)])[0]
            got = f"ACCEPTED, output {out.tolist()}"
            bug |= bool(axes)
        except RuntimeError as e:
            got = "rejected: " + " ".join(str(e).split())[-80:]
        print(f"{opset} explicit, scalar data, target_shape {target}, axes_mapping {axes}: {got}; spec: {want}")
print("the bug shows: a scalar is accepted with a one-axis mapping" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
