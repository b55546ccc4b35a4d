"""onnx-reference-expand-quiets-signalling-nans (conformance/known/onnx-reference.yaml)

f16, f32 and f64 data holding a signalling NaN comes back from ONNX's ReferenceEvaluator with the NaN made quiet:
the evaluator computes Expand as data * numpy.ones(shape, data.dtype), and a multiply of a signalling NaN
delivers a quiet NaN (IEEE 754 6.2). numpy.broadcast_to keeps the bits. Expand's output is the input replicated.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    from onnx.reference import ReferenceEvaluator
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

x = np.array([0x7F800001, 0xFFA00000], np.uint32).view(np.float32)  # signalling NaNs, both signs
g = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g",
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                      [numpy_helper.from_array(np.array([2, 2], np.int64), "shape")])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
outputs = ReferenceEvaluator(m).run(None, {"x": x})
assert isinstance(outputs, list)
y = np.asarray(outputs[0])
got, want = y.view(np.uint32).ravel().tolist(), np.tile(x.view(np.uint32), 2).tolist()
print("onnx", onnx.__version__, "numpy", np.__version__)
print(f"Expand of f32 [0x7f800001, 0xffa00000] to shape [2, 2]: bits {[hex(v) for v in got]}; "
      f"spec: {[hex(v) for v in want]}")
bug = got != want
print("the bug shows: the signalling NaNs come back quiet" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
