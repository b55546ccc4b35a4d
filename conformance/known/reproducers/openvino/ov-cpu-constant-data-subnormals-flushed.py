"""ov-cpu-constant-data-subnormals-flushed (conformance/known/openvino.yaml)

An f32 (or bf16) Constant data input that holds a subnormal is flushed by the CPU plugin when it loads the constant
(Input::cloneBlobIfRequired: a Constant with subnormals is copied with every zero-exponent value set to +0.0), so the
subnormals and the -0.0 beside them come back as +0.0, whether the Broadcast is folded (Constant target_shape) or run
(target_shape a Parameter), and even with CPU_DENORMALS_OPTIMIZATION=NO. The same data fed as a Parameter is copied
bit for bit; a Constant without subnormals keeps -0.0. The spec's output replicates the data.

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

core = ov.Core()
print("openvino", ov.__version__)
bits = lambda a: [hex(v) for v in np.ascontiguousarray(a).reshape(-1).view(np.uint32)]  # noqa: E731
bug = False
for x in (np.array([-0.0, 1e-45, 2.0], np.float32), np.array([-0.0, 1.0, 2.0], np.float32)):
    target = np.array([2, x.size], np.int64)
    feeds: list[np.ndarray]
    for kind in ("Constant data, Constant target_shape (folded)", "Constant data, target_shape Parameter",
                 "data Parameter"):
        if kind.startswith("data Parameter"):
            d = ops.parameter(x.shape, np.float32)
            model, feeds = ov.Model([ops.broadcast(d, ov.op.Constant(target))], [d]), [x]
        elif "Parameter" in kind:
            t = ops.parameter([2], np.int64)
            model, feeds = ov.Model([ops.broadcast(ov.op.Constant(x), t)], [t]), [target]
        else:
            model, feeds = ov.Model([ops.broadcast(ov.op.Constant(x), ov.op.Constant(target))], []), []
        for config in ({}, {"CPU_DENORMALS_OPTIMIZATION": "NO"}):
            out = core.compile_model(model, "CPU", config)(feeds)[0][1]
            bug |= bits(out) != bits(x)
            print(f"f32 {x.tolist()}, {kind}{', DENORMALS_OPTIMIZATION=NO' if config else ''}: got {bits(out)}; "
                  f"spec: {bits(x)}")
print("the bug shows: a Constant's subnormals and -0.0 become +0.0" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
