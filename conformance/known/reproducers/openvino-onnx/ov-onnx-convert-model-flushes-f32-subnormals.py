"""ov-onnx-convert-model-flushes-f32-subnormals (conformance/known/openvino-onnx.yaml)

openvino.convert_model of an ONNX file whose f32 initializer holds a subnormal gives a model whose Constant holds
+0.0 instead: ovc runs apply_moc_transformations, which registers FlushFP32SubnormalsToZero after
MOCTransformations. core.read_model of the same file keeps the bits, and an Expand of a single-element
initializer with a run-time shape then returns the subnormal. The spec: Expand's output replicates the data.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import os
import sys
import tempfile

try:
    import numpy as np
    import openvino as ov
    from onnx import TensorProto, helper, numpy_helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("openvino", ov.__version__)
x = np.array([1e-45], np.float32)  # the smallest f32 subnormal, 0x00000001
graph = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g",
                          [helper.make_tensor_value_info("shape", TensorProto.INT64, [2])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                          [numpy_helper.from_array(x, "x")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
core = ov.Core()
with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, "expand.onnx")
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    results = {}
    for name, read in (("core.read_model", core.read_model), ("openvino.convert_model", ov.convert_model)):
        converted = read(path)
        constant = next(op for op in converted.get_ordered_ops() if op.get_type_name() == "Constant")
        out = core.compile_model(converted, "CPU")([np.array([2, 2], np.int64)])[0]
        results[name] = hex(int(out.reshape(-1).view(np.uint32)[0]))
        print(f"{name}: Constant holds {hex(int(constant.get_data().view(np.uint32)[0]))}, "
              f"Expand gives {results[name]}; spec: 0x1")
bug = results["openvino.convert_model"] != "0x1"
print("the bug shows: convert_model flushed the initializer's subnormal" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
