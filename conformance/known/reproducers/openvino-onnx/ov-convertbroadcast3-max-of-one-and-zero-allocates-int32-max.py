"""ov-convertbroadcast3-max-of-one-and-zero-allocates-int32-max (conformance/known/openvino.yaml)

Bidirectional Broadcast-3 with a Constant target_shape of a value beyond int32 beside a 0 that faces a data dimension
1: data (1,) with target_shape [2**31, 0] has no element to allocate, but ConvertBroadcast3 turns the 0 into a 1
(max(1, 0)) and the saturated 2**31 into 2**31 - 1, so compile_model allocates a static output of 2**31 - 1
elements: 8 GiB for f32, which fails under a memory cap as the suite's workers have. The spec's output is
(2147483648, 0), empty.

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
d = ops.parameter([1], np.float32)
node = ops.broadcast(d, ov.op.Constant(np.array([2**31, 0], np.int64)), broadcast_spec="BIDIRECTIONAL")
print("declared", node.get_output_partial_shape(0))
try:
    got = ov.Core().compile_model(ov.Model([node], [d]), "CPU")([np.ones(1, np.float32)])[0].shape
    bug = tuple(got) != (2**31, 0)
except RuntimeError as e:
    message = " ".join(str(e).split())
    got, bug = "FAILED: " + message[-90:], "allocate" in message
print(f"bidirectional, data f32 (1,), target_shape Constant [2**31, 0]: {got}; spec: (2147483648, 0)")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
