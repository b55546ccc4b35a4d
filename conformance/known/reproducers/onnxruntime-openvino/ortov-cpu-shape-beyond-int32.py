"""ortov-cpu-static-output-beyond-int32-allocated-at-compile, ortov-convertbroadcast3-max-of-one-and-zero-allocates-
int32-max, ortov-cpu-run-time-shape-cut-to-int32-empty-output (conformance/known/onnxruntime-openvino.yaml)

Between two Transposes (opset 8), run by ONNX Runtime's OpenVINO execution provider (ORT_DISABLE_ALL) under an 8 GiB
address-space limit as the suite's workers, shapes with a value beyond
int32, each valid: f32 data (2,) with the shape initializer [2**31, 1] fails to allocate 2**31 - 1 rows when the
session is created (the spec's output (2**31, 2) is only asked for its shape: no session should need it); data (1,)
with [2**31, 0] (an empty output) fails to allocate 8 GiB; data (1,) as an initializer with [2**32 + 1, 0] fed at run
time gives (1, 0) where the spec says (4294967297, 0).

Exit 0: the bugs show; 1: the runtime does what the spec says; 2: cannot run here.
"""

import resource
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


def session(data_shape: tuple[int, ...], shape: list[int], data_init: bool, opset: int = 8) -> tuple[object, dict]:
    rank, out_rank = len(data_shape), max(len(data_shape), len(shape))
    nodes = [helper.make_node("Transpose", ["x"], ["xt"], perm=list(range(rank))[::-1]),
             helper.make_node("Expand", ["xt", "s"], ["e"]),
             helper.make_node("Transpose", ["e"], ["y"], perm=list(range(out_rank))[::-1])]
    data = np.ones(data_shape[::-1], np.float32)
    inputs, inits, feeds = [], [], {}
    if data_init:  # the shape fed at run time
        inits.append(numpy_helper.from_array(data, "x"))
        inputs.append(helper.make_tensor_value_info("s", TensorProto.INT64, [len(shape)]))
        feeds["s"] = np.array(shape, np.int64)
    else:
        inputs.append(helper.make_tensor_value_info("x", TensorProto.FLOAT, list(data.shape)))
        inits.append(numpy_helper.from_array(np.array(shape, np.int64), "s"))
        feeds["x"] = data
    graph = helper.make_graph(nodes, "g", inputs, [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=7)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER]), feeds


def created(data_shape: tuple[int, ...], shape: list[int]) -> str:
    try:
        session(data_shape, shape, False)
    except Exception as e:
        return "refused: " + (str(e).strip().splitlines() or [""])[-1][-90:]
    return "created"


# the suite's workers run under an address-space limit: 8 GiB here, so that an allocation beyond it fails as there
resource.setrlimit(resource.RLIMIT_AS, (8 * 2**30, resource.getrlimit(resource.RLIMIT_AS)[1]))
print("onnxruntime", ort.__version__, "with", PROVIDER, "alone, ORT_DISABLE_ALL, opset 8; Transpose, Expand, "
      "Transpose; 8 GiB of address space")
huge, empty = created((2,), [2**31, 1]), created((1,), [2**31, 0])
try:
    cut, feeds = session((1,), [2**32 + 1, 0], True)
    cut_shape = cut.run(None, feeds)[0].T.shape
except Exception as e:
    print(f"cannot run: {e}")
    sys.exit(2)
print("data (2,), shape initializer [2**31, 1]:", huge, "  spec: a session, output (2147483648, 2)")
print("data (1,), shape initializer [2**31, 0]:", empty, "  spec: output (2147483648, 0)")
print("data (1,) initializer, shape [2**32 + 1, 0] fed: output", cut_shape, "  spec: (4294967297, 0)")
bug = "allocate" in huge and "allocate" in empty and cut_shape != (2**32 + 1, 0)
print("the bugs show" if bug else "the bugs do not all show")
sys.exit(0 if bug else 1)
