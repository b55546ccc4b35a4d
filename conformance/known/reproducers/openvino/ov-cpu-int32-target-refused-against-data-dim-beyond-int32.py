"""ov-cpu-int32-target-refused-against-data-dim-beyond-int32 (conformance/known/openvino.yaml)

Bidirectional Broadcast-3 of empty data (2**32 + 2, 0) to target_shape [2**32 + 2, 0]: the dimensions are equal, so
the spec's output is the data's shape, (4294967298, 0), empty. The CPU plugin reads target_shape as int32: a Constant
is saturated to 2**31 - 1 by ConvertPrecision and refused at compile_model against the data's 4294967298 ("Broadcast
incorrect target shape. Expecting either 1 or 4294967298. Got 2147483647"); a Parameter is wrapped to its low 32 bits,
2, and the Multiply that ConvertBroadcast3 makes of a bidirectional Broadcast with a run-time target refuses 2 against
4294967298 at infer ("Eltwise shape infer input shapes dim index: 0 mismatch").

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
shape = [2**32 + 2, 0]
data = np.zeros(shape, np.float32)
bug = False
for kind in ("Constant", "Parameter"):
    d = ops.parameter(shape, np.float32)
    if kind == "Constant":
        t, params, feeds = ov.op.Constant(np.array(shape, np.int64)), [d], [data]
    else:
        t = ops.parameter([2], np.int64)
        params, feeds = [d, t], [data, np.array(shape, np.int64)]
    try:
        got = ov.Core().compile_model(ov.Model([ops.broadcast(d, t, broadcast_spec="BIDIRECTIONAL")], params),
                                      "CPU")(feeds)[0].shape
        print(f"target_shape {kind} [2**32 + 2, 0]: output shape {tuple(got)}; spec: (4294967298, 0)")
        bug = bug or tuple(got) != tuple(shape)
    except RuntimeError as e:
        print(f"target_shape {kind} [2**32 + 2, 0]: refused: {str(e).strip().splitlines()[-1]}; spec: (4294967298, 0)")
        bug = True
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
