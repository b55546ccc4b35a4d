"""tract-shape-value-cut-to-int32-facing-data-dimension-refused (conformance/known/tract.yaml)

tract casts a constant Expand shape to its dimension type through int32 (Tensor::cast_to_dt, data/src/tensor.rs):
2**31 becomes -2**31. Facing a data dimension of 2**31 (an empty data, its other dimension 0) the pair no longer
broadcasts, and typing the model fails ("Can not broadcast 2147483648 against 18446744071562067968"), where the
bidirectional rule (ONNX Expand) gives the data's shape (2**31, 0).

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
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2**31, 0])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                      [numpy_helper.from_array(np.array([2**31, 0], np.int64), "shape")])
with tempfile.TemporaryDirectory() as d:
    save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=7), os.path.join(d, "m.onnx"))
    model = tract.onnx().load(os.path.join(d, "m.onnx"))
try:
    y = model.into_model().into_runnable().run([np.zeros((2**31, 0), np.float32)])[0].to_numpy()
except tract.TractError as e:
    print("Expand-13, data (2**31, 0), shape initializer [2**31, 0]: REFUSED:", " ".join(str(e).split())[:300])
    print("spec: (2147483648, 0). The bug shows: a valid model is refused")
    sys.exit(0)
print(f"output {y.shape}; spec: (2147483648, 0)")
sys.exit(0 if y.shape != (2**31, 0) else 1)
