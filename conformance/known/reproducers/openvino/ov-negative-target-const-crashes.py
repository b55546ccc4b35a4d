"""ov-negative-target-const-one-byte-type-crash and ov-negative-target-const-single-element-data-crash
(conformance/known/openvino.yaml)

Bidirectional Broadcast-3 with a Constant target_shape holding a negative value kills the process when compiled or
run, where the spec rejects a negative value: uint8 data (0,) or (3,) with [-1] (SIGSEGV: ConvertBroadcast3 makes a
Constant of ones of the target's shape, -1 read as 2**64 - 1, whose byte count only a one-byte type keeps from
overflowing), and a scalar with [-2, 1] for any type (SIGSEGV). float data (0,) with [-1] is rejected (the byte count
overflows and the Constant refuses it). Each model runs in a child process.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import signal
import subprocess
import sys

try:
    import numpy as np
    import openvino as ov
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

CHILD = """if 1:
    import sys, numpy as np, openvino as ov
    import openvino.opset3 as ops
    data_shape, target, dtype = map(eval, sys.argv[1:])
    d = ops.parameter(data_shape, getattr(ov.Type, dtype))
    b = ops.broadcast(d, ops.constant(np.array(target, np.int64)), broadcast_spec="BIDIRECTIONAL")
    try:
        c = ov.Core().compile_model(ov.Model([b], [d]), "CPU")
        print("ACCEPTED, output", c([np.zeros(data_shape, {"u8": np.uint8, "f32": np.float32}[dtype])])[0].shape)
    except RuntimeError as e:
        print("rejected:", " ".join(str(e).split())[-90:])"""


def run(*args):
    r = subprocess.run([sys.executable, "-c", CHILD, *map(repr, args)], capture_output=True, text=True)
    if r.returncode < 0:
        return f"killed by {signal.Signals(-r.returncode).name}"
    return r.stdout.strip() or "failed: " + (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]


print("openvino", ov.__version__, "numpy", np.__version__)
bug = True
for data_shape, target, dtype, dies in (([0], [-1], "u8", True), ([3], [-1], "u8", True), ([0], [-1], "f32", False),
                                        ([], [-2, 1], "u8", True), ([], [-2, 1], "f32", True)):
    got = run(data_shape, target, dtype)
    bug &= got.startswith("killed") == dies
    print(f"Broadcast-3 bidirectional, {dtype} data {data_shape}, Constant target_shape {target}: {got}; spec: "
          "rejected (a negative value)")
print("the bug shows: the process dies" if bug else "the bug does not show (as described)")
sys.exit(0 if bug else 1)
