"""ov-onnx-cpu-bf16-multiply-flushes-subnormals (conformance/known/openvino-onnx.yaml; needs a CPU with native bf16)

On a CPU with native bfloat16 (BF16 in the CPU plugin's OPTIMIZATION_CAPABILITIES), ONNX Expand of bf16 data with
the shape as a graph input turns the smallest subnormal (0x0001) into +0.0: the converted bidirectional Broadcast
with a non-constant target becomes a Multiply by ones (ConvertBroadcast3), whose conversion back to bf16
(vcvtneps2bf16) flushes denormals. ONNX Expand copies the data.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here (no native bf16 on this CPU).
"""

import sys

try:
    import numpy as np
    import openvino as ov
    from onnx import TensorProto, helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

core = ov.Core()
capabilities = core.get_property("CPU", "OPTIMIZATION_CAPABILITIES")
print("openvino", ov.__version__, "CPU capabilities:", capabilities)
if "BF16" not in capabilities:
    print("cannot run: this CPU has no native bf16, where the emulated rounding keeps subnormals")
    sys.exit(2)
x = ov.Tensor(ov.Type.bf16, ov.Shape([2, 1]))
x.data.reshape(-1).view(np.uint16)[:] = [0x0001, 0x3F80]
shape = np.array([1, 3], np.int64)
inputs = [helper.make_tensor_value_info("x", TensorProto.BFLOAT16, [2, 1]),
          helper.make_tensor_value_info("s", TensorProto.INT64, [2])]
graph = helper.make_graph([helper.make_node("Expand", ["x", "s"], ["y"])], "g", inputs,
                          [helper.make_tensor_value_info("y", TensorProto.BFLOAT16, None)])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
out = core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU")([x, shape])[0]
got = np.array(out.data).reshape(-1).view(np.uint16).tolist()
want = [0x1, 0x1, 0x1, 0x3F80, 0x3F80, 0x3F80]
print(f"Expand of bf16 [[0x1], [0x3f80]] to shape [1, 3] (graph input): {[hex(b) for b in got]}; "
      f"spec: {[hex(b) for b in want]}")
bug = got != want
print("the bug shows: the subnormal is flushed to zero" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
