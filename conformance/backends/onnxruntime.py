"""ONNX Runtime: ONNX `Expand` (opsets 8 and 13) in an InferenceSession on the CPU execution provider.

Expand has the bidirectional rule and no other, so only bidirectional Broadcast-3 cases apply; the
others are not applicable, with that reason. The shape input is either an initializer (``init``: known
when the session is created) or a graph input (``input``: fed at run time).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.backends.base import Backend, Outcome, Request
from conformance.cases import Case

# onnx >= 1.23 writes IR version 14 by default, which older runtimes refuse; IR 7 is enough for opset 13.
IR_VERSION = 7


def expand_model(request: Request, opset: int, shape_as_input: bool) -> Any:
    import onnx
    from onnx import helper, numpy_helper

    elem = helper.np_dtype_to_tensor_dtype(request.data.dtype)
    inputs = [helper.make_tensor_value_info("data", elem, list(request.data.shape))]
    shape = np.asarray(request.target_shape)
    initializers = []
    if shape_as_input:
        inputs.append(helper.make_tensor_value_info("shape", onnx.TensorProto.INT64, list(shape.shape)))
    else:
        initializers.append(numpy_helper.from_array(shape, "shape"))
    graph = helper.make_graph(
        [helper.make_node("Expand", ["data", "shape"], ["output"])], "expand", inputs,
        [helper.make_tensor_value_info("output", elem, None)], initializers)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=IR_VERSION,
                             producer_name="broadcast-conformance")


def declared(model: Any) -> tuple[int | None, ...] | None:
    """The output shape ONNX shape inference gives, None for unknown dimensions or rank."""
    import onnx

    try:
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    except Exception:  # shape inference refusing the model is not the runtime's verdict
        return None
    output = inferred.graph.output[0].type.tensor_type
    if not output.HasField("shape"):
        return None
    return tuple(d.dim_value if d.HasField("dim_value") else None for d in output.shape.dim)


class OnnxRuntimeBackend(Backend):
    name = "onnxruntime"
    package = "onnxruntime"
    variants = {"opset8-init": 3, "opset8-input": 3, "opset13-init": 3, "opset13-input": 3}
    # Types of ONNX Runtime's CPU Expand kernel (onnxruntime/core/providers/cpu/tensor/expand.cc).
    dtypes = frozenset({"bool", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "f32", "f64"})

    def variants_for(self, case: Case) -> dict[str, str | None]:
        if case.mode != "bidirectional":
            reason = (f"ONNX Expand has the bidirectional rule only; a {case.mode}-mode case would be "
                      "judged against a rule Expand does not claim")
            return {"expand": reason}
        if case.axes_mapping is not None:
            return {"expand": "ONNX Expand has no axes_mapping input"}
        return super().variants_for(case)

    def run(self, request: Request) -> Outcome:
        import onnxruntime

        opset_name, kind = request.variant.split("-")
        model = expand_model(request, int(opset_name.removeprefix("opset")), kind == "input")
        shape = declared(model)
        feeds = {"data": request.data}
        if kind == "input":
            feeds["shape"] = np.asarray(request.target_shape)
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 4  # rejections are our results, not log noise
        try:
            session = onnxruntime.InferenceSession(model.SerializeToString(), options,
                                                   providers=["CPUExecutionProvider"])
        except Exception as e:  # onnxruntime raises its own exception types from C++
            return Outcome(error=f"{type(e).__name__}: {e}", stage="compile", declared_shape=shape)
        try:
            (result,) = session.run(None, feeds)
        except Exception as e:
            return Outcome(error=f"{type(e).__name__}: {e}", stage="infer", declared_shape=shape)
        return Outcome(output=np.array(result, copy=True), declared_shape=shape)
