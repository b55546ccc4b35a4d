"""ov-onnx-cpu-bitshift-right-u8-rounds-above-rank-6 (conformance/known/openvino-onnx.yaml)

ONNX BitShift RIGHT of u8 inputs of rank 7 rounds instead of shifting: the frontend builds x / Power(2, y)
(bitshift.cpp); for ranks up to 6 the CPU plugin's Subgraph kernel floors the quotient, from rank 7 its Eltwise
node divides in f32 and stores the quotient rounded to nearest (ties to even). The spec (a shift): 255 >> 1 is
127, 3 >> 2 is 0, 5 >> 1 is 2.

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


x = np.array([255, 3, 5, 7], np.uint8)
y = np.array([1, 2, 1, 1], np.uint8)
bug = False
for rank in (1, 7):
    shape = (1,) * (rank - 1) + x.shape
    for as_initializers in (False, True):
        out = run("BitShift", [x.reshape(shape), y.reshape(shape)], as_initializers, direction="RIGHT").reshape(-1)
        bug |= rank > 6 and not np.array_equal(out, x >> y)
        print(f"BitShift RIGHT {x.tolist()} >> {y.tolist()} at rank {rank} as "
              f"{'initializers' if as_initializers else 'graph inputs'}: got {out.tolist()}; spec: {(x >> y).tolist()}")
print("the bug shows: u8 right shifts of rank 7 round" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
