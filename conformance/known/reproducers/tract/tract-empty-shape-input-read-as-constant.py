"""tract-empty-shape-input-read-as-constant (conformance/known/tract.yaml)

An empty graph input is a constant to tract: TypedModel::wire_node (core/src/model/typed.rs) gives every output
fact with a concrete shape of no element a constant value (a tensor of zeros of that shape), a Source node
included. An Expand whose `shape` is a graph input declared [0] then takes the constant branch of its translation
(hir/src/ops/array/broadcast.rs) and is never type-checked: with the shape input int8 (or any integer type other
than int64) the model runs and gives the data's shape. ONNX Expand's `shape` is tensor(int64) only: the model is
invalid and should be refused.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import os
import sys
import tempfile

try:
    import numpy as np
    import tract
    from onnx import TensorProto, helper, save
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

os.environ.setdefault("RUST_LIB_BACKTRACE", "0")
print("tract", tract.version())
inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 1]),
          helper.make_tensor_value_info("shape", TensorProto.INT8, [0])]
g = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g", inputs,
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
with tempfile.TemporaryDirectory() as d:
    save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=7), os.path.join(d, "m.onnx"))
    model = tract.onnx().load(os.path.join(d, "m.onnx"))
try:
    y = model.into_model().into_runnable().run([np.ones((2, 1), np.float32), np.zeros(0, np.int8)])[0].to_numpy()
except tract.TractError as e:
    print("refused:", " ".join(str(e).split())[:200])
    sys.exit(1)
print(f"Expand-13, data (2, 1), an int8 shape input of shape [0] fed []: ACCEPTED, output {y.shape}; "
      "spec: refused (Expand's shape is tensor(int64))")
sys.exit(0)
