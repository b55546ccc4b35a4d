"""ov-static-output-allocated-before-rejection-axes-param (conformance/known/openvino.yaml)

Explicit mode, data (3,), target_shape Constant [2, 2**32 + 3] and axes_mapping [1] fed at run time: nothing compares
the data with the mapped target dimension before running, the node declares the static target shape, and the CPU plugin
allocates that output (32 GiB) while compile_model builds its graph. With a memory cap, as the suite's workers have,
the allocation fails; with axes_mapping a Constant the input is rejected when the node is built. The spec rejects the
input.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import resource
import sys

try:
    import numpy as np
    import openvino as ov
    import openvino.opset3 as ops
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

resource.setrlimit(resource.RLIMIT_AS, (6 * 2**30, 6 * 2**30))  # a memory cap, as the suite's workers have
print("openvino", ov.__version__)
target = ov.op.Constant(np.array([2, 2**32 + 3], np.int64))
d = ops.parameter([3], np.float32)
try:
    ops.broadcast(d, target, ov.op.Constant(np.array([1], np.int64)), "EXPLICIT")
    print("axes_mapping Constant: ACCEPTED when built")
except RuntimeError:
    print("axes_mapping Constant: rejected when built")
a = ops.parameter([1], np.int64)
node = ops.broadcast(d, target, a, "EXPLICIT")
bug = False
try:
    out = ov.Core().compile_model(ov.Model([node], [d, a]), "CPU")([np.ones(3, np.float32), np.array([1])])[0]
    bug = True
    print("axes_mapping Parameter: ACCEPTED, output shape", out.shape)
except RuntimeError as e:
    message = " ".join(str(e).split())
    bug = "allocat" in message.lower()
    print("axes_mapping Parameter: failed at compile or infer:", message[-150:])
print("spec: rejected (3 against 2**32 + 3)")
print("the bug shows: the output is allocated before the input is checked" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
