"""Backends that run ONNX `Expand` models, and the adapter for any backend following `onnx.backend.base`.

Every ONNX backend here runs the same models: one Expand node (opset 8 or 13) whose ``shape`` input is an
initializer (``init``: known when the model is loaded) or a graph input (``input``: fed at run time).
Expand has the bidirectional rule and no other, so only bidirectional Broadcast-3 cases apply; the others
are not applicable, with that reason. A subclass says how to run a model (``run_model``) and, for a
shape-only check, what shape it declares without running (``declare_model``; by default ONNX shape inference's).

``OnnxBackendAdapter`` runs the models through a module that implements ``onnx.backend.base.Backend``
(``prepare(model, device)`` returning a rep whose ``run(inputs)`` gives the outputs), e.g.
``pytest conformance --backend onnx-backend:onnxruntime.backend``, or a subclass that names the module.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import replace
from importlib import metadata
from typing import Any, ClassVar

import numpy as np

from conformance.backends.base import Backend, Outcome, Request
from conformance.cases import Case
from conformance.run.paths import Axis, Path

# onnx >= 1.23 writes IR version 14 by default, which older runtimes refuse; IR 7 is enough for opset 13.
IR_VERSION = 7
# Every element type ONNX Expand takes of those the suite sweeps: its type constraint T is all tensor types of
# its opset (bfloat16 from Expand-13 only); the float8 and 4-bit types came to ONNX later (opsets 19 and 21) and
# Expand was never updated to take them.
EXPAND_DTYPES = frozenset({"bool", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "bf16", "f32", "f64",
                           "string"})
NOT_IN_EXPAND = ("ONNX Expand's type constraint T (opsets 8 and 13, the latest) has no {dtype}: the float8 and 4-bit "
                 "types came with opsets 19 and 21, and Expand was not updated to take them")
ONNX_ELEMENT_TYPES = {"bfloat16": "BFLOAT16"}  # numpy types helper.np_dtype_to_tensor_dtype may not know


def expand_model(request: Request, opset: int, shape_as_input: bool, output_rank: bool = False) -> Any:
    """The Expand model of a request. ``output_rank``: give the output its rank, with symbolic dimensions,
    as onnx.checker requires of a graph output (without it the output's shape is left unknown)."""
    return expand_batch_model([request], opset, output_rank)


def expand_batch_model(requests: list[Request], opset: int, output_rank: bool = False) -> Any:
    """One model holding an independent Expand per request, in order: inputs ``data`` and (for an ``input``
    variant) ``shape``, output ``output``, each suffixed with the request's position after the first."""
    from onnx import helper, numpy_helper

    nodes, inputs, outputs, initializers = [], [], [], []
    for i, request in enumerate(requests):
        suffix = str(i) if i else ""
        data, shape_name, out = f"data{suffix}", f"shape{suffix}", f"output{suffix}"
        elem = tensor_type(request.data.dtype)
        inputs.append(helper.make_tensor_value_info(data, elem, list(request.input_shape)))
        shape = np.asarray(request.target_shape)
        if request.path["shape"] == "input":
            inputs.append(helper.make_tensor_value_info(shape_name, tensor_type(shape.dtype), list(shape.shape)))
        else:
            initializers.append(numpy_helper.from_array(shape, shape_name))
        dims = [f"{out}_{d}" for d in range(max(len(request.input_shape), shape.size))] if output_rank else None
        nodes.append(helper.make_node("Expand", [data, shape_name], [out]))
        outputs.append(helper.make_tensor_value_info(out, elem, dims))
    graph = helper.make_graph(nodes, "expand", inputs, outputs, initializers)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=IR_VERSION,
                             producer_name="broadcast-conformance")


def tensor_type(dtype: np.dtype) -> int:
    import onnx
    from onnx import helper

    if dtype.kind in "UO":
        return onnx.TensorProto.STRING
    if dtype.name in ONNX_ELEMENT_TYPES:
        return getattr(onnx.TensorProto, ONNX_ELEMENT_TYPES[dtype.name])
    return helper.np_dtype_to_tensor_dtype(dtype)


def batch_feeds(requests: list[Request]) -> dict[str, np.ndarray]:
    """Inputs by name; strings as the object arrays ONNX runtimes take."""
    feeds = {}
    for i, request in enumerate(requests):
        suffix = str(i) if i else ""
        feeds[f"data{suffix}"] = request.data.astype(object) if request.data.dtype.kind == "U" else request.data
        if request.path["shape"] == "input":
            feeds[f"shape{suffix}"] = np.asarray(request.target_shape)
    return feeds


def inferred_shapes(model: Any) -> list[tuple[int | None, ...] | None]:
    """The shape ONNX shape inference gives each output, None for unknown dimensions or rank."""
    import onnx

    try:
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    except Exception:  # shape inference refusing the model is not the backend's verdict
        return [None] * len(model.graph.output)
    shapes: list[tuple[int | None, ...] | None] = []
    for output in inferred.graph.output:
        tensor = output.type.tensor_type
        shapes.append(tuple(d.dim_value if d.HasField("dim_value") else None for d in tensor.shape.dim)
                      if tensor.HasField("shape") else None)
    return shapes


def inferred_shape(model: Any) -> tuple[int | None, ...] | None:
    """The output shape ONNX shape inference gives, None for unknown dimensions or rank."""
    return inferred_shapes(model)[0]


def as_requested(outcome: Outcome, request: Request) -> Outcome:
    """Strings come back as object arrays: as the fixed-width strings they went in as (a non-string output is
    left alone, for the judge to see)."""
    out = outcome.output
    if out is None or request.data.dtype.kind != "U" or out.dtype != object:
        return outcome
    if not all(isinstance(x, str) for x in out.reshape(-1).tolist()):
        return outcome
    return replace(outcome, output=out.astype(request.data.dtype))


class ExpandBackend(Backend):
    """A backend that runs ONNX Expand models; subclasses implement ``run_model``."""

    axes = (Axis("opset", ("8", "13"), {"8": "opset8", "13": "opset13"}, "the ONNX opset of the Expand node"),
            Axis("shape", ("initializer", "input"), {"initializer": "init", "input": "input"},
                 "Expand's shape input as an initializer (known when the model is loaded) or a graph input (fed "
                 "at run time)"))
    dtypes = EXPAND_DTYPES
    output_rank: ClassVar[bool] = False  # see expand_model

    def op_version(self, path: Path, op: str = "broadcast") -> int | None:
        return 3  # Expand is the bidirectional rule, Broadcast-3's

    def fed_at_run_time(self, path: Path) -> bool:
        return dict(path)["shape"] == "input"

    def paths_for(self, case: Case) -> dict[Path, str | None]:
        if case.op == "broadcast" and case.params.mode != "bidirectional":
            return {(): f"ONNX Expand has the bidirectional rule only; a {case.params.mode}-mode case would be "
                        "judged against a rule Expand does not claim"}
        if case.op == "broadcast" and case.params.axes_mapping is not None:
            return {(): "ONNX Expand has no axes_mapping input"}
        return super().paths_for(case)

    def model(self, request: Request) -> Any:
        return expand_model(request, int(request.path["opset"]), request.path["shape"] == "input",
                            self.output_rank)

    def why_not(self, case: Case, path: Path, dtype: str) -> str | None:
        if dtype in ("i4", "u4", "f8e4m3", "f8e5m2"):
            return NOT_IN_EXPAND.format(dtype=dtype)
        if dtype == "bf16" and dict(path)["opset"] == "8":
            return "ONNX Expand-8's type constraint T has no bfloat16 (Expand-13 added it)"
        return super().why_not(case, path, dtype)

    def shape_type_rule(self, path: Path, shape_dtype: str) -> str | None:
        if shape_dtype != "i64":
            return "onnx_shape_int64 (ONNX Expand's shape input is tensor(int64) only)"
        return None

    def run(self, request: Request) -> Outcome:
        return as_requested(self.run_model(self.model(request), batch_feeds([request])), request)

    def run_many(self, requests: list[Request]) -> list[Outcome]:
        """One model per opset for all the requests, if the subclass can run several outputs at once."""
        outcomes: dict[int, Outcome] = {}
        by_opset: dict[int, list[int]] = {}
        for i, request in enumerate(requests):
            by_opset.setdefault(int(request.path["opset"]), []).append(i)
        for opset, members in by_opset.items():
            batch = [requests[i] for i in members]
            shared = self.run_model_many(expand_batch_model(batch, opset, self.output_rank), batch_feeds(batch))
            results: list[Outcome | None] = list(shared) if shared else [None] * len(members)
            for i, result in zip(members, results, strict=True):
                outcomes[i] = self.run(requests[i]) if result is None else as_requested(result, requests[i])
        return [outcomes[i] for i in range(len(requests))]

    def run_model_many(self, model: Any, feeds: dict[str, np.ndarray]) -> list[Outcome] | None:
        """Run a model of several independent Expands: an Outcome per output with its output, or None if the
        model failed as a whole (each request is then run alone). The default never shares a model."""
        return None

    def declare(self, request: Request) -> Outcome:
        return self.declare_model(self.model(request))

    def run_model(self, model: Any, feeds: dict[str, np.ndarray]) -> Outcome:
        """Run an Expand model (an onnx.ModelProto) on its inputs, by name."""
        raise NotImplementedError

    def declare_model(self, model: Any) -> Outcome:
        """The output shape of an Expand model, or its rejection, without running it."""
        return Outcome(declared_shape=inferred_shape(model))


def distribution_of(module: str) -> str | None:
    """The installed distribution that provides a module, for its version; None if none does."""
    found = metadata.packages_distributions().get(module.partition(".")[0], [])
    return found[0] if found else None


class OnnxBackendAdapter(ExpandBackend):
    """Any module implementing onnx.backend.base.Backend. Subclass it and set ``module`` (and ``name``), or
    select it as ``--backend onnx-backend:MODULE``; the backend's name is then the module's."""

    module: ClassVar[str]
    device: ClassVar[str] = "CPU"
    output_rank = True  # onnx.backend implementations may run onnx.checker (onnxruntime.backend does)

    def __init__(self, module: str | None = None) -> None:
        if module is not None:
            self.module = self.name = module  # type: ignore[misc]  # per instance: one class, any module
        if self.package is None:
            self.package = distribution_of(self.module)  # type: ignore[misc]

    def unavailable(self) -> str | None:
        try:
            found = importlib.util.find_spec(self.module)
        except ImportError as e:  # a parent package is missing
            return f"module {self.module!r} cannot be imported: {e}"
        if found is None:
            return f"module {self.module!r} is not installed"
        return super().unavailable()

    def run_model(self, model: Any, feeds: dict[str, np.ndarray]) -> Outcome:
        backend = importlib.import_module(self.module)
        shape = inferred_shape(model)
        try:
            rep = backend.prepare(model, device=self.device)
        except Exception as e:  # backends raise their own exception types
            return Outcome(error=f"{type(e).__name__}: {e}", stage="compile", declared_shape=shape)
        try:
            outputs = rep.run([feeds[i.name] for i in model.graph.input])
        except Exception as e:
            return Outcome(error=f"{type(e).__name__}: {e}", stage="infer", declared_shape=shape)
        return Outcome(output=np.array(outputs[0], copy=True), declared_shape=shape)
