"""OpenVINO's ONNX frontend: the ONNX Expand models ONNX Runtime runs, read by ``Core.read_model`` and run
on the CPU plugin.

The frontend converts Expand into a bidirectional Broadcast-3 (src/frontends/onnx/frontend/src/op/expand.cpp),
so this backend runs the same CPU kernel as ``openvino`` opset3 bidirectional, reached through the converter:
what differs from that backend is the converter's doing. Stages: ``build`` is read_model (the conversion),
then ``compile`` and ``infer``. The declared shape is that of the converted model's output, before compiling.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np

from conformance.backends.base import Outcome
from conformance.backends.onnx_backend import EXPAND_DTYPES, ExpandBackend
from conformance.backends.openvino import (
    STRING_UNSUPPORTED,
    compile_and_infer,
    compile_and_infer_many,
    cpu_capabilities,
    declared,
)


class OpenVINOOnnxBackend(ExpandBackend):
    name = "openvino-onnx"
    package = "openvino"
    # The ONNX frontend maps every ONNX tensor type Expand takes; the CPU plugin then runs i64, u64 and f64
    # in 32 bits, as it does for the openvino backend (see conformance/known/openvino-onnx.yaml).
    dtypes = EXPAND_DTYPES - {"string"}
    unsupported = {"string": STRING_UNSUPPORTED}
    preload = ("onnx", "openvino", "conformance.backends.openvino_libraries")

    @cached_property
    def core(self) -> Any:
        import openvino

        return openvino.Core()

    def hardware(self) -> tuple[str, ...]:
        return cpu_capabilities()

    def convert(self, model: Any) -> tuple[Any, tuple[int | None, ...] | None] | Outcome:
        """The converted ov.Model and the shape its output declares; or the converter's rejection."""
        try:
            converted = self.core.read_model(model.SerializeToString(), b"")
            return converted, declared(converted.output(0).get_partial_shape())
        except RuntimeError as e:
            return Outcome(error=str(e), stage="build")

    def declare_model(self, model: Any) -> Outcome:
        converted = self.convert(model)
        return converted if isinstance(converted, Outcome) else Outcome(declared_shape=converted[1])

    def run_model(self, model: Any, feeds: dict[str, np.ndarray]) -> Outcome:
        converted = self.convert(model)
        if isinstance(converted, Outcome):
            return converted
        ov_model, shape = converted
        return compile_and_infer(self.core, ov_model, [feeds[i.get_any_name()] for i in ov_model.inputs], shape)

    def run_model_many(self, model: Any, feeds: dict[str, np.ndarray]) -> list[Outcome] | None:
        try:
            converted = self.core.read_model(model.SerializeToString(), b"")
        except RuntimeError:
            return None
        # the converted model keeps the ONNX names of inputs and outputs; feed and read them in its own order
        outputs = {o.get_any_name(): o for o in converted.outputs}
        wanted = [outputs[o.name] for o in model.graph.output]
        data_of = {o.name: feeds[o.name.replace("output", "data")] for o in model.graph.output}
        results = compile_and_infer_many(self.core, converted, [feeds[i.get_any_name()] for i in converted.inputs],
                                         [data_of[o.get_any_name()].dtype for o in converted.outputs])
        if results is None:
            return None
        by_name = {o.get_any_name(): r for o, r in zip(converted.outputs, results, strict=True)}
        return [Outcome(output=by_name[o.get_any_name()], declared_shape=declared(o.get_partial_shape()))
                for o in wanted]
