"""ov-opset1-axes-mapping-count-unchecked (conformance/known/openvino.yaml)

Broadcast-1 never checks its input count against the mode (Broadcast-3 does): v1::Broadcast's
validate_and_infer_types() ignores a third input in numpy mode and runs explicit mode without axes_mapping as numpy
mode, so both are accepted where numpy's rule holds. The Broadcast-1 spec: the 3rd input shouldn't be provided in
numpy mode, and explicit mode takes the mapping from it.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import openvino as ov
    import openvino.opset1 as op1
    from openvino.utils.node_factory import NodeFactory
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)


def run(opset, mode, inputs):
    d = op1.parameter([3], np.float32)
    try:
        n = NodeFactory(opset).create("Broadcast", [d] + [ov.op.Constant(np.array(v, np.int64)) for v in inputs],
                                      {"mode": mode})
        out = ov.Core().compile_model(ov.Model([n], [d]), "CPU")([np.arange(1, 4, dtype=np.float32)])[0]
        return f"ACCEPTED, output {out.tolist()}"
    except RuntimeError as e:
        return "rejected: " + " ".join(str(e).split())[-80:]


print("openvino", ov.__version__)
bug = False
for opset in ("opset1", "opset3"):
    for mode, inputs, what in (("numpy", [[2, 3], [1]], "numpy mode with axes_mapping [1]"),
                               ("numpy", [[2, 3], []], "numpy mode with an empty axes_mapping"),
                               ("explicit", [[2, 3]], "explicit mode without axes_mapping")):
        got = run(opset, mode, inputs)
        bug |= opset == "opset1" and got.startswith("ACCEPTED")
        print(f"{opset}, data (3,), target_shape [2, 3], {what}: {got}; spec: rejected")
print("the bug shows: Broadcast-1 accepts a wrong input count" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
