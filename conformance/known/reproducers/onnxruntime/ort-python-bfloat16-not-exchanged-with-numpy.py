"""ort-python-bfloat16-not-exchanged-with-numpy (conformance/known/onnxruntime.yaml)

Where ExpandElimination removes a bfloat16 Expand-13 (a constant shape that changes nothing, between
Transposes), the session is created, and ONNX Runtime's Python API then cannot exchange the bfloat16 tensors with
numpy: a bfloat16 feed (ml_dtypes.bfloat16) is refused ("Numpy_type 256 can't be converted to MLDataType") and a
bfloat16 output cannot be returned ("No corresponding Numpy type for Tensor Type"). With ORT_DISABLE_ALL the Expand
stays, and the session cannot be created (no bfloat16 Expand kernel: ort-cpu-no-bfloat16-expand-kernel).

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import ml_dtypes
    import numpy as np
    import onnxruntime as ort
    from onnx import TensorProto as TP
    from onnx import helper, numpy_helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

BF16 = ml_dtypes.bfloat16


def model(data_initializer):
    x = np.array([1.5, -0.0, 3.0], BF16)
    shape = numpy_helper.from_array(np.array([3], np.int64), "shape")  # equals the data's dimension: a no-op
    inits = [shape] + ([numpy_helper.from_array(x.view(np.uint16), "x")] if data_initializer else [])
    if data_initializer:  # numpy_helper stores a uint16 view as UINT16: make it BFLOAT16 with the same bits
        inits[1] = helper.make_tensor("x", TP.BFLOAT16, [3], x.view(np.uint16).tolist(), raw=False)
    inputs = [] if data_initializer else [helper.make_tensor_value_info("x", TP.BFLOAT16, [3])]
    # between two Transposes, as a layout change around an op in a real model
    nodes = [helper.make_node("Transpose", ["x"], ["t"], perm=[0]), helper.make_node("Expand", ["t", "shape"], ["e"]),
             helper.make_node("Transpose", ["e"], ["y"], perm=[0])]
    g = helper.make_graph(nodes, "g", inputs, [helper.make_tensor_value_info("y", TP.BFLOAT16, None)], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=8), x


print("onnxruntime", ort.__version__, "numpy", np.__version__, "ml_dtypes", ml_dtypes.__version__)
refused = []
for data_initializer in (False, True):
    m, x = model(data_initializer)
    try:
        s = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
        out = s.run(None, {} if data_initializer else {"x": x})[0]
        print(f"data {'initializer' if data_initializer else 'input'}: output {out!r}")
    except Exception as e:  # noqa: BLE001
        print(f"data {'initializer' if data_initializer else 'input'}: {type(e).__name__}: {e}")
        refused.append("Numpy_type" in str(e) or "No corresponding Numpy type" in str(e))
print("spec: Expand of (3,) to shape [3] gives the data, [1.5, -0.0, 3.0] in bfloat16")
bug = len(refused) == 2 and all(refused)
print("the bug shows: bfloat16 tensors are not exchanged with numpy" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
