"""ortov-f16-quiets-signalling-nans-expand-kept (conformance/known/onnxruntime-openvino.yaml)

f16 data (2, 3) holding a signalling NaN (0xfc01), fed between Transposes to an Expand of a shape initializer under
ORT_ENABLE_ALL (the default): with the shape [2, 2, 3] (or an empty shape) the Expand is kept and ONNX Runtime's
OpenVINO execution provider runs it on OpenVINO's CPU plugin in f32, and the NaN comes back quiet (0xfe01); with
the shape [2, 3] ONNX Runtime's ExpandElimination removes the Expand first, the Transposes cancel, and the bits come
back as they went in (printed). ONNX Expand's output replicates the data bit for bit.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import numpy as np
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

PROVIDER = "OpenVINOExecutionProvider"
if PROVIDER not in ort.get_available_providers():
    print(f"cannot run: onnxruntime {ort.__version__} has no {PROVIDER} (pip install onnxruntime-openvino)")
    sys.exit(2)

data = np.array([[1, 2, 3], [4, 5, 6]], np.float16)
data.view(np.uint16)[0, 0] = 0xFC01  # a signalling NaN


def first_bits(shape: list[int]) -> int:
    rank = max(len(shape), data.ndim)
    nodes = [helper.make_node("Transpose", ["xt"], ["x"], perm=[1, 0]),
             helper.make_node("Expand", ["x", "s"], ["e"]),
             helper.make_node("Transpose", ["e"], ["y"], perm=list(range(rank))[::-1])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("xt", TensorProto.FLOAT16, [3, 2])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT16, None)],
                              initializer=[numpy_helper.from_array(np.array(shape, np.int64), "s")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    session = ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])
    (out,) = session.run(None, {"xt": np.ascontiguousarray(data.T)})
    return int(np.transpose(out).reshape(-1).view(np.uint16)[0])


try:
    kept, removed = first_bits([2, 2, 3]), first_bits([2, 3])
except Exception as e:
    print(f"cannot run: {e}")
    sys.exit(2)
print("onnxruntime", ort.__version__, "with", PROVIDER, "alone; Transpose, Expand, Transpose of f16 data, "
      "ORT_ENABLE_ALL")
print(f"shape [2, 2, 3] (Expand kept):    first element 0x{kept:04x}")
print(f"shape [2, 3] (Expand eliminated): first element 0x{removed:04x}")
print("spec: 0xfc01 both times")
bug = kept == 0xFE01
print("the bug shows: the kept Expand quiets the NaN" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
