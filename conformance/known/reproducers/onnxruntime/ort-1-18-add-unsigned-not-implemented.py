"""ort-1-18-add-unsigned-not-implemented (conformance/known/onnxruntime.yaml)

ONNX Runtime 1.18 cannot create a session for an Add of uint32 or uint64 (opsets 8 and 13 allow both): its CPU
provider registers no such kernel (NOT_IMPLEMENTED). An Expand of the same types runs.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import onnxruntime as ort
    from onnx import TensorProto, helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("onnxruntime", ort.__version__)
bug = False
for name, elem in (("uint32", TensorProto.UINT32), ("uint64", TensorProto.UINT64)):
    for opset in (8, 13):
        graph = helper.make_graph([helper.make_node("Add", ["x", "y"], ["z"])], "g",
                                  [helper.make_tensor_value_info("x", elem, [2]),
                                   helper.make_tensor_value_info("y", elem, [2])],
                                  [helper.make_tensor_value_info("z", elem, [2])])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=7)
        try:
            ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
            got = "session created"
        except Exception as e:  # NotImplemented
            got = f"refused: {str(e)[:90]}"
            bug = True
        print(f"Add of {name}, opset {opset}: {got}; spec: a valid model")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
