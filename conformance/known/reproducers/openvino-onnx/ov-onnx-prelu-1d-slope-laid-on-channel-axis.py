"""ov-onnx-prelu-1d-slope-laid-on-channel-axis-accepted, -values; ov-onnx-prelu-initializer-smaller-mismatched-
slope-accepted (conformance/known/openvino-onnx.yaml)

ONNX PRelu's slope is unidirectionally broadcast to X, right-aligned. Read by OpenVINO's ONNX frontend (OpenVINO's
PRelu), a 1-D slope as long as X's axis 1 is laid along that axis: X (3, 2, 5) with slope (2,) is accepted (2
against 5 should be rejected), and X (2, 2, 2) with slope (2,) gives the slope along axis 1, not the last axis.
As initializers, X (2, 4) with slope (2,) is folded to X's shape as well.

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


def run(x, slope, as_initializers):
    """ONNX PRelu (opset 18) of x and slope, graph inputs or initializers, on the CPU plugin: the output, or the
    message of the refusal."""
    names = ["x", "slope"]
    arrays = [x, slope]
    inits = [numpy_helper.from_array(a, n) for a, n in zip(arrays, names, strict=True)] if as_initializers else []
    inputs = [] if as_initializers else [helper.make_tensor_value_info(n, 1, list(a.shape))
                                         for a, n in zip(arrays, names, strict=True)]
    graph = helper.make_graph([helper.make_node("PRelu", names, ["y"])], "g", inputs,
                              [helper.make_tensor_value_info("y", 1, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    try:
        compiled = core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU")
        return compiled([] if as_initializers else arrays)[0]
    except RuntimeError as e:
        return "refused: " + " ".join(str(e).split())[-80:]


bug = False
for shape, as_initializers in (((3, 2, 5), False), ((3, 2, 5), True), ((2, 4), True)):
    out = run(-np.ones(shape, np.float32), np.array([0.5, 2.0], np.float32), as_initializers)
    accepted = not isinstance(out, str)
    bug |= accepted
    print(f"X {shape}, slope (2,) as {'initializers' if as_initializers else 'graph inputs'}: "
          f"{'output ' + str(out.shape) if accepted else out}; spec: rejected")
x, s = -np.ones((2, 2, 2), np.float32), np.array([0.5, 2.0], np.float32)
out, spec = run(x, s, False), np.where(x < 0, x * s, x)
bug |= not np.array_equal(out, spec)
print(f"X (2, 2, 2) of -1, slope [0.5, 2]: {out.ravel().tolist()}; spec (last axis): {spec.ravel().tolist()}")
sys.exit(0 if bug else 1)
