"""ort-add-f16-nan-payload-canonicalized (conformance/known/onnxruntime.yaml)

ONNX Runtime's CPU Add of float16: -0.0 + NaN with payload 0x7e01 gives the quiet NaN 0x7e00, where IEEE addition
(and numpy's float16 addition) returns the NaN operand with its payload. An Expand alone keeps the payload; the
suite's Add context, Add(x, Expand(y, Shape(x))) with x -0.0, shows the Add's change.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import onnxruntime as ort
    from onnx import TensorProto, helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

graph = helper.make_graph([helper.make_node("Add", ["x", "y"], ["z"])], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [2]),
                           helper.make_tensor_value_info("y", TensorProto.FLOAT16, [2])],
                          [helper.make_tensor_value_info("z", TensorProto.FLOAT16, [2])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
x = np.full(2, -0.0, np.float16)
y = np.array([0x7E01, 0x3C00], np.uint16).view(np.float16)  # NaN with payload 1, and 1.0
got = session.run(None, {"x": x, "y": y})[0].view(np.uint16)
want = (x + y).view(np.uint16)
print("onnxruntime", ort.__version__)
print(f"Add(-0.0, [NaN 0x7e01, 1.0]) in float16: {[hex(v) for v in got]}; numpy (IEEE): {[hex(v) for v in want]}")
bug = got.tolist() != want.tolist()
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
