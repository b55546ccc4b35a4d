"""ov-cpu-bf16-precision-clamps-f32-constant-data (conformance/known/openvino.yaml)

Under INFERENCE_PRECISION_HINT bf16 (the CPU plugin's default on a CPU with AMX), f32 Constant data is clamped
to bf16's finite range: FLT_MAX 0x7f7fffff comes back as 0x7f7f0000
(1 + 2**-23 keeps its bits). With the hint f32 the bits stay. The spec's output
replicates the data.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here (also: the CPU does not run
bf16 natively, where the plugin does not take that precision).
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
if "BF16" not in core.get_property("CPU", "OPTIMIZATION_CAPABILITIES"):
    print("cannot run: this CPU has no native bf16")
    sys.exit(2)
bits = np.array([0x7F7FFFFF, 0x3F800001], np.uint32)  # FLT_MAX; 1 + 2**-23
t = ops.parameter([2], np.int64)
model = ov.Model([ops.broadcast(ov.op.Constant(bits.view(np.float32)), t)], [t])
for hint in ("f32", "bf16"):
    c = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": hint})
    out = np.ascontiguousarray(c([np.array([2, 2], np.int64)])[0])
    print("openvino", ov.__version__, f"hint {hint}: data (2,) f32 Constant to [2, 2]; bits",
          [hex(v) for v in out[1].view(np.uint32)], "spec:", [hex(v) for v in bits])
bug = not np.array_equal(out.view(np.uint32), np.broadcast_to(bits, (2, 2)))
print("the bug shows: the f32 Constant is clamped to bf16's range" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
