"""ov-onnx-cpu-bitshift-right-u32-divided-as-int32-in-f32 (conformance/known/openvino-onnx.yaml)

ONNX BitShift RIGHT of u32 graph inputs: the frontend builds x / Power(2, y) (bitshift.cpp), the CPU plugin runs
u32 as i32, and its i32 Divide converts both operands to f32, divides and rounds toward zero. A value at or above
2**31 is read as negative and one beyond 2**24 loses its low bits: 0xffffffff >> 1 gives 0, 0x13a3ff26 >> 0 gives
0x13a3ff20. The spec (a shift): 0x7fffffff and 0x13a3ff26.

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


x = np.array([0xFFFFFFFF, 0x13A3FF26, 0x80000001, 7], np.uint32)
y = np.array([1, 0, 1, 1], np.uint32)
out = run("BitShift", [x, y], False, direction="RIGHT")
bug = not np.array_equal(out, x >> y)
print(f"BitShift RIGHT of u32 graph inputs {[hex(v) for v in x.tolist()]} >> {y.tolist()}: got "
      f"{[hex(v) for v in out.tolist()]}; spec: {[hex(v) for v in (x >> y).tolist()]}")
print("the bug shows: u32 right shifts are divided as int32 in f32" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
