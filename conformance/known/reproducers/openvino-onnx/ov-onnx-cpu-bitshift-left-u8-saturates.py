"""ov-onnx-cpu-bitshift-left-u8-saturates (conformance/known/openvino-onnx.yaml)

ONNX BitShift LEFT of u8 values whose shift overflows 8 bits gives 255: the frontend builds x * Power(2, y)
(bitshift.cpp), and the CPU plugin computes the u8 Multiply in f32 and stores the product to u8 with saturation.
The spec (ONNX BitShift, a shift): the high bits are dropped, 255 << 1 is 254 and 13 << 4 is 208.

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


def run(op, arrays, as_initializers, **attributes):
    """One ONNX node of opset 18 over the arrays (graph inputs or initializers), run on the CPU plugin."""
    names = [f"x{k}" for k in range(len(arrays))]
    inits = [numpy_helper.from_array(a, n) for a, n in zip(arrays, names, strict=True)] if as_initializers else []
    inputs = [] if as_initializers else [
        helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), list(a.shape))
        for a, n in zip(arrays, names, strict=True)]
    out_type = helper.np_dtype_to_tensor_dtype(arrays[-1].dtype)
    graph = helper.make_graph([helper.make_node(op, names, ["y"], **attributes)], "g", inputs,
                              [helper.make_tensor_value_info("y", out_type, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    compiled = core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU")
    return compiled([] if as_initializers else list(arrays))[0]


x = np.array([255, 13, 3, 128], np.uint8)
y = np.array([1, 4, 2, 1], np.uint8)
spec = x << y
bug = False
for as_initializers in (False, True):
    out = run("BitShift", [x, y], as_initializers, direction="LEFT")
    bug |= not np.array_equal(out, spec)
    print(f"BitShift LEFT {x.tolist()} << {y.tolist()} as {'initializers' if as_initializers else 'graph inputs'}: "
          f"got {out.tolist()}; spec: {spec.tolist()}")
print("the bug shows: u8 left shifts saturate at 255" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
