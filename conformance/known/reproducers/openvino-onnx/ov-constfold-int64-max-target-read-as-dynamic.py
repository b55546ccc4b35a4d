"""ov-constfold-int64-max-target-read-as-dynamic (conformance/known/openvino.yaml)

A Constant target_shape value 2**63 - 1 beside a 0 (an output with no element, valid) with Constant data, folded by
openvino's ConstantFolding pass before compiling: ov::Dimension reads 2**63 - 1 as its unbounded upper bound, so the
node declares a dynamic dimension ([?, 0]) and folding it fails ("Cannot get length of dynamic dimension"). The
spec's output for numpy data (1,) with target_shape [2**63 - 1, 0] is (9223372036854775807, 0).

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import openvino as ov
    import openvino.opset3 as ops
    from openvino.passes import ConstantFolding, Manager
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("openvino", ov.__version__)
node = ops.broadcast(ov.op.Constant(np.ones(1, np.uint8)), ov.op.Constant(np.array([2**63 - 1, 0], np.int64)))
print("declared", node.get_output_partial_shape(0))
model = ov.Model([node], [])
m = Manager()
m.register_pass(ConstantFolding())
try:
    m.run_passes(model)
    got, bug = f"output shape {ov.Core().compile_model(model, 'CPU')([])[0].shape}", False
except RuntimeError as e:
    got, bug = "REJECTED: " + " ".join(str(e).split())[-80:], True
print(f"numpy, data Constant (1,), target_shape Constant [2**63 - 1, 0], ConstantFolding: {got}; "
      "spec: (9223372036854775807, 0)")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
