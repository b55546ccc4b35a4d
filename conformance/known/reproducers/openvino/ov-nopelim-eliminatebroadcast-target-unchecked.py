"""ov-nopelim-eliminatebroadcast-target-unchecked (conformance/known/openvino.yaml)

NopElimination's EliminateBroadcast removes a Broadcast whose data shape and declared output shape are static and
equal, without looking at a target_shape / axes_mapping that is not a Constant. Where the declared shape is the data's
although the target is only known at run time (bidirectional mode with a run-time target; explicit mode with a
run-time axes_mapping), the input is never checked: an incompatible target_shape or a broken axes_mapping is accepted
and the data comes back unchanged. OpenVINO keeps a Broadcast that sits between a data Parameter and the Result, so it
shows with Constant data, or with any op after the Broadcast (here BitwiseXor with 0).

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
core = ov.Core()


def run(mode, shape, target, axes=None):
    """The Broadcast of Constant data; target_shape a Parameter, or with axes_mapping given a Constant target_shape
    and axes_mapping a Parameter."""
    data = ov.op.Constant(np.arange(1, int(np.prod(shape)) + 1, dtype=np.int32).reshape(shape))
    if axes is None:
        fed, value = ops.parameter([len(target)], np.int64), np.array(target, np.int64)
        node = ops.broadcast(data, fed, broadcast_spec=mode.upper())
    else:
        fed, value = ops.parameter([len(axes)], np.int64), np.array(axes, np.int64)
        node = ops.broadcast(data, ov.op.Constant(np.array(target, np.int64)), fed, mode.upper())
    params, feeds, out = [fed], [value], node
    compiled = core.compile_model(ov.Model([out], params), "CPU")
    try:
        return f"ACCEPTED, output shape {compiled(feeds)[0].shape}", True
    except RuntimeError:
        return "rejected", False


bug = False
for what, args, spec in (
        ("bidirectional, data Constant (2, 3), target_shape Parameter [3, 2]", ("bidirectional", [2, 3], [3, 2]),
         "rejected: 3 against 2 and 2 against 3"),
        ("bidirectional, data Constant (3,), target_shape Parameter [4]", ("bidirectional", [3], [4]),
         "rejected: 3 against 4"),
        ("bidirectional, data Constant (3,), target_shape Parameter [-3]", ("bidirectional", [3], [-3]),
         "rejected: a negative target_shape value"),
        ("explicit, data Constant (3, 3), target_shape Constant [3, 3], axes_mapping Parameter [1, 0]",
         ("explicit", [3, 3], [3, 3], [1, 0]), "rejected: axes_mapping not sorted"),
        ("explicit, data Constant (3, 3), target_shape Constant [3, 3], axes_mapping Parameter [0, 5]",
         ("explicit", [3, 3], [3, 3], [0, 5]), "rejected: axis 5 beyond the output rank"),
):
    got, accepted = run(*args)
    bug |= accepted
    print(f"{what}: {got}; spec: {spec}")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
