"""tract-shape-values-cast-to-tdim-through-int32 (conformance/known/tract.yaml)

tract reads a constant Expand shape by casting it to its dimension type TDim (MultiBroadcastTo::wire, hir/src/ops/
array/broadcast.rs), and Tensor::cast_to_dt casts any number to TDim through i32 (data/src/tensor.rs: `let ints =
self.cast_to::<i32>()`, a wrapping `as` cast): a shape value beyond int32 keeps its low 32 bits. Data (1,) with shape
[2**32 + 7] gives (7,); with bit 31 set the value turns negative and tract panics across its C API (abort).

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

print("tract", tract.version())
shape = np.array([2**32 + 7], np.int64)
g = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g",
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                      [numpy_helper.from_array(shape, "shape")])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
with tempfile.TemporaryDirectory() as d:
    save(m, os.path.join(d, "m.onnx"))
    model = tract.onnx().load(os.path.join(d, "m.onnx"))
try:
    typed = model.into_model()
except tract.TractError as e:
    print("refused:", " ".join(str(e).split())[:200])
    sys.exit(1)
declared = typed.output_fact(0).dump()
print(f"Expand-13, data (1,), shape initializer [2**32 + 7]: tract declares the output {declared}; "
      "spec: (4294967303,)")
bug = declared.split(",")[0] == "7"
print("the bug shows: the shape value is cut to its low 32 bits" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
