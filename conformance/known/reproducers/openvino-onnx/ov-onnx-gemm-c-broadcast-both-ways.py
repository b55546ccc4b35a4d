"""ov-onnx-gemm-c-broadcast-both-ways (conformance/known/openvino-onnx.yaml)

ONNX Gemm whose C is larger than A @ B (A (1, 3) and B the identity, C (2, 3)) is accepted and gives (2, 3): the
frontend builds Add(MatMul(A, B) * alpha, beta * C) (gemm.cpp), and that Add broadcasts numpy-style both ways. The
spec (ONNX Gemm: C is unidirectional broadcastable to A @ B): a rejection.

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


def run(op, arrays, as_initializers, names=None, extra=()):
    """One ONNX node of opset 18 over the arrays (graph inputs or initializers; extra: more initializers), run on
    the CPU plugin: the output, or the message of the refusal."""
    given = [f"x{k}" for k in range(len(arrays))]
    inits = [numpy_helper.from_array(a, n) for a, n in zip(arrays, given, strict=True)] if as_initializers else []
    inputs = [] if as_initializers else [
        helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), list(a.shape))
        for a, n in zip(arrays, given, strict=True)]
    inits += [numpy_helper.from_array(a, n) for n, a in extra]
    out_type = helper.np_dtype_to_tensor_dtype(arrays[-1].dtype)
    graph = helper.make_graph([helper.make_node(op, names or given, ["y"])], "g", inputs,
                              [helper.make_tensor_value_info("y", out_type, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    try:
        compiled = core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU")
        return compiled([] if as_initializers else list(arrays))[0]
    except RuntimeError as e:
        return "refused: " + " ".join(str(e).split())[-80:]


bug = False
for a_shape, c_shape in (((1, 3), (2, 3)), ((1, 3), (1, 2, 3))):
    identity = ("identity", np.eye(a_shape[1], dtype=np.float32))
    for as_initializers in (False, True):
        got = run("Gemm", [np.ones(a_shape, np.float32), np.ones(c_shape, np.float32)], as_initializers,
                  names=["x0", "identity", "x1"], extra=[identity])
        bug |= not isinstance(got, str)
        print(f"Gemm(A {a_shape}, identity, C {c_shape}) as {'initializers' if as_initializers else 'graph inputs'}: "
              f"got {got if isinstance(got, str) else f'output {got.shape}'}; spec: a rejection")
print("the bug shows: a C larger than A @ B is accepted" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
