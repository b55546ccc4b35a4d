"""ov-cpu-bf16-multiply-flushes-subnormals (conformance/known/openvino.yaml; needs a CPU with native bf16)

On a CPU with native bfloat16 (BF16 in the CPU plugin's OPTIMIZATION_CAPABILITIES), bidirectional Broadcast-3 of
bf16 data with target_shape fed at run time turns the smallest subnormal (0x0001) into +0.0: ConvertBroadcast3
rewrites the op as a Multiply by ones, whose conversion back to bf16 (vcvtneps2bf16) flushes denormals. A
Constant target and numpy mode copy the bits. The spec's output is the data replicated.

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
x = ov.Tensor(ov.Type.bf16, ov.Shape([2, 1]))
x.data.reshape(-1).view(np.uint16)[:] = [0x0001, 0x3F80]
want = [0x1, 0x1, 0x1, 0x3F80, 0x3F80, 0x3F80]
bug = False
for mode, target in (("BIDIRECTIONAL", [1, 3]), ("NUMPY", [2, 3])):
    d, t = ops.parameter([2, 1], ov.Type.bf16), ops.parameter([2], np.int64)
    model = ov.Model([ops.broadcast(d, t, broadcast_spec=mode)], [d, t])
    out = core.compile_model(model, "CPU")([x, np.array(target, np.int64)])[0]
    got = np.array(out.data).reshape(-1).view(np.uint16).tolist()
    bug |= mode == "BIDIRECTIONAL" and got != want
    print(f"{mode}, target_shape a Parameter: {[hex(b) for b in got]}; spec: {[hex(b) for b in want]}")
print("the bug shows: the subnormal is flushed to zero" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
