"""ov-onnx-cpu-bitshift-left-u32-initializer-saturated-to-int32 (conformance/known/openvino-onnx.yaml)

ONNX BitShift of u32 initializers whose result is at or above 2**31 gives 0x7fffffff: the node is folded into a
u32 Constant when the model is compiled, and the CPU plugin converts that Constant to i32 with saturation
(ConvertPrecision's convert_value<uint32_t, int32_t>). The same values as graph inputs keep their bits (LEFT: the
i32 Multiply wraps). The spec (a shift): 0xffffffff << 1 is 0xfffffffe, 0xc5b0699f >> 0 is 0xc5b0699f.

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


x = np.array([0xFFFFFFFF, 0xC5B0699F, 3], np.uint32)
y = np.array([1, 0, 4], np.uint32)
bug = False
for direction, spec in (("LEFT", x << y), ("RIGHT", x >> y)):
    for as_initializers in (True, False):
        out = run("BitShift", [x, y], as_initializers, direction=direction)
        bug |= as_initializers and not np.array_equal(out, spec)
        print(f"BitShift {direction} of u32 {'initializers' if as_initializers else 'graph inputs'} "
              f"{[hex(v) for v in x.tolist()]} by {y.tolist()}: got {[hex(v) for v in out.tolist()]}; spec: "
              f"{[hex(v) for v in spec.tolist()]}")
print("the bug shows: u32 results of initializers saturate at 2**31 - 1" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
