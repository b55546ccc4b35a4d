"""ov-onnx-cpu-i64-computed-as-i32 (conformance/known/openvino-onnx.yaml)

i64 data loses its upper 32 bits (int64 min comes back as 0, max as -1; up to OpenVINO 2025.3 they clamp to the
int32 limits instead): the CPU plugin's precision map converts i64 to i32 around the Broadcast the frontend makes of
Expand. Expand's output is the data replicated, bit for bit.

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

x = np.array([-2**63, 2**63 - 1, 2**31 + 1, 2**53 + 1], np.int64)
t = helper.np_dtype_to_tensor_dtype(x.dtype)
g = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g",
                      [helper.make_tensor_value_info("x", t, [4])], [helper.make_tensor_value_info("y", t, None)],
                      [numpy_helper.from_array(np.array([2, 4], np.int64), "shape")])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
out = np.ascontiguousarray(ov.Core().compile_model(ov.Core().read_model(m.SerializeToString(), b""), "CPU")([x])[0])
print("openvino", ov.__version__, "ONNX Expand, data (4,) i64, shape [2, 4] (initializer)")
print("got  ", out[1].tolist())
print("spec:", x.tolist())
bug = not np.array_equal(out, np.broadcast_to(x, (2, 4)))
print("the bug shows: i64 values are cut to 32 bits" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
