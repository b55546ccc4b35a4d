"""ort-before-1-27-constant-folding-allocates-huge-expand (conformance/known/onnxruntime.yaml)

Before ONNX Runtime 1.27, creating a session (ORT_ENABLE_ALL) for an Expand of two initializers, data (2,) and shape
[2**31, 1], fails with std::bad_alloc under an 8 GiB address-space limit: ConstantFolding computes the whole output
(2**31, 2) while the session is created. The model is valid: the spec (and ONNX Expand) gives shape (2**31, 2), and
with ORT_DISABLE_ALL the session is created. 1.27 skips folding outputs above 1 GiB (PR 28055). Run in a child
process, so that the limit stays there.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import subprocess
import sys

try:
    import numpy  # noqa: F401
    import onnx  # noqa: F401
    import onnxruntime
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

CHILD = """if 1:
    import resource, sys, numpy as np, onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper
    resource.setrlimit(resource.RLIMIT_AS, (8 * 2**30, 8 * 2**30))
    graph = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g", [],
                              [helper.make_tensor_value_info("y", TensorProto.UINT8, None)],
                              [numpy_helper.from_array(np.zeros((2,), np.uint8), "x"),
                               numpy_helper.from_array(np.array([2**31, 1], np.int64), "shape")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    options = ort.SessionOptions()
    options.graph_optimization_level = getattr(ort.GraphOptimizationLevel, sys.argv[1])
    try:
        ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
        print("session created")
    except Exception as e:
        print("session refused:", str(e)[-100:])
"""
print("onnxruntime", onnxruntime.__version__)
bug = False
for level in ("ORT_ENABLE_ALL", "ORT_DISABLE_ALL"):
    result = subprocess.run([sys.executable, "-c", CHILD, level], capture_output=True, text=True)
    got = result.stdout.strip() or result.stderr.strip()[-200:]
    bug |= level == "ORT_ENABLE_ALL" and "bad_alloc" in got
    print(f"Expand(initializer (2,) u8, shape initializer [2**31, 1]), {level}, 8 GiB limit: {got}; "
          "spec: a valid model (output (2**31, 2))")
print("the bug shows: the session allocates the folded output" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
