"""tract-transpose-empty-output-huge-axis-hangs (conformance/known/tract.yaml)

tract runs a Transpose of an empty tensor with a huge dimension, (2**62, 0), for as long as the huge dimension
would take to walk: Expand(data (1,), Shape(s)) of an input s of shape (2**62, 0), then Transpose(perm [1, 0]),
does not return (the same model with 2**32 in place of 2**62 returns (0, 4294967296) within seconds, and without the
Transpose (2**62, 0) at once). The spec's output is empty: (0, 2**62), nothing to move.

Exit 0: the bug shows (no answer in 20 s); 1: the runtime does what the spec says; 2: cannot run here.
"""

import os
import subprocess
import sys
import tempfile

try:
    import numpy as np  # noqa: F401
    import tract  # noqa: F401
    from onnx import TensorProto, helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

RUN = """
import sys, numpy as np, tract
big = 2**62
model = tract.onnx().load(sys.argv[1]).into_model().into_runnable()
out = model.run([np.zeros((1,), np.uint8), np.zeros((big, 0), np.uint8)])
print("output shape", out[0].to_numpy().shape)
"""

nodes = [helper.make_node("Shape", ["s"], ["shape"]), helper.make_node("Expand", ["x", "shape"], ["e"]),
         helper.make_node("Transpose", ["e"], ["y"], perm=[1, 0])]
graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.UINT8, [1]),
                                       helper.make_tensor_value_info("s", TensorProto.UINT8, [2**62, 0])],
                          [helper.make_tensor_value_info("y", TensorProto.UINT8, None)])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 8)], ir_version=7)
with tempfile.TemporaryDirectory() as directory:
    path = os.path.join(directory, "m.onnx")
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    try:
        done = subprocess.run([sys.executable, "-c", RUN, path], capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        print("Expand then Transpose of (2**62, 0): no answer in 20 s")
        sys.exit(0)
print(done.stdout.strip(), done.stderr.strip()[-300:])
sys.exit(1 if "output shape (0, 4611686018427387904)" in done.stdout else 2)
