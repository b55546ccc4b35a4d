"""ov-convertbroadcast3-max-of-one-and-zero-shape (conformance/known/openvino.yaml)

Bidirectional Broadcast-3 with a Constant target_shape: a data dimension 1 against a target dimension 0 gives 1 in
the compiled model (ConvertBroadcast3's make_compatible_shape() takes std::max(0, 1) for the Broadcast-1 it
builds), although the node itself declares 0. The spec's rule (numpy's) gives 0.

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
for shape, target in (([1], [0]), ([1, 3], [0, 1])):
    want = np.broadcast_shapes(tuple(shape), tuple(target))
    d = ops.parameter(shape, np.float32)
    n = ops.broadcast(d, ov.op.Constant(np.array(target, np.int64)), broadcast_spec="BIDIRECTIONAL")
    try:
        got = ov.Core().compile_model(ov.Model([n], [d]), "CPU")([np.ones(shape, np.float32)])[0].shape
        bug |= got != want
    except RuntimeError as e:
        got = "rejected: " + " ".join(str(e).split())[-100:]
    print(f"bidirectional, data {shape}, target_shape {target} (Constant): the node declares "
          f"{n.get_output_partial_shape(0)}, the CPU gives {got}; spec: output {want}")
print("the bug shows: the output keeps the 1" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
