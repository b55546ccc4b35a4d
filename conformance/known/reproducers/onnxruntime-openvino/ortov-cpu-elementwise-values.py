"""ortov-cpu-bitshift-left-u8-saturates, ortov-cpu-bitshift-right-u8-rounds-above-rank-6,
ortov-cpu-bitshift-right-u32-divided-as-int32-in-f32, ortov-cpu-mean-negative-zero-lost-rank-above-6,
ortov-cpu-sub-negative-zero-minus-zero-rank-above-6 (conformance/known/onnxruntime-openvino.yaml)

Single elementwise nodes (opset 18, graph inputs) run by ONNX Runtime's OpenVINO execution provider, whose values
differ from ONNX's: u8 255 << 1 gives 255 (ONNX: 254); u8 255 >> 1 at rank 7 gives 128 (127); u32 0xffffffff >> 1
gives 0 (0x7fffffff); the Mean of -0.0 and -0.0 at rank 7 gives +0.0 (-0.0); -0.0 - +0.0 at rank 7 gives +0.0
(-0.0).

Exit 0: the bugs show; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import onnxruntime as ort
    from onnx import TensorProto, helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

PROVIDER = "OpenVINOExecutionProvider"
if PROVIDER not in ort.get_available_providers():
    print(f"cannot run: onnxruntime {ort.__version__} has no {PROVIDER} (pip install onnxruntime-openvino)")
    sys.exit(2)


def run(op: str, a: np.ndarray, b: np.ndarray, elem: int, **attrs: str) -> np.ndarray:
    graph = helper.make_graph([helper.make_node(op, ["a", "b"], ["y"], **attrs)], "g",
                              [helper.make_tensor_value_info("a", elem, list(a.shape)),
                               helper.make_tensor_value_info("b", elem, list(b.shape))],
                              [helper.make_tensor_value_info("y", elem, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    session = ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])
    return session.run(None, {"a": a, "b": b})[0]


U8, U32, F32 = TensorProto.UINT8, TensorProto.UINT32, TensorProto.FLOAT
rank7 = (1,) * 6 + (2,)
cases = {
    "u8 255 << 1": (run("BitShift", np.array([255, 128], np.uint8), np.array([1, 1], np.uint8), U8,
                        direction="LEFT"), [254, 0]),
    "u8 255 >> 1, rank 7": (run("BitShift", np.full(rank7, 255, np.uint8), np.ones(rank7, np.uint8), U8,
                                direction="RIGHT"), [127, 127]),
    "u32 0xffffffff >> 1": (run("BitShift", np.array([0xFFFFFFFF, 8], np.uint32), np.array([1, 1], np.uint32), U32,
                                direction="RIGHT"), [0x7FFFFFFF, 4]),
    "Mean(-0.0, -0.0), rank 7": (run("Mean", np.full(rank7, -0.0, np.float32), np.full(rank7, -0.0, np.float32), F32),
                                 [-0.0, -0.0]),
    "-0.0 - +0.0, rank 7": (run("Sub", np.full(rank7, -0.0, np.float32), np.zeros(rank7, np.float32), F32),
                            [-0.0, -0.0]),
}
print("onnxruntime", ort.__version__, "with", PROVIDER, "alone; one node of opset 18 on graph inputs")
all_show = True
for name, (got, spec) in cases.items():
    flat = got.reshape(-1)
    if flat.dtype.kind == "f":
        differs = any(np.signbit(flat) != np.signbit(np.array(spec, np.float32)))
    else:
        differs = flat.tolist() != spec
    all_show &= differs
    print(f"{name}: {flat.tolist()}   spec: {spec}{'' if differs else '   (the bug does not show)'}")
print("the bugs show" if all_show else "the bugs do not all show")
sys.exit(0 if all_show else 1)
