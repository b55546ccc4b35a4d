"""ov-onnx-cpu-sub-negative-zero-minus-zero-rank-above-6 (conformance/known/openvino-onnx.yaml)

ONNX Sub of f32 graph inputs of rank 7 gives +0.0 for -0.0 - +0.0: the frontend makes Sub OpenVINO's Subtract,
and the CPU plugin's Eltwise node, which runs ranks above 6, loses the sign; at rank 6 (its Subgraph kernel), and for
initializers, it stays. The spec (IEEE 754): -0.0 - +0.0 is -0.0.

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


a = np.array([-0.0, 0.0, 1.0], np.float32)
b = np.array([0.0, -0.0, 2.0], np.float32)
bits = lambda v: [hex(x) for x in np.ascontiguousarray(v).reshape(-1).view(np.uint32).tolist()]  # noqa: E731
bug = False
for rank in (6, 7):
    shape = (1,) * (rank - 1) + a.shape
    for as_initializers in (False, True):
        out = run("Sub", [a.reshape(shape), b.reshape(shape)], as_initializers)
        bug |= rank > 6 and not as_initializers and bits(out) != bits(a - b)
        print(f"Sub of f32 {'initializers' if as_initializers else 'graph inputs'} of rank {rank}: got {bits(out)}; "
              f"spec: {bits(a - b)}")
print("the bug shows: Sub loses -0.0 at rank 7" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
