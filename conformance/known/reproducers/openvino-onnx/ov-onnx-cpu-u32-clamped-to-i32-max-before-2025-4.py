"""ov-onnx-cpu-u32-clamped-to-i32-max-before-2025-4 (conformance/known/openvino-onnx.yaml; OpenVINO 2025.0 to 2025.3)

The CPU plugin runs u32 in int32; up to OpenVINO 2025.3 the u32 -> i32 -> u32 round trip clamps: every value above
2**31 - 1, u32 max included, comes back as 2**31 - 1 (ov-onnx-cpu-u64-clamped-to-i32-max for u32). 2026.4.1 gives
the values back. Expand's output is the data replicated.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import openvino as ov
    from onnx import helper, numpy_helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

x = np.array([2**32 - 1, 2**31 + 3, 2**31, 5], np.uint32)
t = helper.np_dtype_to_tensor_dtype(x.dtype)
g = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g",
                      [helper.make_tensor_value_info("x", t, [4])], [helper.make_tensor_value_info("y", t, None)],
                      [numpy_helper.from_array(np.array([2, 4], np.int64), "shape")])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
out = np.ascontiguousarray(ov.Core().compile_model(ov.Core().read_model(m.SerializeToString(), b""), "CPU")([x])[0])
print("openvino", ov.__version__, "ONNX Expand, data (4,) u32, shape [2, 4] (initializer)")
print("got  ", out[1].tolist())
print("spec:", x.tolist())
bug = out[1].tolist() == [2**31 - 1, 2**31 - 1, 2**31 - 1, 5]
print("the bug shows: values above 2**31 - 1 are clamped" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
