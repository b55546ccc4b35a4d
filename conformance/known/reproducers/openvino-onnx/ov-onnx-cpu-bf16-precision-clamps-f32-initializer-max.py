"""ov-onnx-cpu-bf16-precision-clamps-f32-initializer-max (conformance/known/openvino-onnx.yaml)

ONNX Max, Min and Where of f32 initializers holding +-FLT_MAX give +-0x7f7f0000 (bf16's largest finite value) on a
CPU with native bf16 under the default INFERENCE_PRECISION_HINT: the CPU plugin clamps f32 Constants to bf16's
finite range. The same values as graph inputs keep their bits.

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


if "BF16" not in core.get_property("CPU", "OPTIMIZATION_CAPABILITIES"):
    print("cannot run: this CPU has no native bf16")
    sys.exit(2)
big = np.finfo(np.float32).max
a = np.array([big, -big, 1.0], np.float32)
b = np.array([1.0, 2.0, 0.5], np.float32)
condition = np.array([True, True, False])
bits = lambda v: [hex(x) for x in np.ascontiguousarray(v).reshape(-1).view(np.uint32).tolist()]  # noqa: E731
bug = False
for op, fed, spec in (("Max", [a, b], np.maximum(a, b)), ("Min", [-a, b], np.minimum(-a, b)),
                      ("Where", [condition, a, b], np.where(condition, a, b))):
    for as_initializers in (True, False):
        out = run(op, fed, as_initializers)
        bug |= as_initializers and bits(out) != bits(spec)
        print(f"{op} of f32 {'initializers' if as_initializers else 'graph inputs'}: got {bits(out)}; spec: "
              f"{bits(spec)}")
print("the bug shows: f32 initializers are clamped to bf16's range" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
