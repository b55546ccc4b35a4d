"""ov-onnx-eliminate-eltwise-add-of-zero-initializer-keeps-negative-zero (conformance/known/openvino-onnx.yaml)

ONNX Add (and Sum) of two initializers, the second all +0.0: -0.0 + +0.0 is +0.0 (IEEE 754), but OpenVINO gives
-0.0, the first initializer unchanged (EliminateEltwise drops an Add of an all-zero Constant). As graph inputs the
sum is computed and +0.0 shows.

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
a = np.array([1.0, -0.0, 2.0], np.float32)
zero = np.zeros((1,), np.float32)
bug = False
for op in ("Add", "Sum"):
    graph = helper.make_graph([helper.make_node(op, ["a", "b"], ["y"])], "g", [],
                              [helper.make_tensor_value_info("y", 1, None)],
                              [numpy_helper.from_array(a, "a"), numpy_helper.from_array(zero, "b")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    out = core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU")([])[0]
    bug |= bool(np.signbit(out[1]))
    print("openvino", ov.__version__, f"{op}(initializer [1, -0.0, 2], initializer [+0.0]) element 1: {out[1]!r} "
          f"(sign bit {bool(np.signbit(out[1]))}); IEEE 754: +0.0")
sys.exit(0 if bug else 1)
