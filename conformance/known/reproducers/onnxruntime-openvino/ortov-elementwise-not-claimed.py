"""ortov-bitwise-i32-not-claimed, ortov-elementwise-zero-size-not-claimed, ortov-elementwise-rank0-not-claimed
(conformance/known/onnxruntime-openvino.yaml)

Single-node models of valid inputs that ONNX Runtime's OpenVINO execution provider does not claim, so that with the
CPU fallback off the session is refused: an int32 BitwiseAnd; an Add of a (0, 3) and a (1, 3) input; an Or of a
rank-0 and a (3,) input. The controls are claimed and run: an Equal of the zero-size inputs, an And of the scalar.
Each spec output is the broadcast result ((2, 3), (0, 3), (3,)).

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


def run(op: str, a: np.ndarray, b: np.ndarray, elem: int, out_elem: int) -> str:
    graph = helper.make_graph([helper.make_node(op, ["a", "b"], ["y"])], "g",
                              [helper.make_tensor_value_info("a", elem, list(a.shape)),
                               helper.make_tensor_value_info("b", elem, list(b.shape))],
                              [helper.make_tensor_value_info("y", out_elem, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    try:
        session = ort.InferenceSession(model.SerializeToString(), options, providers=[PROVIDER])
    except Exception as e:
        return "refused" + (": not claimed" if "fallback to CPU EP" in str(e) else f": {str(e)[-120:]}")
    (out,) = session.run(None, {"a": a, "b": b})
    return f"ran: output shape {out.shape}"


B, I32, F32 = TensorProto.BOOL, TensorProto.INT32, TensorProto.FLOAT
i32 = np.arange(6, dtype=np.int32).reshape(2, 3)
empty, row = np.zeros((0, 3), np.float32), np.ones((1, 3), np.float32)
scalar, vector = np.array(True), np.array([True, False, True])
print("onnxruntime", ort.__version__, "with", PROVIDER, "alone, the CPU fallback off; one node of opset 18")
bugs = {"BitwiseAnd of int32 (2, 3) and (2, 3)": run("BitwiseAnd", i32, i32, I32, I32),
        "Add of f32 (0, 3) and (1, 3)": run("Add", empty, row, F32, F32),
        "Or of bool () and (3,)": run("Or", scalar, vector, B, B)}
controls = {"Equal of f32 (0, 3) and (1, 3)": run("Equal", empty, row, F32, B),
            "And of bool () and (3,)": run("And", scalar, vector, B, B)}
for name, result in {**bugs, **controls}.items():
    print(f"{name}: {result}")
print("spec: each is valid, the outputs (2, 3), (0, 3), (3,); the controls (0, 3), (3,)")
if not all(r.startswith("ran") for r in controls.values()):
    print("cannot run: a control is refused too")
    sys.exit(2)
bug = all(r == "refused: not claimed" for r in bugs.values())
print("the bugs show: the nodes are not the provider's" if bug else "the bugs do not all show")
sys.exit(0 if bug else 1)
