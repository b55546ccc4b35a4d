"""tract-expand-shape-type-unchecked (conformance/known/tract.yaml)

ONNX Expand's `shape` input is tensor(int64) only; tract runs an Expand whose shape initializer is int32 (or any
other integer type): its MultiBroadcastTo (hir/src/ops/array/broadcast.rs) constrains the shape's rank only, and
casts the values. The model is invalid ONNX: it should be refused.

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

os.environ.setdefault("RUST_LIB_BACKTRACE", "0")
print("tract", tract.version())
g = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g",
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                      [numpy_helper.from_array(np.array([2, 3], np.int32), "shape")])
with tempfile.TemporaryDirectory() as d:
    save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=7), os.path.join(d, "m.onnx"))
    model = tract.onnx().load(os.path.join(d, "m.onnx"))
try:
    y = model.into_model().into_runnable().run([np.arange(3, dtype=np.float32)])[0].to_numpy()
except tract.TractError as e:
    print("refused:", " ".join(str(e).split())[:200])
    sys.exit(1)
print(f"Expand-13, data (3,), an int32 shape initializer [2, 3]: ACCEPTED, output {y.shape}; "
      "spec: refused (Expand's shape is tensor(int64))")
sys.exit(0)
