"""onnx-reference-expand-shape-type-unchecked (conformance/known/onnx-reference.yaml)

An Expand whose `shape` is not int64 (here int32, as an initializer or a graph input) is run by ONNX's
ReferenceEvaluator: data (2, 1) with shape [1, 3] gives (2, 3). The evaluator's Expand is data * numpy.ones(shape),
which takes any integer shape, and ReferenceEvaluator does not check the operator's type constraints. ONNX Expand's
`shape` is tensor(int64) only: onnx.checker with full_check rejects the model (as printed).

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


def checked(model):
    onnx.checker.check_model(model, full_check=True)
    return np.empty(0)


def evaluate(model, feeds):
    outputs = ReferenceEvaluator(model).run(None, feeds)
    assert isinstance(outputs, list)
    return outputs[0]


def attempt(f):
    try:
        return f"ACCEPTED, output shape {f().shape}"
    except Exception as e:
        return "rejected: " + " ".join(str(e).split())[-100:]


print("onnx", onnx.__version__)
bug = False
shape = np.array([1, 3], np.int32)
for where in ("initializer", "input"):
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 1])]
    inputs += [helper.make_tensor_value_info("shape", TensorProto.INT32, [2])] if where == "input" else []
    g = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g", inputs,
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
                          [numpy_helper.from_array(shape, "shape")] if where == "initializer" else [])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    feeds = {"x": np.ones((2, 1), np.float32)} | ({"shape": shape} if where == "input" else {})
    checker = attempt(lambda m=m: checked(m))
    got = attempt(lambda m=m, feeds=feeds: evaluate(m, feeds))
    bug |= got.startswith("ACCEPTED")
    print(f"Expand, data (2, 1), shape [1, 3] as an int32 {where}: ReferenceEvaluator: {got}; spec: rejected "
          f"(onnx.checker, full_check: {checker})")
print("the bug shows: an int32 shape is accepted" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
