"""OpenVINO: opset1 and opset3 Broadcast, built with the real `openvino` package, run on the CPU plugin.

Every check runs in one of two variants, which take different code paths in OpenVINO:
``const``  target_shape and axes_mapping are Constants: the output shape is inferred when the node is built;
``param``  they are Parameters fed at inference: the node's shape is dynamic and resolved at run time.
The data is always a Parameter, so the CPU plugin's Broadcast kernel runs (a Constant would be folded).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np

from conformance.backends.base import Backend, Outcome, Request


def declared(partial_shape: Any) -> tuple[int | None, ...] | None:
    """An ov.PartialShape as a tuple, None for each dynamic dimension; None for a dynamic rank."""
    if partial_shape.rank.is_dynamic:
        return None
    return tuple(d.get_length() if d.is_static else None for d in partial_shape)


def compile_and_infer(core: Any, model: Any, feeds: Any, shape: tuple[int | None, ...] | None) -> Outcome:
    """Compile on the CPU plugin and run once; a rejection names the stage it came from."""
    try:
        compiled = core.compile_model(model, "CPU")
    except RuntimeError as e:
        return Outcome(error=str(e), stage="compile", declared_shape=shape)
    try:
        result = compiled(feeds)[0]
    except RuntimeError as e:
        return Outcome(error=str(e), stage="infer", declared_shape=shape)
    # The result may alias the request's buffer: keep our own copy.
    return Outcome(output=np.array(result, copy=True), declared_shape=shape)


class OpenVINOBackend(Backend):
    name = "openvino"
    package = "openvino"
    variants = {"opset1-const": 1, "opset1-param": 1, "opset3-const": 3, "opset3-param": 3}
    dtypes = frozenset({"bool", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "f32", "f64"})
    runtime_inputs = frozenset({"opset1-param", "opset3-param"})

    @cached_property
    def core(self) -> Any:
        import openvino

        return openvino.Core()

    def build(self, request: Request) -> tuple[Any, list[np.ndarray], tuple[int | None, ...] | None] | Outcome:
        """The model, its feeds and the shape the node declares; or the rejection at build time."""
        import openvino
        import openvino.opset1
        import openvino.opset3
        from openvino.utils.node_factory import NodeFactory

        opset_name = request.variant.split("-")[0]
        opset = openvino.opset1 if opset_name == "opset1" else openvino.opset3
        as_param = request.variant.endswith("-param")
        # -1: a dimension unknown until run time (a case's "?")
        data = opset.parameter([-1 if d is None else d for d in request.input_shape], request.data.dtype, name="data")
        params, feeds = [data], [request.data]

        def shape_input(values: np.ndarray, name: str) -> Any:
            if not as_param:
                # openvino.op.Constant, not opset.constant(): the latter refuses an empty array, and an
                # empty target_shape or axes_mapping is valid (a scalar output, a scalar input).
                return openvino.op.Constant(values)
            node = opset.parameter(values.shape, values.dtype, name=name)
            params.append(node)
            feeds.append(values)
            return node

        try:
            target = shape_input(request.target_shape, "target_shape")
            axes = None if request.axes_mapping is None else shape_input(request.axes_mapping, "axes_mapping")
            # The NodeFactory, not opset.broadcast(): the Python helper silently drops axes_mapping outside
            # explicit mode, which would hide how OpenVINO treats a third input there.
            inputs = [data, target] + ([] if axes is None else [axes])
            node = NodeFactory(opset_name).create("Broadcast", inputs, {"mode": request.mode})
            shape = declared(node.get_output_partial_shape(0))
            model = openvino.Model([node.output(0)], params, "broadcast")
        except RuntimeError as e:
            return Outcome(error=str(e), stage="build")
        return model, feeds, shape

    def declare(self, request: Request) -> Outcome:
        built = self.build(request)
        return built if isinstance(built, Outcome) else Outcome(declared_shape=built[2])

    def run(self, request: Request) -> Outcome:
        built = self.build(request)
        if isinstance(built, Outcome):
            return built
        model, feeds, shape = built
        return compile_and_infer(self.core, model, feeds, shape)
