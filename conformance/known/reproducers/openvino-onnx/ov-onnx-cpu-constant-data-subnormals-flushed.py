"""ov-onnx-cpu-constant-data-subnormals-flushed (conformance/known/openvino-onnx.yaml)

An ONNX Expand of f32 data given as an initializer that holds a subnormal returns every zero-exponent value as +0.0
(the subnormal and a -0.0 beside it): the initializer is a Constant, and the CPU plugin's Input node copies an f32
Constant with subnormals with denormals flushed (Input::cloneBlobIfRequired). The same data as a graph input is
copied bit for bit. The spec: the output replicates the data.

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
x = np.array([-0.0, 1e-45, 2.0], np.float32)
shape = numpy_helper.from_array(np.array([2, 3], np.int64), "shape")
bits = lambda a: [hex(v) for v in np.ascontiguousarray(a).reshape(-1).view(np.uint32)]  # noqa: E731
bug = False
for as_initializer in (True, False):
    inputs = [] if as_initializer else [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])]
    inits = [numpy_helper.from_array(x, "x"), shape] if as_initializer else [shape]
    graph = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g", inputs,
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    out = core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU")([] if as_initializer else [x])[0]
    changed = bits(out[1]) != bits(x)
    bug |= changed and as_initializer
    print(f"f32 data {'initializer' if as_initializer else 'graph input'}: got {bits(out[1])}; spec: {bits(x)}")
print("the bug shows: a constant's subnormals and -0.0 become +0.0" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
