"""ov-onnx-cpu-constant-data-saturated-to-int32 (conformance/known/openvino-onnx.yaml)

An ONNX Expand of u32 or u64 data given as an initializer returns every value above 2**31 - 1 as 2**31 - 1: the CPU
plugin runs these types in int32 and converts a Constant's values with ConvertPrecision's convert_value(), which
saturates. The same u32 data as a graph input comes back whole. The spec: the output replicates the data.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import openvino as ov
    from onnx import helper, numpy_helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

core = ov.Core()
print("openvino", ov.__version__)
bug = False
for x in (np.array([0, 2**32 - 1, 2**31, 3], np.uint32), np.array([0, 2**64 - 1, 2**31, 3], np.uint64)):
    elem = helper.np_dtype_to_tensor_dtype(x.dtype)
    graph = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g", [],
                              [helper.make_tensor_value_info("y", elem, None)],
                              [numpy_helper.from_array(x, "x"), numpy_helper.from_array(np.array([2, 4], np.int64),
                                                                                         "shape")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    out = core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU")([])[0]
    bug |= out[1].tolist() != x.tolist()
    print(f"{x.dtype} data initializer: got {out[1].tolist()}; spec: {x.tolist()}")
print("the bug shows: constant values beyond int32 saturate" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
