"""ov-onnx-expand-shape-type-unchecked-convert-model (conformance/known/openvino-onnx.yaml)

The unchecked shape type of ov-onnx-expand-shape-type-unchecked, with the shape computed (Cast of Shape of a graph
input) and the model given to openvino.convert_model: an Expand whose `shape` is uint8, uint16, int32 or uint32 is
converted and run, data (2, 1) with shape [1, 3] gives (2, 3). ONNX Expand's `shape` is tensor(int64) only
(onnx.checker with full_check rejects the model). (int8, int16 and uint64 shapes are refused by convert_model, for
another reason: the bounds of the Cast, evaluated by its MOC transformations, come out negative; a rejection, as the
spec asks.)

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import os
import sys
import tempfile

try:
    import numpy as np
    import onnx
    import openvino as ov
    from onnx import TensorProto, helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)


def model(shape_type):
    nodes = [helper.make_node("Shape", ["shape_of"], ["shape_i64"]),
             helper.make_node("Cast", ["shape_i64"], ["shape"], to=shape_type),
             helper.make_node("Expand", ["x", "shape"], ["y"])]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 1]),
                                       helper.make_tensor_value_info("shape_of", TensorProto.UINT8, [1, 3])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)


def attempt(f):
    try:
        return f"ACCEPTED, output shape {f().shape}"
    except Exception as e:
        return "rejected: " + " ".join(str(e).split())[-100:]


def checked(m):
    onnx.checker.check_model(m, full_check=True)
    return np.empty(0)


def converted_and_run(m):
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "expand.onnx")
        onnx.save(m, path)
        compiled = ov.Core().compile_model(ov.convert_model(path), "CPU")
        return compiled([np.ones((2, 1), np.float32), np.zeros((1, 3), np.uint8)])[0]


print("openvino", ov.__version__, "onnx", onnx.__version__)
bug = True
for name in ("UINT8", "UINT16", "INT32", "UINT32"):
    m = model(getattr(TensorProto, name))
    got = attempt(lambda m=m: converted_and_run(m))
    bug &= got.startswith("ACCEPTED")
    print(f"Expand, data (2, 1), shape [1, 3] as a computed {name.lower()} (convert_model): OpenVINO: {got}; "
          f"spec: rejected (onnx.checker, full_check: {attempt(lambda m=m: checked(m))})")
print("the bug shows: a shape that is not int64 is accepted" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
