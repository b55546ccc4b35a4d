"""OpenVINO's elementwise ops (conformance/ops/elementwise/): the ``openvino`` backend's paths and runs for cases of
``op: elementwise``, built with the ``openvino`` package (opset13) and run on the CPU plugin.

Path axes (as data, like Broadcast's in openvino_paths.py, but for this op only; values are their own labels):

* ``function``: the suite's function (``add``...), run as the OpenVINO op FUNCTIONS names;
* ``inputs``: ``Parameter`` (fed at run time) or ``Constant`` (every input a Constant: the node is folded while
  compiling, by the op's own ``evaluate``, a different code path from the CPU plugin's kernel);
* ``shapes``: ``static`` or ``dynamic`` (Parameters of the right rank with every dimension unknown when the model
  is built: broadcasting is then resolved by the CPU plugin's shape inference at run time);
* ``threads`` (conformance/backends/openvino_threads.py): ``1`` with dynamic shapes, for the inputs the rules refuse
  (refused at run time, where one thread does not report it) and the spec's examples; else the plugin's choice.

The node's declared output shape is checked as well (with ``dynamic``, its unknown dimensions are compatible with
anything). Several checks share one model (``run_many``); a shared model that fails is never a verdict.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance.backends import openvino_threads as threads
from conformance.backends.base import Outcome, Request
from conformance.cases import Case
from conformance.ops.elementwise import functions
from conformance.run.paths import Path

# the suite's function -> OpenVINO opset13's Python factory; OpenVINO's ops are binary but for Select
FUNCTIONS = {"add": "add", "subtract": "subtract", "multiply": "multiply", "squared_difference": "squared_difference",
             "maximum": "maximum", "minimum": "minimum", "equal": "equal", "less": "less",
             "logical_and": "logical_and", "logical_or": "logical_or", "logical_xor": "logical_xor",
             "bitwise_and": "bitwise_and", "bitwise_or": "bitwise_or", "bitwise_xor": "bitwise_xor",
             "select": "select", "prelu": "prelu"}
TERNARY = {"select"}
NO_AUTO_BROADCAST = {"prelu"}  # PRelu-1 has no auto_broadcast attribute: its slope always broadcasts to data
INPUTS = ("Parameter", "Constant")
SHAPES = ("static", "dynamic")


def paths_for(case: Case) -> dict[Path, str | None]:
    """The case's paths: each function it runs that OpenVINO has with that many inputs, each way of feeding."""
    p = case.params
    found: dict[Path, str | None] = {}
    for name in functions.FUNCTIONS:
        if name not in FUNCTIONS or name not in case.spec.versions(p) or (len(p.shapes) == 3) != (name in TERNARY):
            continue
        why = None
        if name in NO_AUTO_BROADCAST and p.auto_broadcast != "numpy":
            why = "OpenVINO's PRelu has no auto_broadcast attribute (its slope always broadcasts numpy-style)"
        for inputs in INPUTS:
            for shapes in SHAPES:
                if shapes == "dynamic" and (inputs == "Constant" or all(len(s) == 0 for s in p.shapes)):
                    continue  # a Constant has a static shape; a rank-0 shape has no dimension to leave unknown
                found[(("function", name), ("inputs", inputs), ("shapes", shapes))] = why
                if shapes == "dynamic" and (not case.valid or case.group == threads.SAMPLED):
                    found[(("function", name), ("inputs", inputs), ("shapes", shapes), ("threads", "1"))] = why
    return found


@dataclass
class Built:
    node: Any
    parameters: list[Any]
    feeds: list[np.ndarray]
    declared: tuple[int | None, ...] | None


def _declared(node: Any) -> tuple[int | None, ...] | None:
    shape = node.get_output_partial_shape(0)
    if shape.rank.is_dynamic:
        return None
    return tuple(d.get_length() if d.is_static else None for d in shape)


def build(request: Request, prefix: str = "") -> Built | Outcome:
    """The check's node and its inputs; or the rejection at build time."""
    import openvino
    import openvino.opset13 as opset

    path = request.path
    arrays = [np.asarray(a) for a in request.inputs.values() if a is not None]
    nodes, parameters, feeds = [], [], []
    for k, array in enumerate(arrays):
        if path["inputs"] == "Constant":
            nodes.append(opset.constant(array))
            continue
        dims = [-1] * array.ndim if path["shapes"] == "dynamic" else list(array.shape)
        parameter = opset.parameter(openvino.PartialShape(dims), array.dtype, name=f"{prefix}input{k}")
        nodes.append(parameter)
        parameters.append(parameter)
        feeds.append(array)
    factory = getattr(opset, FUNCTIONS[path["function"]])
    try:
        if path["function"] in NO_AUTO_BROADCAST:
            node = factory(*nodes)
        else:
            node = factory(*nodes, auto_broadcast=request.attrs["auto_broadcast"])
    except RuntimeError as e:
        return Outcome(error=str(e), stage="build")
    return Built(node, parameters, feeds, _declared(node))


class Failed(RuntimeError):
    """Compiling or running a model failed; ``stage`` says which."""

    def __init__(self, stage: str, error: RuntimeError) -> None:
        self.stage = stage
        super().__init__(str(error))


def run_built(core: Any, graphs: list[Built], device: str = "CPU", path: Any = None
              ) -> tuple[list[np.ndarray], str | None]:
    """Every graph's output from one model, and the error its run raised unreported (one thread); Failed if
    compiling or running it fails."""
    import openvino

    model = openvino.Model([g.node.output(0) for g in graphs], [p for g in graphs for p in g.parameters],
                           "elementwise")
    try:
        compiled = core.compile_model(model, device, threads.config(path))
    except RuntimeError as e:
        raise Failed("compile", e) from e
    feeds = [f for g in graphs for f in g.feeds]
    try:
        request = compiled.create_infer_request()
        request.infer(feeds)
        outputs = [np.array(request.get_output_tensor(k).data, copy=True) for k in range(len(graphs))]
    except RuntimeError as e:
        raise Failed("infer", e) from e
    return outputs, threads.unreported_error(compiled, feeds)


def run(core: Any, request: Request, device: str = "CPU") -> Outcome:
    built = build(request)
    if isinstance(built, Outcome):
        return built
    try:
        (output,), unreported = run_built(core, [built], device, request.path)
    except Failed as e:
        return Outcome(error=str(e), stage=e.stage, declared_shape=built.declared)
    return Outcome(output=output, declared_shape=built.declared, unreported_error=unreported)


def run_many(core: Any, requests: list[Request], device: str = "CPU") -> list[Outcome]:
    """One model for every check that builds (of one device and thread count); each that does not keeps its
    rejection; if the shared model fails, each check runs alone."""
    outcomes: list[Outcome | None] = [None] * len(requests)
    members: list[tuple[int, Built]] = []
    for i, request in enumerate(requests):
        built = build(request, prefix=f"check{i}_")
        if isinstance(built, Outcome):
            outcomes[i] = built
        else:
            members.append((i, built))
    try:
        results: list[np.ndarray] | None = []
        if members:
            results, unreported = run_built(core, [g for _, g in members], device, requests[0].path)
            if unreported:
                results = None  # some check's run failed unreported: each runs alone, where it is found
    except Failed:
        results = None
    for k, (i, g) in enumerate(members):
        outcomes[i] = run(core, requests[i], device) if results is None else \
            Outcome(output=results[k], declared_shape=g.declared)
    return [o for o in outcomes if o is not None]
