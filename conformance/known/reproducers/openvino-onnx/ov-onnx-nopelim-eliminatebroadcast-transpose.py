"""ov-onnx-nopelim-eliminatebroadcast-transpose (conformance/known/openvino-onnx.yaml)

Transpose, then Expand with its shape a graph input, then Transpose back: data (2, 3) with shape [2, 2] (3 against
2) or [4, 3] (2 against 4), which the bidirectional rule rejects, comes back as the data. The converted bidirectional
Broadcast declares the data's shape (no data dimension is 1), and NopElimination's EliminateBroadcast removes a
Broadcast whose static input and output shapes are equal without looking at its target; next to the Transposes it
is allowed to. The same Expand without the Transposes rejects both. With openvino.convert_model of the file the same
(ov-onnx-convert-model-nopelim-eliminatebroadcast-transpose); there data (3,) with shape [2], whose Transposes are
identities, is rejected.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys
import tempfile

try:
    import numpy as np
    import onnx
    import openvino as ov
    from onnx import TensorProto, helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)


def model(transposed, rank=2):
    nodes = [helper.make_node("Expand", ["x", "shape"], ["e" if transposed else "y"])]
    if transposed:
        nodes.insert(0, helper.make_node("Transpose", ["x_t"], ["x"], perm=[1, 0]))
        nodes.append(helper.make_node("Transpose", ["e"], ["y"], perm=[1, 0]))
    inputs = [helper.make_tensor_value_info("x_t" if transposed else "x", TensorProto.FLOAT,
                                            [3, 2] if transposed else [2, 3]),
              helper.make_tensor_value_info("shape", TensorProto.INT64, [2])]
    graph = helper.make_graph(nodes, "g", inputs, [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)


def run(transposed, target, how="bytes"):
    core = ov.Core()
    with tempfile.TemporaryDirectory() as directory:
        onnx.save(model(transposed), f"{directory}/m.onnx")
        read = core.read_model(model(transposed).SerializeToString(), b"") if how == "bytes" else \
            ov.convert_model(f"{directory}/m.onnx")
        compiled = core.compile_model(read, "CPU")
    data = np.arange(6, dtype=np.float32).reshape(2, 3)
    try:
        out = compiled([data.T.copy() if transposed else data, np.array(target, np.int64)])[0]
    except RuntimeError:
        return "rejected"
    return f"ACCEPTED, output {(out.T if transposed else out).shape}"


print("openvino", ov.__version__, "onnx", onnx.__version__, "numpy", np.__version__)
bug = False
for target in ([2, 2], [4, 3]):
    alone, between, converted = run(False, target), run(True, target), run(True, target, "convert_model")
    bug |= between.startswith("ACCEPTED") and converted.startswith("ACCEPTED")
    print(f"Expand, data (2, 3), shape {target}: alone {alone}; between Transposes {between}; the same by "
          f"convert_model {converted}; spec: rejected")
print("the bug shows: an incompatible shape is never checked" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
