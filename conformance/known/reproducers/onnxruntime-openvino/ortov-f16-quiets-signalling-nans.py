"""ortov-f16-quiets-signalling-nans (conformance/known/onnxruntime-openvino.yaml)

f16 data holding a signalling NaN comes back from ONNX Runtime's OpenVINO execution provider with the NaN quiet
(0xfc01 gives 0xfe01): the provider runs the model on OpenVINO's CPU plugin, which computes f16 in f32 (its inference
precision) and converts the data on the way in. The spec's output replicates the data bit for bit.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
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

graph = helper.make_graph([helper.make_node("Expand", ["x", "s"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [2]),
                           helper.make_tensor_value_info("s", TensorProto.INT64, [2])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT16, None)])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
options = ort.SessionOptions()
options.log_severity_level = 4
options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
try:
    session = ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])
except Exception as e:
    print(f"cannot run: the session is refused: {e}")
    sys.exit(2)
bits = np.array([0xFC01, 0x7C01], np.uint16)  # signalling NaNs
(out,) = session.run(None, {"x": bits.view(np.float16), "s": np.array([2, 2], np.int64)})
print("onnxruntime", ort.__version__, "with", PROVIDER, "alone; Expand of f16 (2,) to [2, 2]; bits:")
print("got  ", [hex(v) for v in np.ascontiguousarray(out)[1].view(np.uint16)])
print("spec:", [hex(v) for v in bits])
bug = not np.array_equal(np.ascontiguousarray(out).view(np.uint16), np.broadcast_to(bits, (2, 2)))
print("the bug shows: the signalling NaNs come back quiet" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
