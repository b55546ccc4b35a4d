"""ortov-constant-shape-beyond-int32-saturated-empty-output, ortov-int64-max-dimension-incompatible,
ortov-datainit-int64-max-shape-read-as-dynamic (conformance/known/onnxruntime-openvino.yaml)

Expand(data, Shape(x)) alone under ORT_DISABLE_ALL (opset 13), run by ONNX Runtime's OpenVINO execution provider
alone (the CPU fallback off), which claims the Shape, Expand pair; x is a graph input of static shape, the target,
with no element. Each input is valid and the spec's output is the empty broadcast of data (1,):
- x of shape (0, 2**31) (u8 data fed): the output comes back (0, 2147483647), OpenVINO's constant shape saturated to
  int32 (so does f16 data with a shape initializer [0, 2**31], the lone Expand the provider claims for f16);
- x of shape (0, 2**63 - 1), data fed: the run refuses to take x ("Can't set the input tensor ... incompatible");
- x of shape (0, 2**63 - 1), data an initializer: the session is refused ("to_shape was called on a dynamic shape").
The control, x of shape (0, 5), gives (0, 5).

Exit 0: every bug shows; 1: one does not (the runtime does what the spec says there); 2: cannot run here.
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


def session(nodes: list, inputs: list, inits: list, elem: int) -> ort.InferenceSession:
    graph = helper.make_graph(nodes, "g", inputs, [helper.make_tensor_value_info("y", elem, None)], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])


def output_shape(nodes: list, inputs: list, inits: list, elem: int, feeds: dict) -> str:
    """The output's shape, or the refusal's last line."""
    try:
        return str(session(nodes, inputs, inits, elem).run(None, feeds)[0].shape)
    except Exception as e:
        return "refused: " + (str(e).strip().splitlines() or [""])[-1][-100:]


def computed(target: tuple[int, ...], data_init: bool) -> str:
    """The output's shape (or the error) of Expand(data, Shape(x)), x of shape target (no element), u8 data (1,)."""
    data = np.ones(1, np.uint8)
    x = np.lib.stride_tricks.as_strided(np.zeros(1, np.uint8), target, (0,) * len(target))  # no element
    inputs = [helper.make_tensor_value_info("x", TensorProto.UINT8, list(target))]
    inits, feeds = [], {"x": x}
    if data_init:
        inits.append(numpy_helper.from_array(data, "d"))
    else:
        inputs.append(helper.make_tensor_value_info("d", TensorProto.UINT8, [1]))
        feeds["d"] = data
    nodes = [helper.make_node("Shape", ["x"], ["s"]), helper.make_node("Expand", ["d", "s"], ["y"])]
    return output_shape(nodes, inputs, inits, TensorProto.UINT8, feeds)


def f16_lone(shape: list[int]) -> str:
    nodes = [helper.make_node("Expand", ["d", "s"], ["y"])]
    inputs = [helper.make_tensor_value_info("d", TensorProto.FLOAT16, [1])]
    inits = [numpy_helper.from_array(np.array(shape, np.int64), "s")]
    return output_shape(nodes, inputs, inits, TensorProto.FLOAT16, {"d": np.ones(1, np.float16)})


print("onnxruntime", ort.__version__, "with", PROVIDER, "alone, ORT_DISABLE_ALL, opset 13; Expand(data (1,), Shape(x))")
control = computed((0, 5), False)
saturated = computed((0, 2**31), False)
f16 = f16_lone([0, 2**31])
fed = computed((0, 2**63 - 1), False)
init = computed((0, 2**63 - 1), True)
print("x (0, 5), data fed (control):", control, "  spec: (0, 5)")
print("x (0, 2**31), data fed:", saturated, "  spec: (0, 2147483648)")
print("f16 data fed, shape initializer [0, 2**31] (lone Expand):", f16, "  spec: (0, 2147483648)")
print("x (0, 2**63 - 1), data fed:", fed, "  spec: (0, 9223372036854775807)")
print("x (0, 2**63 - 1), data initializer:", init, "  spec: (0, 9223372036854775807)")
if control != "(0, 5)":
    print("cannot run: the control does not give (0, 5)")
    sys.exit(2)
bug = saturated == f16 == "(0, 2147483647)" and "incompatible" in fed and "dynamic shape" in init
print("the bugs show" if bug else "the bugs do not all show")
sys.exit(0 if bug else 1)
