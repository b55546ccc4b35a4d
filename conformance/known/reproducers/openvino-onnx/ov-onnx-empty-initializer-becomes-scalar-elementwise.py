"""ov-onnx-empty-initializer-becomes-scalar-elementwise (conformance/known/openvino-onnx.yaml)

ONNX elementwise nodes whose inputs are initializers, one of them without elements: the frontend's Graph::Graph
replaces an initializer with no data by a failsafe scalar Constant, so the node broadcasts a scalar instead of a
dimension 0. Add((0,), (1,)) gives (1,) instead of (0,); Add((0,), (3,)), which the rules reject, gives (3,);
Gemm with an A of shape (0, 3) is refused (MatMul of a scalar) instead of giving (0, 3). The same shapes as graph
inputs give the spec's answers.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import openvino as ov
    from onnx import TensorProto, helper, numpy_helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

core = ov.Core()
print("openvino", ov.__version__)


def run(op, arrays, as_initializers):
    """The output's shape, or None for a refusal (printed)."""
    names = [f"x{k}" for k in range(len(arrays))]
    inits = [numpy_helper.from_array(a, n) for a, n in zip(arrays, names, strict=True)] if as_initializers else []
    inputs = [] if as_initializers else [helper.make_tensor_value_info(n, TensorProto.FLOAT, list(a.shape))
                                         for a, n in zip(arrays, names, strict=True)]
    if op == "Gemm":  # Gemm(A, identity, C): C stretched to A @ identity
        inits.append(numpy_helper.from_array(np.eye(arrays[0].shape[1], dtype=np.float32), "identity"))
        names = [names[0], "identity", names[1]]
    graph = helper.make_graph([helper.make_node(op, names, ["y"])], "g", inputs,
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    try:
        compiled = core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU")
        return compiled([] if as_initializers else list(arrays))[0].shape
    except RuntimeError as e:
        print("  refused:", " ".join(str(e).split())[-100:])
        return None


bug = False
# (op, input shapes, the spec's output shape or None for a rejection)
for op, shapes, spec in (("Add", ((0,), (1,)), (0,)), ("Add", ((0, 3), ()), (0, 3)), ("Add", ((0,), (3,)), None),
                         ("Gemm", ((0, 3), (1, 3)), (0, 3))):
    arrays = [np.ones(s, np.float32) for s in shapes]
    for as_initializers in (True, False):
        got = run(op, arrays, as_initializers)
        bug |= got != spec and as_initializers
        print(f"{op}{shapes} as {'initializers' if as_initializers else 'graph inputs'}: got "
              f"{'a refusal' if got is None else f'output {got}'}; spec: "
              f"{'a refusal (0 against 3)' if spec is None else f'output {spec}'}")
print("the bug shows: an empty initializer becomes a scalar" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
