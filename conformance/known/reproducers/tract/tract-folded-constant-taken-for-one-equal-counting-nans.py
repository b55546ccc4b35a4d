"""tract-folded-constant-taken-for-one-equal-counting-nans (conformance/known/tract.yaml)

When tract wires a Const node into a typed model, it reuses an existing Const node that is equal to it
(TypedModel::wire_node, core/src/model/typed.rs), and tract's Tensor equality counts any NaN equal to any NaN and
-0.0 equal to +0.0 (Tensor::eq_dt, float_eq_t, data/src/tensor.rs). A constant folded from another one (here a
Transpose of an initializer) that differs from it only in which NaN payloads, or which signs of zero, stand where
is replaced by the other: the Transpose of [[NaN 1, NaN 2], [NaN 3, NaN 4]] comes back untransposed. A Transpose
of [[1, 2], [3, 4]] is right. The ONNX Transpose moves elements: the output holds each input element's bits.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import os
import sys
import tempfile

try:
    import numpy as np
    import tract
    from onnx import TensorProto, helper, numpy_helper, save
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)


def transpose_of_initializer(c: np.ndarray) -> np.ndarray:
    g = helper.make_graph([helper.make_node("Transpose", ["c"], ["out"], perm=[1, 0])], "g", [],
                          [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)],
                          [numpy_helper.from_array(c, "c")])
    with tempfile.TemporaryDirectory() as d:
        save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=7),
             os.path.join(d, "m.onnx"))
        model = tract.onnx().load(os.path.join(d, "m.onnx"))
    return model.into_model().into_runnable().run([])[0].to_numpy()


print("tract", tract.version())
wrong = []
for name, bits in (("NaNs of four payloads", [0x7FC00001, 0x7FC00002, 0x7FC00003, 0x7FC00004]),
                   ("zeros of both signs", [0x80000000, 0, 0x80000000, 0]),
                   ("1 to 4 (control)", [0x3F800000, 0x40000000, 0x40400000, 0x40800000])):
    c = np.array(bits, np.uint32).view(np.float32).reshape(2, 2)
    got = transpose_of_initializer(c).view(np.uint32)
    want = np.ascontiguousarray(c.T).view(np.uint32)
    same = got.shape == want.shape and bool(np.array_equal(got, want))
    print(f"Transpose of {name}: got {[hex(v) for v in got.ravel()]}, spec {[hex(v) for v in want.ravel()]}:",
          "right" if same else "WRONG")
    if not same:
        wrong.append(name)
if "1 to 4 (control)" in wrong:
    print("the control is wrong too: not this bug")
    sys.exit(1)
print("the bug shows: " + "; ".join(wrong) + " came back untransposed" if wrong else "the bug does not show")
sys.exit(0 if wrong else 1)
