"""ov-cpu-bf16-add-context-flushes-subnormals (conformance/known/openvino.yaml; needs a CPU with native bf16)

On a CPU with native bfloat16 (BF16 in the CPU plugin's OPTIMIZATION_CAPABILITIES), Add(x, Broadcast(y, ShapeOf(x)))
of bf16 tensors, x all -0.0 (so that the sum is y's broadcast bit for bit), turns the smallest subnormal of y (0x0001)
into +0.0: the plugin's Add computes in f32 and converts back with vcvtneps2bf16, which flushes denormals. The
Broadcast alone copies the bits.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here (no native bf16 on this CPU).
"""

import sys

try:
    import numpy as np
    import openvino as ov
    import openvino.opset3 as ops
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

core = ov.Core()
capabilities = core.get_property("CPU", "OPTIMIZATION_CAPABILITIES")
print("openvino", ov.__version__, "CPU capabilities:", capabilities)
if "BF16" not in capabilities:
    print("cannot run: this CPU has no native bf16, where the emulated rounding keeps subnormals")
    sys.exit(2)
x = ov.Tensor(ov.Type.bf16, ov.Shape([2, 3]))
x.data.reshape(-1).view(np.uint16)[:] = 0x8000  # -0.0
y = ov.Tensor(ov.Type.bf16, ov.Shape([3]))
y.data.reshape(-1).view(np.uint16)[:] = [0x3F80, 0x0001, 0x8000]  # 1.0, the smallest subnormal, -0.0
want = [0x3F80, 0x1, 0x8000] * 2
px, py = ops.parameter([2, 3], ov.Type.bf16), ops.parameter([3], ov.Type.bf16)
model = ov.Model([ops.add(px, ops.broadcast(py, ops.shape_of(px)))], [px, py])
out = core.compile_model(model, "CPU")([x, y])[0]
got = np.array(out.data).reshape(-1).view(np.uint16).tolist()
print(f"Add(x, Broadcast(y, ShapeOf(x))): {[hex(b) for b in got]}; spec: {[hex(b) for b in want]}")
bug = got != want
print("the bug shows: the subnormal is flushed to zero" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
