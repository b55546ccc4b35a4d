"""OpenVINO: opset1 and opset3 Broadcast, built with the real `openvino` package, run on the CPU plugin.

Every check runs in one of two variants, which take different code paths in OpenVINO:
``const``  target_shape and axes_mapping are Constants: the output shape is inferred when the node is built;
``param``  they are Parameters fed at inference: the node's shape is dynamic and resolved at run time.
The data is always a Parameter, so the CPU plugin's Broadcast kernel runs (a Constant would be folded).

Compiling is most of a check's cost (about 25 ms), so ``run_many`` puts the Broadcast nodes of several checks
side by side in one model, each with its own Parameters and output, and compiles that once; a single check's
compiled model is kept per signature (a ``param`` model serves every check with the same data shape and
input lengths). A shared model that fails to compile or run is never a verdict: each check is run alone.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from conformance.backends.base import Backend, Outcome, Request

COMPILED_CACHE_SIZE = 64


def declared(partial_shape: Any) -> tuple[int | None, ...] | None:
    """An ov.PartialShape as a tuple, None for each dynamic dimension; None for a dynamic rank."""
    if partial_shape.rank.is_dynamic:
        return None
    return tuple(d.get_length() if d.is_static else None for d in partial_shape)


def infer(compiled: Any, feeds: Any, shape: tuple[int | None, ...] | None) -> Outcome:
    """Run a compiled one-output model in a fresh infer request; a rejection is stage ``infer``."""
    try:
        request = compiled.create_infer_request()
        result = request.infer(feeds)[0]
    except RuntimeError as e:
        return Outcome(error=str(e), stage="infer", declared_shape=shape)
    # The result may alias the request's buffer: keep our own copy.
    return Outcome(output=np.array(result, copy=True), declared_shape=shape)


def compile_and_infer(core: Any, model: Any, feeds: Any, shape: tuple[int | None, ...] | None) -> Outcome:
    """Compile on the CPU plugin and run once; a rejection names the stage it came from."""
    try:
        compiled = core.compile_model(model, "CPU")
    except RuntimeError as e:
        return Outcome(error=str(e), stage="compile", declared_shape=shape)
    return infer(compiled, feeds, shape)


def compile_and_infer_many(core: Any, model: Any, feeds: list[np.ndarray]) -> list[np.ndarray] | None:
    """Every output of a model of several independent parts, copied; None if compiling or running failed."""
    try:
        results = core.compile_model(model, "CPU")(feeds).to_tuple()
    except RuntimeError:
        return None
    return [np.array(r, copy=True) for r in results]


@dataclass
class Graph:
    """One check's Broadcast node, its Parameters and what to feed them, and the shape it declares."""

    output: Any
    params: list[Any]
    feeds: list[np.ndarray]
    shape: tuple[int | None, ...] | None


class OpenVINOBackend(Backend):
    name = "openvino"
    package = "openvino"
    variants = {"opset1-const": 1, "opset1-param": 1, "opset3-const": 3, "opset3-param": 3}
    dtypes = frozenset({"bool", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "f32", "f64"})
    runtime_inputs = frozenset({"opset1-param", "opset3-param"})
    preload = ("openvino",)

    def __init__(self) -> None:
        self.compiled: OrderedDict[tuple[Any, ...], Any] = OrderedDict()  # signature -> compiled model

    @cached_property
    def core(self) -> Any:
        import openvino

        return openvino.Core()

    def graph(self, request: Request, prefix: str = "") -> Graph | Outcome:
        """The check's node and inputs; or the rejection at build time."""
        import openvino
        import openvino.opset1
        import openvino.opset3
        from openvino.utils.node_factory import NodeFactory

        opset_name = request.variant.split("-")[0]
        opset = openvino.opset1 if opset_name == "opset1" else openvino.opset3
        as_param = request.variant.endswith("-param")
        # -1: a dimension unknown until run time (a case's "?")
        data = opset.parameter([-1 if d is None else d for d in request.input_shape], request.data.dtype,
                               name=f"{prefix}data")
        params, feeds = [data], [request.data]

        def shape_input(values: np.ndarray, name: str) -> Any:
            if not as_param:
                # openvino.op.Constant, not opset.constant(): the latter refuses an empty array, and an
                # empty target_shape or axes_mapping is valid (a scalar output, a scalar input).
                return openvino.op.Constant(values)
            node = opset.parameter(values.shape, values.dtype, name=f"{prefix}{name}")
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
        except RuntimeError as e:
            return Outcome(error=str(e), stage="build")
        return Graph(node.output(0), params, feeds, shape)

    def declare(self, request: Request) -> Outcome:
        built = self.graph(request)
        return built if isinstance(built, Outcome) else Outcome(declared_shape=built.shape)

    @staticmethod
    def signature(request: Request) -> tuple[Any, ...]:
        """What the compiled model depends on: with Parameters for the shape inputs, their lengths only."""
        as_param = request.variant.endswith("-param")

        def shape_input(values: np.ndarray | None) -> Any:
            if values is None:
                return None
            return (values.dtype.str, values.shape) if as_param else (values.dtype.str, values.tobytes())

        return (request.variant, request.mode, request.data.dtype.str, request.input_shape,
                shape_input(request.target_shape), shape_input(request.axes_mapping))

    def run(self, request: Request) -> Outcome:
        import openvino

        built = self.graph(request)
        if isinstance(built, Outcome):
            return built
        key = self.signature(request)
        compiled = self.compiled.get(key)
        if compiled is None:
            try:
                compiled = self.core.compile_model(openvino.Model([built.output], built.params, "broadcast"), "CPU")
            except RuntimeError as e:
                return Outcome(error=str(e), stage="compile", declared_shape=built.shape)
            self.compiled[key] = compiled
            if len(self.compiled) > COMPILED_CACHE_SIZE:
                self.compiled.popitem(last=False)
        else:
            self.compiled.move_to_end(key)
        return infer(compiled, built.feeds, built.shape)

    def run_many(self, requests: list[Request]) -> list[Outcome]:
        import openvino

        outcomes: list[Outcome | None] = [None] * len(requests)
        graphs: list[tuple[int, Graph]] = []
        for i, request in enumerate(requests):
            built = self.graph(request, prefix=f"check{i}_")
            if isinstance(built, Outcome):
                outcomes[i] = built  # rejected when built: that is this check's own result
            else:
                graphs.append((i, built))
        if graphs:
            model = openvino.Model([g.output for _, g in graphs], [p for _, g in graphs for p in g.params], "batch")
            results = compile_and_infer_many(self.core, model, [f for _, g in graphs for f in g.feeds])
            for k, (i, g) in enumerate(graphs):
                outcomes[i] = (self.run(requests[i]) if results is None
                               else Outcome(output=results[k], declared_shape=g.shape))
        return [o for o in outcomes if o is not None]
