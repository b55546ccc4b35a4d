"""ov-static-output-allocated-before-rejection (conformance/known/openvino.yaml)

An invalid Constant target_shape with a value beyond int32 (data (3,) to [2**32 + 3]) is not rejected when the data's
dimensions are dynamic: shape inference cannot compare them, the node declares the static target shape, and the CPU
plugin allocates that output (16 GiB) while compile_model builds its graph, before the node's run-time check. With a
memory cap, as the suite's workers have, the allocation fails; with static data the input is rejected when the node is
built. The spec rejects the input.

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
target = ov.op.Constant(np.array([2**32 + 3], np.int64))
try:
    ops.broadcast(ops.parameter([3], np.float32), target)
    print("static data (3,): ACCEPTED when built")
except RuntimeError:
    print("static data (3,): rejected when built")
d = ops.parameter([-1], np.float32)
node = ops.broadcast(d, target)
print("dynamic data (?,): declared", node.get_output_partial_shape(0))
bug = False
try:
    out = ov.Core().compile_model(ov.Model([node], [d]), "CPU")([np.ones(3, np.float32)])[0]
    bug = True
    print("ACCEPTED, output shape", out.shape)
except RuntimeError as e:
    message = " ".join(str(e).split())
    bug = "allocat" in message.lower()
    print("failed at compile or infer:", message[-150:])
print("spec: rejected (3 against 2**32 + 3)")
print("the bug shows: the output is allocated before the input is checked" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
