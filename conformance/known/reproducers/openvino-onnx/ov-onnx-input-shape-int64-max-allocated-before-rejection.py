"""ov-onnx-input-shape-int64-max-allocated-before-rejection
(conformance/known/openvino-onnx.yaml; OpenVINO 2025.0 to 2025.3)

Up to OpenVINO 2025.3, data (3,) with the shape [2**63 - 1] fed as a graph input is not rejected: the CPU plugin
narrows the i64 shape to i32 by clamping it to [2**31 - 1], and ConvertBroadcast3's data * Broadcast-1(Constant [1],
shape) allocates 2**31 - 1 floats (8 GB) before the Multiply's shape check; under a memory cap the allocation
fails. From 2025.4 the narrowing wraps to -1, which is rejected. ONNX Expand must reject 3 against 2**63 - 1.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import resource
import sys

try:
    import numpy as np
    import openvino as ov
    from onnx import TensorProto, helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

resource.setrlimit(resource.RLIMIT_AS, (6 * 2**30, 6 * 2**30))  # a memory cap, as the suite's workers have
g = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g",
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3]),
                       helper.make_tensor_value_info("shape", TensorProto.INT64, [1])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
c = ov.Core().compile_model(ov.Core().read_model(m.SerializeToString(), b""), "CPU")
try:
    got, bug = f"ACCEPTED, output {c([np.ones(3, np.float32), np.array([2**63 - 1], np.int64)])[0].shape}", False
except (RuntimeError, MemoryError) as e:
    message = " ".join(str(e).split())
    got, bug = f"{type(e).__name__}: {message[-120:]}", "allocate" in message.lower() or isinstance(e, MemoryError)
print(f"openvino {ov.__version__}, Expand, data (3,), shape [2**63 - 1] (graph input): {got}; "
      "spec: rejected (3 against 2**63 - 1)")
print("the bug shows: it runs out of memory instead of rejecting" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
