"""ov-onnx-convert-model-transpose-scalar-initializer-to-empty-refused (conformance/known/openvino-onnx.yaml)

openvino.convert_model of Transpose(Expand(x, Shape(s)), perm=[1, 0]), x a scalar initializer and s a graph input
of shape (0, 1), makes a model the CPU plugin refuses to compile: "Check 'other_size == new_size' failed at
src/core/src/op/constant.cpp:364: ov::Shape size 1 is not equal to 0" (a Constant of the scalar's one element
given the empty shape). Core.read_model of the same file, or of its bytes, gives the spec's output (1, 0), and so
does convert_model without the Transpose ((0, 1)).

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import os
import sys
import tempfile

try:
    import numpy as np
    import onnx
    import openvino as ov
    from onnx import TensorProto, helper, numpy_helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)


def model(transpose):
    nodes = [helper.make_node("Shape", ["s"], ["shape"]),
             helper.make_node("Expand", ["x", "shape"], ["e" if transpose else "y"])]
    if transpose:
        nodes.append(helper.make_node("Transpose", ["e"], ["y"], perm=[1, 0]))
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("s", TensorProto.UINT8, [0, 1])],
                              [helper.make_tensor_value_info("y", TensorProto.UINT8, None)],
                              [numpy_helper.from_array(np.array(7, np.uint8), "x")])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)


def run(transpose, source):
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "expand.onnx")
        onnx.save(model(transpose), path)
        try:
            converted = ov.convert_model(path) if source == "convert_model" else ov.Core().read_model(path)
            compiled = ov.Core().compile_model(converted, "CPU")
            return f"output {compiled({'s': np.zeros((0, 1), np.uint8)})[0].shape}"
        except Exception as e:
            return "refused: " + " ".join(str(e).split())[-120:]


print("openvino", ov.__version__, "onnx", onnx.__version__, "numpy", np.__version__)
bug = False
for transpose, source, want in ((True, "convert_model", (1, 0)), (True, "read_model", (1, 0)),
                                (False, "convert_model", (0, 1))):
    got = run(transpose, source)
    bug |= transpose and source == "convert_model" and got.startswith("refused")
    print(f"{'Transpose(Expand' if transpose else 'Expand'}(scalar initializer, Shape of a (0, 1) input)"
          f"{')' if transpose else ''} by {source}: {got}; spec: output {want}")
print("the bug shows: a valid model refused" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
