"""ov-param-target-int64-max-allocated-before-rejection (conformance/known/openvino.yaml; OpenVINO 2025.0 to 2025.3)

Up to 2025.3, bidirectional data (3,) with target_shape [2**63 - 1] fed at run time is not rejected: the CPU plugin
narrows the i64 target to i32 by clamping it to [2**31 - 1], and ConvertBroadcast3's data * Broadcast-1(Constant
[1], target_shape) allocates 2**31 - 1 floats (8 GB) before the Multiply's shape check; under a memory cap the
allocation fails. From 2025.4 the narrowing wraps to -1, which is rejected. The spec rejects 3 against 2**63 - 1.

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
d, t = ops.parameter([3], np.float32), ops.parameter([1], np.int64)
c = ov.Core().compile_model(ov.Model([ops.broadcast(d, t, broadcast_spec="BIDIRECTIONAL")], [d, t]), "CPU")
try:
    got, bug = f"ACCEPTED, output {c([np.ones(3, np.float32), np.array([2**63 - 1], np.int64)])[0].shape}", False
except (RuntimeError, MemoryError) as e:
    message = " ".join(str(e).split())
    got, bug = f"{type(e).__name__}: {message[-120:]}", "allocate" in message.lower() or isinstance(e, MemoryError)
print(f"openvino {ov.__version__}, bidirectional, data (3,), target_shape [2**63 - 1] (Parameter): {got}; "
      "spec: rejected (3 against 2**63 - 1)")
print("the bug shows: it runs out of memory instead of rejecting" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
