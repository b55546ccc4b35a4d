"""ov-cpu-constant-bf16-data-subnormals-flushed (conformance/known/openvino.yaml)

On a CPU without native bfloat16 the plugin converts a bf16 Constant to f32 and loads it as an f32 Constant, whose
subnormals (and the -0.0 beside them) it flushes to +0.0 (Input::cloneBlobIfRequired), when the Broadcast is not folded
(target_shape fed at run time). A folded Broadcast and a bf16 Parameter keep the bits. The spec's output replicates
the data.

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
print("openvino", ov.__version__, "CPU capabilities:", core.get_property("CPU", "OPTIMIZATION_CAPABILITIES"))
bits = np.array([0x8000, 0x0001, 0x4000], np.uint16)  # -0.0, the smallest subnormal, 2.0


def tensor():
    t = ov.Tensor(ov.Type.bf16, ov.Shape([3]))
    np.asarray(t.data).reshape(-1).view(np.uint16)[:] = bits
    return t


def got_bits(out):
    return [hex(v) for v in np.array(out.data).reshape(2, 3)[1].view(np.uint16)]


bug = False
for kind in ("Constant data, target_shape Parameter", "Constant data, target_shape Constant", "data Parameter"):
    target = np.array([2, 3], np.int64)
    if kind.startswith("data Parameter"):
        d = ops.parameter([3], ov.Type.bf16)
        model, feeds = ov.Model([ops.broadcast(d, ov.op.Constant(target))], [d]), [tensor()]
    elif "Parameter" in kind:
        t = ops.parameter([2], np.int64)
        model, feeds = ov.Model([ops.broadcast(ov.op.Constant(tensor(), shared_memory=False), t)], [t]), [target]
    else:
        model, feeds = ov.Model([ops.broadcast(ov.op.Constant(tensor(), shared_memory=False),
                                               ov.op.Constant(target))], []), []
    request = core.compile_model(model, "CPU").create_infer_request()
    request.infer(feeds)
    got = got_bits(request.get_output_tensor(0))
    bug |= got != [hex(v) for v in bits]
    print(f"bf16 {kind}: got {got}; spec: {[hex(v) for v in bits]}")
print("the bug shows: -0.0 and the subnormal become +0.0" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
