"""ort-expand-elimination-negative-read-as-one (conformance/known/onnxruntime.yaml)

An Expand between two Transposes, data (1, 3) and a shape initializer [-1, 3]: with every graph optimization
(ORT_ENABLE_ALL) ExpandElimination takes the -1 for a 1 that changes nothing and removes the Expand, so the invalid
shape is accepted and the output is the data, (1, 3). Without optimizations the Expand runs and refuses the shape.
The spec: a shape holds dimensions, never negative: rejected.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)


def run(level: str) -> str:
    nodes = [helper.make_node("Transpose", ["dt"], ["d"], perm=[1, 0]), helper.make_node("Expand", ["d", "s"], ["e"]),
             helper.make_node("Transpose", ["e"], ["y"], perm=[1, 0])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("dt", TensorProto.FLOAT, [3, 1])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(np.array([-1, 3], np.int64), "s")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
    try:
        session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
        out = session.run(None, {"dt": np.ones((3, 1), np.float32)})[0]
        return f"accepted, output shape {out.T.shape}"
    except Exception as e:  # noqa: BLE001
        return f"rejected: {type(e).__name__}: {' '.join(str(e).split())[:120]}"


print("onnxruntime", ort.__version__)
results = {level: run(level) for level in ("ORT_ENABLE_ALL", "ORT_DISABLE_ALL")}
for level, got in results.items():
    print(f"Transpose -> Expand(data (1, 3), shape initializer [-1, 3]) -> Transpose, {level}: {got}; spec: rejected")
bug = results["ORT_ENABLE_ALL"].startswith("accepted")
print("the bug shows: the negative shape is accepted" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
