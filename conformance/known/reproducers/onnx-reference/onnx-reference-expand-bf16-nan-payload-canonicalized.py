"""onnx-reference-expand-bf16-nan-payload-canonicalized (conformance/known/onnx-reference.yaml)

bf16 data holding a NaN with a payload (0x7fc1) comes back from ONNX's ReferenceEvaluator as the canonical NaN
0x7fc0: the evaluator computes Expand as data * numpy.ones(shape, data.dtype), and ml_dtypes' bfloat16 multiply
works in float32 and converts back with a conversion that maps every NaN to 0x7fc0. numpy.broadcast_to keeps the
bits. Expand's output is the input replicated.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import ml_dtypes
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    from onnx.reference import ReferenceEvaluator
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

x = np.array([0x7FC1, 0x3F80], np.uint16).view(ml_dtypes.bfloat16)
g = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g",
                      [helper.make_tensor_value_info("x", TensorProto.BFLOAT16, [2])],
                      [helper.make_tensor_value_info("y", TensorProto.BFLOAT16, None)],
                      [numpy_helper.from_array(np.array([2, 2], np.int64), "shape")])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
outputs = ReferenceEvaluator(m).run(None, {"x": x})
assert isinstance(outputs, list)
y = outputs[0]
got, want = y.view(np.uint16).ravel().tolist(), np.tile(x.view(np.uint16), 2).tolist()
print("onnx", onnx.__version__, "ml_dtypes", ml_dtypes.__version__)
print(f"Expand-13 of bf16 [0x7fc1, 0x3f80] to shape [2, 2]: bits {[hex(v) for v in got]}; "
      f"spec: {[hex(v) for v in want]}")
print("x * ones bits:", [hex(v) for v in (x * np.ones([2, 2], ml_dtypes.bfloat16)).view(np.uint16).ravel()])
bug = got != want
print("the bug shows: the NaN payload is lost" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
