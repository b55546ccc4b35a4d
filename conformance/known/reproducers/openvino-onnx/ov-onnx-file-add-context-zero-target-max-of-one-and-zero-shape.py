"""ov-onnx-file-add-context-zero-target-max-of-one-and-zero-shape (conformance/known/openvino-onnx.yaml)

Add(x, Expand(y, Shape(x))) with x declared (0,) and y (1,): the bidirectional rule gives (0,). Read from the model's
file (Core.read_model of the path) or by openvino.convert_model, the output is (1,): x, a graph input declared [0], is
made an empty Constant, the Add with it is removed, and the Expand with the folded target [0] meets ConvertBroadcast3's
std::max(1, 0). Read from the bytes, x stays a Parameter and the output is (0,). Each read runs in a child process of
its own: in a process that compiled the model from its bytes first, the file gave (0,) (not pinned).

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import subprocess
import sys

try:
    import numpy as np
    import onnx
    import openvino as ov
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

CHILD = """if 1:
    import sys, tempfile, numpy as np, onnx, openvino as ov
    from onnx import TensorProto, helper
    how, opset = sys.argv[1], int(sys.argv[2])
    nodes = [helper.make_node("Shape", ["x"], ["shape"]), helper.make_node("Expand", ["y", "shape"], ["e"]),
             helper.make_node("Add", ["x", "e"], ["out"])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [0]),
                                           helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])],
                              [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=7)
    core = ov.Core()
    with tempfile.TemporaryDirectory() as directory:
        name = directory + "/add_expand.onnx"
        onnx.save(model, name)
        read = {"bytes": lambda: core.read_model(model.SerializeToString(), b""), "file": lambda: core.read_model(name),
                "convert_model": lambda: ov.convert_model(name)}[how]()
        feeds = {i.get_any_name(): np.zeros(0, np.float32) if "x" in i.get_names() else np.ones(1, np.float32)
                 for i in read.inputs}
        print(core.compile_model(read, "CPU")(feeds)[0].shape)"""

print("openvino", ov.__version__, "onnx", onnx.__version__, "numpy", np.__version__)
want = np.broadcast_shapes((0,), (1,))
bug = False
for opset in (8, 13):
    for how in ("bytes", "file", "convert_model"):
        r = subprocess.run([sys.executable, "-c", CHILD, how, str(opset)], capture_output=True, text=True)
        got = r.stdout.strip() or (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]
        bug |= how != "bytes" and got == "(1,)"
        print(f"opset {opset}, read from {how}: output {got}; spec: {want}")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
