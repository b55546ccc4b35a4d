"""ov-convertbroadcast3-f8-multiply-unsupported-constant-data (conformance/known/openvino.yaml)

Bidirectional Broadcast-3 of an f8 Constant with target_shape fed at run time: ConvertBroadcast3 builds data *
Broadcast-1(Constant [1], target_shape) (a PowerStatic node for a single-element Constant), and the CPU plugin has no
f8 kernel for either. Where the node declares the data's shape (target (3, 2) for data (3, 2)) NopElimination removes
it first and the data comes back. The spec's output is the data replicated.

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
for shape, target in (([3, 1], [2, 3, 4]), ([], [2, 3]), ([3, 2], [3, 2])):
    data = ov.op.Constant(ov.Tensor(ov.Type.f8e5m2, ov.Shape(shape)), shared_memory=False)
    t = ops.parameter([len(target)], np.int64)
    compiled = ov.Core().compile_model(ov.Model([ops.broadcast(data, t, broadcast_spec="BIDIRECTIONAL")], [t]), "CPU")
    want = np.broadcast_shapes(tuple(shape), tuple(target))
    try:
        got = f"output shape {compiled([np.array(target, np.int64)])[0].shape}"
    except RuntimeError as e:
        message = " ".join(str(e).split())
        got = "rejected: " + message[message.find("[CPU]"):][:90]
        bug = True
    print(f"bidirectional f8e5m2 data Constant {shape}, target_shape Parameter {target}: {got}; spec: output {want}")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
