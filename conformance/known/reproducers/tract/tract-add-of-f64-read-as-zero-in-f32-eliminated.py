"""tract-add-of-f64-read-as-zero-in-f32-eliminated (conformance/known/tract.yaml)

tract removes Add(x, c) when the constant c holds one value equal to 0 (declutter_neutral, core/src/ops/binary.rs),
but compares it with 0 in f32 (Tensor::close_enough casts both to f32): an f64 c of 2.2250738585072014e-308 (f64's
smallest normal) is 0 in f32, so the Add is dropped and x is returned. With x = -0.0 the output is -0.0, where
-0.0 + 2.2250738585072014e-308 is 2.2250738585072014e-308. The model is the suite's Add context:
Add(x, Expand(c, Shape(x))) with c an initializer. (A +0.0 c is dropped too, in any float type: -0.0 + +0.0 is
+0.0 by IEEE 754, tract gives -0.0.)

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


def add_context(c: np.ndarray, x: np.ndarray, elem: int) -> np.ndarray:
    nodes = [helper.make_node("Shape", ["x"], ["s"]), helper.make_node("Expand", ["c", "s"], ["e"]),
             helper.make_node("Add", ["x", "e"], ["z"])]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", elem, list(x.shape))],
                          [helper.make_tensor_value_info("z", elem, None)], [numpy_helper.from_array(c, "c")])
    with tempfile.TemporaryDirectory() as d:
        save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=7),
             os.path.join(d, "m.onnx"))
        model = tract.onnx().load(os.path.join(d, "m.onnx"))
    return model.into_model().into_runnable().run([x])[0].to_numpy()


print("tract", tract.version())
tiny = np.array(np.finfo(np.float64).tiny)
x = np.full((2, 3), -0.0)
z = add_context(tiny, x, TensorProto.DOUBLE)
print(f"Add(x of -0.0, Expand(f64 {tiny!r}, Shape(x))): {z.ravel()[:3].tolist()}...; spec: {(x + tiny).ravel()[:3]}")
z32 = add_context(np.array(0.0, np.float32), x.astype(np.float32), TensorProto.FLOAT)
print(f"Add(x of -0.0, Expand(f32 +0.0, Shape(x))): {z32.ravel()[:3].tolist()}...; IEEE 754: +0.0")
bug = bool(np.any(z.view(np.uint64) != (x + tiny).view(np.uint64)))
print("the bug shows: the Add was removed" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
