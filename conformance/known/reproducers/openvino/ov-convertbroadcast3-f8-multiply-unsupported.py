"""ov-convertbroadcast3-f8-multiply-unsupported (conformance/known/openvino.yaml)

Bidirectional Broadcast-3 of f8e4m3 / f8e5m2 data with target_shape fed at run time is rejected at infer: for a
non-constant target ConvertBroadcast3 rewrites the op as data * Broadcast-1(Constant [1], target_shape), and the CPU
plugin's Multiply has no f8 kernel ("unsupported src_prc"). A Constant target, numpy mode and f16 work. The spec's
T is any type; the output is the data replicated.

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


def run(model, feeds):
    try:
        return f"output {ov.Core().compile_model(model, 'CPU')(feeds)[0].shape}"
    except RuntimeError as e:
        m = " ".join(str(e).split())
        return "rejected: " + (m[m.find("unsupported"):][:80] if "unsupported" in m else m[-80:])


print("openvino", ov.__version__)
bug = False
target = np.array([1, 3], np.int64)
for et in (ov.Type.f8e4m3, ov.Type.f8e5m2, ov.Type.f16):
    x = ov.Tensor(et, ov.Shape([2, 1]))
    d, t = ops.parameter([2, 1], et), ops.parameter([2], np.int64)
    by_param = run(ov.Model([ops.broadcast(d, t, broadcast_spec="BIDIRECTIONAL")], [d, t]), [x, target])
    d = ops.parameter([2, 1], et)
    by_const = run(ov.Model([ops.broadcast(d, ops.constant(target), broadcast_spec="BIDIRECTIONAL")], [d]), [x])
    bug |= et != ov.Type.f16 and by_param.startswith("rejected: unsupported")
    print(f"{et.get_type_name()} bidirectional, data (2, 1), target_shape [1, 3]: as a Parameter: {by_param}; "
          f"as a Constant: {by_const}; spec: output (2, 3)")
print("the bug shows: f8 data with a run-time target_shape is rejected" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
