"""ov-onnx-empty-data-initializer-huge-target-allocated (conformance/known/openvino-onnx.yaml)

An ONNX Expand of an empty data initializer (0,) with a shape initializer [2**32], which the spec rejects (0 against
2**32), is not rejected: the frontend replaces the empty initializer by a failsafe scalar Constant
(ov-onnx-empty-data-initializer-becomes-scalar), and compile_model folds the Broadcast of that scalar to 2**32 floats
(16 GiB): under an 8 GiB address-space limit (the suite's workers have one) it fails to allocate. Run in a child
process, so that the limit stays there.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import subprocess
import sys

try:
    import numpy  # noqa: F401
    import onnx  # noqa: F401
    import openvino
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

CHILD = """if 1:
    import resource, numpy as np, openvino as ov
    from onnx import TensorProto, helper, numpy_helper
    resource.setrlimit(resource.RLIMIT_AS, (8 * 2**30, 8 * 2**30))
    graph = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g", [],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(np.zeros((0,), np.float32), "x"),
                               numpy_helper.from_array(np.array([2**32], np.int64), "shape")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    core = ov.Core()
    try:
        out = core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU")([])[0]
        print("ACCEPTED, output", out.shape)
    except (RuntimeError, MemoryError) as e:
        print("refused:", " ".join(str(e).split())[-100:])
"""
result = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True)
got = result.stdout.strip() or (f"killed by signal {-result.returncode}" if result.returncode < 0
                                else result.stderr.strip()[-200:])
print("openvino", openvino.__version__)
print(f"Expand(initializer of shape (0,), shape [2**32]), 8 GiB limit: {got}; spec: rejected (0 against 2**32)")
bug = "bad_alloc" in got or "allocate" in got or got.startswith("ACCEPTED")
print("the bug shows: the empty data is broadcast to 2**32 elements" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
