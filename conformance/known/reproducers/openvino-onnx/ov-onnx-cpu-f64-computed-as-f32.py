"""ov-onnx-cpu-f64-computed-as-f32 (conformance/known/openvino-onnx.yaml)

f64 data is rounded through f32: a NaN payload is dropped, subnormals flush to 0, +-inf and +-max become
+-FLT_MAX (the CPU plugin's precision map converts f64 to f32). Expand's output is the data replicated.

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

# a NaN with a payload, inf, the smallest subnormal, the largest finite f64
bits = np.array([0x7FF8000000000123, 0x7FF0000000000000, 1, 0x7FEFFFFFFFFFFFFF], np.uint64)
x = bits.view(np.float64)
t = helper.np_dtype_to_tensor_dtype(x.dtype)
g = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g",
                      [helper.make_tensor_value_info("x", t, [4])], [helper.make_tensor_value_info("y", t, None)],
                      [numpy_helper.from_array(np.array([2, 4], np.int64), "shape")])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
out = np.ascontiguousarray(ov.Core().compile_model(ov.Core().read_model(m.SerializeToString(), b""), "CPU")([x])[0])
print("openvino", ov.__version__, "ONNX Expand, data (4,) f64, shape [2, 4] (initializer)")
print("got   bits", [hex(v) for v in out[1].view(np.uint64)])
print("spec: bits", [hex(v) for v in bits])
bug = not np.array_equal(out.view(np.uint64), np.broadcast_to(bits, (2, 4)))
print("the bug shows: f64 values change through f32" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
