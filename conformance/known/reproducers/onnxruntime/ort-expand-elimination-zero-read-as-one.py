"""ort-expand-elimination-zero-read-as-one (conformance/known/onnxruntime.yaml)

An Expand between two Transposes, data (1,) and a shape [0] that the session computes (Shape of a graph input of
shape (0,)): with every graph optimization (ORT_ENABLE_ALL) the output has shape (1,); the spec (bidirectional
broadcast: 1 against 0 gives 0) and the same session without optimizations give (0,). Without the Transposes, or
with the shape given as an initializer, the optimized session gives (0,) too.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import onnxruntime as ort
    from onnx import TensorProto, helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)


def output_shape(transposes: bool, level: str) -> tuple[int, ...]:
    data = "d" if transposes else "dt"
    nodes = [helper.make_node("Shape", ["s0"], ["s"]), helper.make_node("Expand", [data, "s"], ["e"])]
    if transposes:
        nodes = [helper.make_node("Transpose", ["dt"], ["d"], perm=[0]), *nodes,
                 helper.make_node("Transpose", ["e"], ["y"], perm=[0])]
    else:
        nodes.append(helper.make_node("Identity", ["e"], ["y"]))
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("dt", TensorProto.FLOAT, [1]),
                                           helper.make_tensor_value_info("s0", TensorProto.UINT8, [0])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    return session.run(None, {"dt": np.ones(1, np.float32), "s0": np.zeros(0, np.uint8)})[0].shape


print("onnxruntime", ort.__version__)
bug = False
for transposes in (True, False):
    for level in ("ORT_ENABLE_ALL", "ORT_DISABLE_ALL"):
        shape = output_shape(transposes, level)
        bug |= shape != (0,)
        print(f"Transpose -> Expand(data (1,), Shape(zeros (0,))) -> Transpose: {transposes}, {level}: output shape "
              f"{shape}; spec: (0,)")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
