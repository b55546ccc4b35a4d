"""tract-unknown-input-dimension-refused (conformance/known/tract.yaml)

An ONNX graph input with an unknown dimension (no dim_value, no dim_param) is refused when tract types the model:
Source::to_typed (hir/src/ops/source.rs) bails with "Source node without a determined fact". ONNX allows unknown
dimensions, and the Broadcast spec declares the output's shape with that dimension unknown.

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
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, 8, 6, 1])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                      [numpy_helper.from_array(np.array([8, 6, 4], np.int64), "shape")])
with tempfile.TemporaryDirectory() as d:
    save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=7), os.path.join(d, "m.onnx"))
    model = tract.onnx().load(os.path.join(d, "m.onnx"))
try:
    fact = model.into_model().output_fact(0).dump()
except tract.TractError as e:
    print("Expand-13, data (?, 8, 6, 1), shape [8, 6, 4]: REFUSED:", " ".join(str(e).split())[:200])
    print("spec: (?, 8, 6, 4). The bug shows")
    sys.exit(0)
print(f"declared {fact}; spec: (?, 8, 6, 4)")
sys.exit(1)
