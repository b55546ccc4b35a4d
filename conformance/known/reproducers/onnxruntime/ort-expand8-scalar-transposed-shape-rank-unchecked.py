"""ort-expand8-scalar-transposed-shape-rank-unchecked (conformance/known/onnxruntime.yaml)

ONNX Expand-8 refuses a `shape` that is not 1-D when the session is created ("'shape' input must be 1D tensor"), but
not where its data is the output of a Transpose of a scalar (a Transpose without perm, as exporters write it for a
rank-0 tensor): the data's shape is then not known to shape inference, which checks the shape's rank only with both
input shapes known, and the CPU kernel takes the values of a shape of any rank (expand.cc). A scalar expanded by the
2-D shape [[2, 3]] gives (2, 3). The spec (and ONNX's Expand) takes a 1-D shape only.

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

print("onnxruntime", ort.__version__)
bug = False
for transposed in (False, True):
    nodes = [helper.make_node("Transpose", ["x"], ["data"])] if transposed else []
    nodes.append(helper.make_node("Expand", ["data" if transposed else "x", "shape"], ["y"]))
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, []),
                                           helper.make_tensor_value_info("shape", TensorProto.INT64, [1, 2])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 8)], ir_version=8)
    try:
        session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        out = session.run(None, {"x": np.array(1.0, np.float32), "shape": np.array([[2, 3]], np.int64)})[0]
        got = f"ACCEPTED, output shape {out.shape}"
        bug |= transposed
    except Exception as e:  # noqa: BLE001 -- onnxruntime's own exception types
        got = f"refused ({str(e).splitlines()[0][:80]})"
    print(f"Expand-8 of a scalar{' after a Transpose' if transposed else ''}, shape [[2, 3]] (2-D): {got}")
print("spec: refused (the shape is not 1-D)")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
