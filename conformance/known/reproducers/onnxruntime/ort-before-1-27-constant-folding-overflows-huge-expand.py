"""ort-before-1-27-constant-folding-overflows-huge-expand (conformance/known/onnxruntime.yaml)

Before ONNX Runtime 1.27, creating a session (ORT_ENABLE_ALL) for an Expand of two initializers, data (2,) and shape
[2**62, 1], fails with "Integer overflow": ConstantFolding runs the Expand kernel on the constant inputs, and the size
of its 2**63-element output overflows. The model is valid: the spec (and ONNX Expand) gives shape (2**62, 2), and
with ORT_DISABLE_ALL the session is created. 1.27 skips folding outputs above 1 GiB (PR 28055).

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

graph = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g", [],
                          [helper.make_tensor_value_info("y", TensorProto.UINT8, None)],
                          [numpy_helper.from_array(np.zeros((2,), np.uint8), "x"),
                           numpy_helper.from_array(np.array([2**62, 1], np.int64), "shape")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
print("onnxruntime", ort.__version__)
bug = False
for level in ("ORT_ENABLE_ALL", "ORT_DISABLE_ALL"):
    options = ort.SessionOptions()
    options.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
    try:
        ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
        got = "session created"
    except Exception as e:
        got = "session refused: " + str(e)[-100:]
        bug |= level == "ORT_ENABLE_ALL"
    print(f"Expand(initializer (2,) u8, shape initializer [2**62, 1]), {level}: {got}; "
          "spec: a valid model (output (2**62, 2))")
print("the bug shows: the session folds the huge output" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
