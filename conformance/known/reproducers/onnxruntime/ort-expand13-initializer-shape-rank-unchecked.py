"""ort-expand13-initializer-shape-rank-unchecked (conformance/known/onnxruntime.yaml)

Expand-13 with `shape` as an initializer accepts a 2-D shape [[2, 3]] and expands to (2, 3), as if the tensor were
flattened: ONNX's Expand-13 shape inference reads an initializer's values without looking at its rank, and the CPU
kernel (expand.cc) takes all of the shape tensor's values. Expand-8, and Expand-13 with a graph input, reject it.
ONNX Expand's `shape` is a 1-D tensor.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("onnxruntime", ort.__version__)
bug = False
shape = np.array([[2, 3]], np.int64)  # 2-D, but Expand's `shape` input is a 1-D tensor
for opset in (8, 13):
    for init in (True, False):
        inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])]
        inputs += [] if init else [helper.make_tensor_value_info("shape", TensorProto.INT64, [1, 2])]
        g = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g", inputs,
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(shape, "shape")] if init else [])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], ir_version=7)
        try:
            s = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
            y = s.run(None, {"x": np.arange(3, dtype=np.float32)} | ({} if init else {"shape": shape}))[0]
            got, bug = f"ACCEPTED, output shape {y.shape}", bug or (opset == 13 and init)
        except Exception as e:
            got = "rejected: " + " ".join(str(e).split())[-90:]
        print(f"Expand-{opset}, data (3,), shape [[2, 3]] as {'an initializer' if init else 'a graph input'}: {got}; "
              "spec: rejected (shape is 1-D)")
print("the bug shows: a 2-D shape initializer is accepted" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
