"""tract-expand-shape-input-refused (conformance/known/tract.yaml)

ONNX Expand with its `shape` a graph input (fed at run time) is refused when tract types the model: the Expand's
translation to tract's typed MultiBroadcastTo (hir/src/ops/array/broadcast.rs) needs the shape's values as a
constant, or an output shape that inference made concrete, and bails with "shape input is variable, of variable
length (output can not have variable rank)" even though the input's length is declared. ONNX Expand takes its shape
as any int64 input, and the Broadcast-3 spec's target_shape is an input like the data.

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

print("tract", tract.version())
inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3]),
          helper.make_tensor_value_info("shape", TensorProto.INT64, [2])]
g = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g", inputs,
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
with tempfile.TemporaryDirectory() as d:
    save(m, os.path.join(d, "m.onnx"))
    model = tract.onnx().load(os.path.join(d, "m.onnx"))
try:
    runnable = model.into_model().into_runnable()
    y = runnable.run([np.arange(3, dtype=np.float32), np.array([2, 3], np.int64)])[0].to_numpy()
    print(f"Expand-13, data (3,), shape [2, 3] fed at run time: output shape {y.shape}; spec: (2, 3)")
    sys.exit(0 if y.shape != (2, 3) else 1)
except tract.TractError as e:
    print("Expand-13, data (3,), shape [2, 3] fed at run time: REFUSED:", " ".join(str(e).split())[:200])
    print("spec: (2, 3). The bug shows: a valid model with a run-time shape is refused")
    sys.exit(0)
