"""ov-onnx-cpu-bf16-add-flushes-subnormals (conformance/known/openvino-onnx.yaml)

On a CPU with native bfloat16 (BF16 in the CPU plugin's OPTIMIZATION_CAPABILITIES), Add(x, Expand(y, Shape(x))) of
bf16 tensors, x all -0.0 (so that the sum is y's broadcast bit for bit), turns the smallest subnormal of y (0x0001)
into +0.0: the plugin's Add computes in f32 and converts back with vcvtneps2bf16, which flushes denormals. -0.0 +
0x0001 is 0x0001 exactly; numpy's bfloat16 keeps it.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import ml_dtypes
    import numpy as np
    import onnx
    import openvino as ov
    from onnx import TensorProto, helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

nodes = [helper.make_node("Shape", ["x"], ["shape"]), helper.make_node("Expand", ["y", "shape"], ["e"]),
         helper.make_node("Add", ["x", "e"], ["out"])]
graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.BFLOAT16, [2, 3]),
                                       helper.make_tensor_value_info("y", TensorProto.BFLOAT16, [3])],
                          [helper.make_tensor_value_info("out", TensorProto.BFLOAT16, None)])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)

core = ov.Core()
print("openvino", ov.__version__, "onnx", onnx.__version__, "numpy", np.__version__,
      "CPU capabilities", core.get_property("CPU", "OPTIMIZATION_CAPABILITIES"))
y = np.array([0x3F80, 0x0001, 0x8000], np.uint16).view(ml_dtypes.bfloat16)  # 1.0, the smallest subnormal, -0.0
x = np.full((2, 3), -0.0, ml_dtypes.bfloat16)
request = core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU").create_infer_request()
request.infer([ov.Tensor(a.view(np.uint16), a.shape, ov.Type.bf16) for a in (x, y)])
got = np.array(request.get_output_tensor(0).data, copy=True).view(np.uint16)
want = (x + np.broadcast_to(y, x.shape)).view(np.uint16)
print("output bits:", [hex(v) for v in got.ravel()], "spec:", [hex(v) for v in want.ravel()])
bug = bool(np.any(got != want))
print("the bug shows: the subnormal became +0.0" if bug else "the bug does not show (a CPU without native bf16?)")
sys.exit(0 if bug else 1)
