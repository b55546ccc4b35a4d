"""ov-onnx-bitshift-scalar-output-gets-rank-1 (conformance/known/openvino-onnx.yaml)

ONNX BitShift of two scalars gives an output of shape (1,): the frontend builds x * Power(2, y) (LEFT) or
x / Power(2, y) (RIGHT) with the 2 a Constant of shape {1} (bitshift.cpp), and that Constant broadcasts the
scalars to rank 1. The spec (ONNX's multidirectional broadcasting of x and y): two scalars give a scalar, ().

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


bug = False
for direction in ("LEFT", "RIGHT"):
    for as_initializers in (False, True):
        out = run("BitShift", [np.array(12, np.uint8), np.array(2, np.uint8)], as_initializers, direction=direction)
        bug |= out.shape != ()
        print(f"BitShift {direction} of scalars 12 and 2 as {'initializers' if as_initializers else 'graph inputs'}: "
              f"got shape {out.shape}; spec: shape ()")
print("the bug shows: a scalar BitShift gets rank 1" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
