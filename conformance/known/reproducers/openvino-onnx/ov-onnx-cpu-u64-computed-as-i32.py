"""ov-onnx-cpu-u64-computed-as-i32 (conformance/known/openvino-onnx.yaml)

u64 data loses its upper 32 bits (2**32 + 3 comes back as 3; up to OpenVINO 2025.3 values clamp to 2**31 - 1
instead): the CPU plugin's precision map converts u64 to i32. Only values at or above 2**32 differ on 2025.4 and
later. Expand's output is the data replicated.

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

x = np.array([2**64 - 1, 2**32 + 3, 2**63 + 1, 5], np.uint64)
t = helper.np_dtype_to_tensor_dtype(x.dtype)
g = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g",
                      [helper.make_tensor_value_info("x", t, [4])], [helper.make_tensor_value_info("y", t, None)],
                      [numpy_helper.from_array(np.array([2, 4], np.int64), "shape")])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
out = np.ascontiguousarray(ov.Core().compile_model(ov.Core().read_model(m.SerializeToString(), b""), "CPU")([x])[0])
print("openvino", ov.__version__, "ONNX Expand, data (4,) u64, shape [2, 4] (initializer)")
print("got  ", out[1].tolist())
print("spec:", x.tolist())
wide = x >= 2**32
bug = not np.array_equal(out[:, wide], np.broadcast_to(x[wide], (2, int(wide.sum()))))
print("the bug shows: u64 values at or above 2**32 change" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
