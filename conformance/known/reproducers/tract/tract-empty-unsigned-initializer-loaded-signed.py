"""tract-empty-unsigned-initializer-loaded-signed (conformance/known/tract.yaml)

An empty uint32 (or uint64) initializer, as onnx.numpy_helper writes it (no raw_data: there are no bytes), is
loaded by tract's load_tensor (onnx/src/tensor.rs) from int32_data (int64_data) as an i32 (i64) tensor: the Expand
of data of shape (0,) then gives an empty int32 (int64) output, where the spec keeps the data's type.

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
bug = False
for dtype, elem in ((np.uint32, TensorProto.UINT32), (np.uint64, TensorProto.UINT64)):
    g = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g", [],
                          [helper.make_tensor_value_info("y", elem, None)],
                          [numpy_helper.from_array(np.zeros((0,), dtype), "x"),
                           numpy_helper.from_array(np.array([2, 0], np.int64), "shape")])
    with tempfile.TemporaryDirectory() as d:
        save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=7),
             os.path.join(d, "m.onnx"))
        model = tract.onnx().load(os.path.join(d, "m.onnx"))
    y = model.into_model().into_runnable().run([])[0].to_numpy()
    bug = bug or y.dtype != dtype
    print(f"Expand-13 of an empty {np.dtype(dtype)} initializer to [2, 0]: output {y.dtype} {y.shape}; "
          f"spec: {np.dtype(dtype)} (2, 0)")
print("the bug shows: the empty unsigned initializer is loaded signed" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
