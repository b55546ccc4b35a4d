"""onnx-reference-before-1-19-bf16-initializer-own-type (conformance/known/onnx-reference.yaml)

Before onnx 1.19, ReferenceEvaluator loads a BFLOAT16 initializer as onnx's own uint16-based stand-in type rather
than ml_dtypes.bfloat16, so an Expand of it returns that type; up to 1.17 it also reads only int32_data, so an
initializer stored in raw_data (as numpy_helper.from_array writes it) comes back as uninitialized memory. The spec:
the output is the data, bfloat16 [1.0, 2.0, 3.0] (bits 0x3f80, 0x4000, 0x4040), replicated.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import ml_dtypes
    import numpy as np
    import onnx
    from onnx import TensorProto, helper
    from onnx.reference import ReferenceEvaluator
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

bits = np.array([0x3F80, 0x4000, 0x4040], np.uint16)  # bfloat16 1.0, 2.0, 3.0
x = helper.make_tensor("x", TensorProto.BFLOAT16, [3], bits.tobytes(), raw=True)
graph = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g", [],
                          [helper.make_tensor_value_info("y", TensorProto.BFLOAT16, None)],
                          [x, helper.make_tensor("shape", TensorProto.INT64, [2], [2, 3])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
y = np.asarray(ReferenceEvaluator(model).run(None, {})[0])  # type: ignore[index]
got = [hex(v) for v in y.view(np.uint16).reshape(-1)[:3]]
print("onnx", onnx.__version__)
print(f"Expand(bf16 initializer (raw_data) {[hex(v) for v in bits]}, shape [2, 3]): got dtype {y.dtype!r}, "
      f"bits {got}; spec: dtype bfloat16, bits {[hex(v) for v in bits]}")
bug = y.dtype != np.dtype(ml_dtypes.bfloat16) or got != [hex(v) for v in bits]
print("the bug shows: the initializer is not read as bfloat16" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
