"""ov-cpu-run-time-shape-values-truncated-to-int32 (conformance/known/openvino.yaml; OpenVINO 2025.4 and later)

target_shape and axes_mapping values outside int32 fed at run time keep only their low 32 bits (the CPU plugin
converts i64 inputs to i32 and its Broadcast node reads int32; since 2025.4 the conversion wraps), so inputs the spec
rejects are accepted wherever the cut values make a valid broadcast: numpy data (3,) with target_shape [2**32 + 3]
gives (3,). As Constants the same values are checked in i64 and rejected.

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


def run(mode, shape, target, axes, const):
    d = ops.parameter(shape, np.float32)
    vals = [np.array(target, np.int64)] + ([np.array(axes, np.int64)] if axes is not None else [])
    ins = [ov.op.Constant(v) if const else ops.parameter(v.shape, np.int64) for v in vals]
    try:
        model = ov.Model([ops.broadcast(d, *ins, broadcast_spec=mode)], [d] + ([] if const else ins))
        c = ov.Core().compile_model(model, "CPU")
        return f"ACCEPTED, output {c([np.ones(shape, np.float32)] + ([] if const else vals))[0].shape}"
    except RuntimeError as e:
        return "rejected: " + " ".join(str(e).split())[-70:]


print("openvino", ov.__version__)
bug = False
for mode, shape, target, axes in (("numpy", [3], [2**32 + 3], None), ("bidirectional", [3], [2**32 + 1], None),
                                  ("explicit", [3], [2, 3], [2**32 + 1])):
    for const in (False, True):
        got = run(mode, shape, target, axes, const)
        bug |= not const and got.startswith("ACCEPTED")
        print(f"{mode}, data {shape}, target_shape {target}{'' if axes is None else f', axes_mapping {axes}'} "
              f"({'Constant' if const else 'Parameter'}): {got}; spec: rejected")
print("the bug shows: run-time values are cut to 32 bits" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
