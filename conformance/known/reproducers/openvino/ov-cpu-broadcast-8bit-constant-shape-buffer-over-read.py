"""ov-cpu-broadcast-8bit-constant-shape-buffer-over-read (conformance/known/openvino.yaml)

compile_model rejects a valid Broadcast whose target_shape (and axes_mapping) is an i8 or u8 Constant ("Buffer
over-read"): the CPU plugin's Broadcast node reads a Constant target_shape with Constant::get_vector<int32_t>(),
which asserts that int32 is no wider than the element type. i16, i32, u64 and i64 Constants are converted to i32
first and work. The spec allows any integer type for target_shape and axes_mapping (T_SHAPE).

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import openvino as ov
    import openvino.opset3 as ops
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("openvino", ov.__version__)
bug = False
for st in (np.int8, np.uint8, np.int16, np.int32, np.uint64, np.int64):
    got = []
    for mode, shape, axes in (("numpy", [3, 1], None), ("explicit", [3], [1])):
        d = ops.parameter(shape, np.float32)
        args = [ov.op.Constant(np.array([2, 3, 4], st))] + ([ov.op.Constant(np.array(axes, st))] if axes else [])
        try:
            c = ov.Core().compile_model(ov.Model([ops.broadcast(d, *args, broadcast_spec=mode)], [d]), "CPU")
            got.append(f"{mode}: output {c([np.ones(shape, np.float32)])[0].shape}")
        except RuntimeError as e:
            message = " ".join(str(e).split())
            bug |= np.dtype(st).itemsize == 1 and "over-read" in message
            got.append(f"{mode}: rejected: {message[message.find('Buffer'):] if 'Buffer' in message else message}")
    print(f"target_shape [2, 3, 4] as a {np.dtype(st).name} Constant:", " | ".join(got), "; spec: output (2, 3, 4)")
print("the bug shows: 8-bit Constant shapes are rejected" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
