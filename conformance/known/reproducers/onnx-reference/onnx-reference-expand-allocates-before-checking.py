"""onnx-reference-expand-allocates-before-checking (conformance/known/onnx-reference.yaml)

ONNX's ReferenceEvaluator computes Expand as data * numpy.ones(shape). For a shape incompatible with the data but
too large to allocate ([2**63 - 1], [2**32 + 1] against data (3,)), numpy refuses the ones for memory ("array is too
big", or MemoryError under the suite's worker memory limit of 8 GiB) before the broadcast rule that rejects the pair
is applied. The spec: rejected, 3 against the target dimension.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import resource
import sys

try:
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    from onnx.reference import ReferenceEvaluator
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

resource.setrlimit(resource.RLIMIT_AS, (8 * 2**30, 8 * 2**30))  # the suite's worker memory limit (--worker-memory 8192)
print("onnx", onnx.__version__, "numpy", np.__version__)
bug = False
for target in ([2**63 - 1], [2**32 + 1]):  # both incompatible with data (3,)
    shape = numpy_helper.from_array(np.array(target, np.int64), "shape")
    graph = helper.make_graph([helper.make_node("Expand", ["data", "shape"], ["out"])], "g",
                              [helper.make_tensor_value_info("data", TensorProto.FLOAT, [3])],
                              [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)], [shape])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    try:
        outputs = ReferenceEvaluator(model).run(None, {"data": np.ones(3, np.float32)})
        assert isinstance(outputs, list)
        got = f"ACCEPTED, output shape {outputs[0].shape}"
    except Exception as e:
        got = f"{type(e).__name__}: {' '.join(str(e).split())[:100]}"
        bug |= isinstance(e, MemoryError) or "too big" in str(e)
    print(f"Expand, data (3,), shape {target} (initializer): {got}; spec: rejected (3 against {target[0]})")
print("the bug shows: the refusal is for memory, not the broadcast rule" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
