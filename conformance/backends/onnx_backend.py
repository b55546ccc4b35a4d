"""Backends that run ONNX `Expand` models, and the adapter for any backend following `onnx.backend.base`.

Every ONNX backend here runs the same models (built by conformance/backends/onnx_model.py): one Expand node per
check, along the path axes

- ``opset`` 8 or 13: the opset of the model;
- ``shape``: Expand's ``shape`` input as an initializer (``init``: known when the model is loaded), a graph input
  (``input``: fed at run time) or ``computed``: the output of ``Shape`` of an extra graph input (``uint8``) whose
  declared shape is the target, as exporters write ``x.expand_as(y)``; only for a target a tensor can have (1-D, no
  negative value, few enough elements to feed), else not applicable with the reason. Shape gives int64: a check of
  another shape integer type gets a ``Cast`` to it after the Shape;
- ``data``: the data as a graph input (the default) or an initializer (a constant the runtime may fold); not for
  data with dimensions unknown until run time.

Expand has the bidirectional rule and no other, so only bidirectional Broadcast-3 cases apply; the others
are not applicable, with that reason. A subclass says how to run a model (``run_model``) and, for a
shape-only check, what shape it declares without running (``declare_model``; by default ONNX shape inference's).
Each gets the model and the path (for the axes a subclass adds: how the model is read, how it is optimised).
Several checks share one model (``run_model_many``) when the axes that act on the whole model (all but ``shape``
and ``data``) are the same.

``OnnxBackendAdapter`` runs the models through a module that implements ``onnx.backend.base.Backend``
(``prepare(model, device)`` returning a rep whose ``run(inputs)`` gives the outputs), e.g.
``pytest conformance --backend onnx-backend:onnxruntime.backend``, or a subclass that names the module.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from functools import cache
from importlib import metadata
from typing import Any, ClassVar

import numpy as np

from conformance.backends import onnx_elementwise
from conformance.backends.base import Backend, Outcome, Request
from conformance.backends.onnx_model import (
    as_requested,
    batch_feeds,
    computed_shape_why_not,
    expand_batch_model,
    inferred_shape,
)
from conformance.cases import Case
from conformance.run.paths import Axis, Path, every_path, pairwise

# Every element type ONNX Expand takes of those the suite sweeps: its type constraint T is all tensor types of
# its opset (bfloat16 from Expand-13 only); the float8 and 4-bit types came to ONNX later (opsets 19 and 21) and
# Expand was never updated to take them.
EXPAND_DTYPES = frozenset({"bool", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "bf16", "f32", "f64",
                           "string"})
NOT_IN_EXPAND = ("ONNX Expand's type constraint T (opsets 8 and 13, the latest) has no {dtype}: the float8 and 4-bit "
                 "types came with opsets 19 and 21, and Expand was not updated to take them")


# How the runtime gets the model, for the backends that can be given a file (an axis of theirs, not of every ONNX
# backend: onnx.backend's prepare takes a ModelProto).
SOURCE = Axis("source", ("bytes", "file"), {"file": "file"},
              "the model given to the runtime in memory (the default), or as a file path it reads itself",
              default="bytes")
# Where the Expand stands in its model, for the backends that take it: alone; as y in Add(x, Expand(y, Shape(x)))
# (the pattern of real models, with the shape computed; x fed zeros, -0.0 for floats, so the sum is the broadcast
# bit for bit); between Transposes (a layout change around the node: the data fed with its axes reversed and
# transposed back, the output transposed after it and back by the harness).
CONTEXT = Axis("context", ("alone", "Add", "Transpose"), {"Add": "add", "Transpose": "transpose"},
               "the Expand alone; as y in Add(x, Expand(y, Shape(x))) with x zeros; between Transposes of its data and "
               "its output", default="alone")
# ONNX Add's type constraint T at opsets 8 (Add-7) and 13 (Add-13; bfloat16 from it): 8- and 16-bit integers
# came with Add-14, booleans and strings never.
ADD_DTYPES = frozenset({"i32", "u32", "i64", "u64", "f16", "f32", "f64", "bf16"})
# The axes that act on each Expand of a model (the others act on the whole model: checks share a model only
# where those are the same).
NODE_AXES = frozenset({"shape", "data", "context"})


def model_axes(path: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """The path's values on the axes that act on the whole model: checks that agree on them can share one."""
    return tuple(sorted((k, v) for k, v in path.items() if k not in NODE_AXES))


def paired_paths(axes: tuple[Axis, ...], also: tuple[Mapping[str, str], ...] = (),
                 later: tuple[str, ...] = ()) -> frozenset[Path]:
    """Every path whose axes with a default are all at it (the paths before those axes existed, and each value of
    the axes without one), the same with the values of each of ``also`` instead, the pairwise choice among the paths
    whose ``later`` axes are at their defaults (what a default run took before those axes were added), and then,
    chosen greedily and deterministically, enough of the others that every pair of values of two axes occurs in one
    of them."""
    return _paired_paths(tuple((a.name, a.values, a.default) for a in axes),
                         tuple(tuple(sorted(values.items())) for values in also), later)


def possible(path: Path) -> bool:
    """A path that can exist at all: the Add context computes its shape, Shape(x), by its pattern."""
    chosen = dict(path)
    return chosen.get("context", "alone") != "Add" or chosen["shape"] == "computed"


@cache
def _paired_paths(axes: tuple[tuple[str, tuple[str, ...], str | None], ...],
                  also: tuple[tuple[tuple[str, str], ...], ...], later: tuple[str, ...] = ()) -> frozenset[Path]:
    every = [p for p in every_path(Axis(name, values, default=default) for name, values, default in axes)
             if possible(p)]
    defaults = {name: default for name, _, default in axes if default is not None}
    seed = [p for p in every if any(all(dict(p)[name] == value for name, value in {**defaults, **dict(values)}.items())
                                    for values in ((), *also))]
    if later:
        earlier = [p for p in every if all(dict(p)[name] == defaults[name] for name in later)]
        before = pairwise(earlier, [p for p in seed if p in earlier])
        seed += [p for p in before if p not in seed]
    return frozenset(pairwise(every, seed))


class ExpandBackend(Backend):
    """A backend that runs ONNX Expand models; subclasses implement ``run_model``."""

    axes: ClassVar[tuple[Axis, ...]] = (
        Axis("opset", ("8", "13"), {"8": "opset8", "13": "opset13"}, "the ONNX opset of the Expand node"),
        Axis("shape", ("initializer", "input", "computed"), {"initializer": "init", "input": "input"},
             "Expand's shape input as an initializer (known when the model is loaded), a graph input (fed at run "
             "time), or computed: Shape of a graph input whose shape is the target", swept=("initializer", "input")),
        Axis("data", ("input", "initializer"), {"initializer": "datainit"},
             "the data as a graph input, or as an initializer (a constant the runtime may fold)", default="input",
             # both swept in full: how a constant is stored and loaded is per element type (bf16's stand-in type)
             swept=("input", "initializer")))
    dtypes = EXPAND_DTYPES
    output_rank: ClassVar[bool] = False  # see expand_model
    # False: of the product of the axes' values, the backend takes the paths of ``paired_paths`` only (today's, each
    # value of the axes without a default, those of ``also_every``, and every pair of values of two axes), for a
    # backend whose whole product costs more run time than it adds knowledge
    every_combination: ClassVar[bool] = True
    also_every: ClassVar[tuple[Mapping[str, str], ...]] = ()
    # Axes added after the others: the paths a default run took before them (their pairwise choice with these axes at
    # their defaults) are kept, so that adding an axis takes nothing away from what a default run covers.
    added_later: ClassVar[tuple[str, ...]] = ()
    # Axes left out of the pairwise choice (a default run takes them at their defaults there): a value other than the
    # default is taken where ``takes_unpaired`` says, on the paths the pairwise choice took
    unpaired: ClassVar[tuple[str, ...]] = ()

    def takes_unpaired(self, case: Case, path: Path) -> bool:
        """Whether a default run takes a path with an unpaired axis off its default (its other axes a path the
        pairwise choice took)."""
        return False

    def op_version(self, path: Path, op: str = "broadcast") -> Any:
        if op == "elementwise":
            return dict(path)["function"]
        return 3  # Expand is the bidirectional rule, Broadcast-3's

    def chooses_paths(self) -> bool:
        return not self.every_combination

    def fed_at_run_time(self, path: Path) -> bool:
        return dict(path).get("shape", dict(path).get("inputs")) == "input"

    def paths_for(self, case: Case, every: bool = False) -> dict[Path, str | None]:
        if case.op == "elementwise":  # conformance/backends/onnx_elementwise.py, for the backends that run it
            return onnx_elementwise.paths_for(case) if case.op in self.ops else \
                {(): f"{self.name} does not run op {case.op}"}
        if case.op == "broadcast" and case.params.mode != "bidirectional":
            return {(): f"ONNX Expand has the bidirectional rule only; a {case.params.mode}-mode case would be "
                        "judged against a rule Expand does not claim"}
        if case.op == "broadcast" and case.params.axes_mapping is not None:
            return {(): "ONNX Expand has no axes_mapping input"}
        found = {path: why for path, why in super().paths_for(case).items() if possible(path)}
        if not self.every_combination and not every:
            taken = paired_paths(tuple(a for a in self.path_axes() if a.name not in self.unpaired), self.also_every,
                                 self.added_later)
            defaults = {a.name: a.default for a in self.path_axes() if a.name in self.unpaired}
            found = {path: why for path, why in found.items()
                     if tuple((n, v) for n, v in path if n not in defaults) in taken
                     and (all(dict(path)[n] == d for n, d in defaults.items()) or self.takes_unpaired(case, path))}
        if case.op != "broadcast":
            return found
        computed = computed_shape_why_not(case.params.target_shape)
        constant = ("an initializer has a fixed shape, and this case's data has dimensions unknown until run time"
                    if case.dynamic else None)
        for path in found:
            chosen = dict(path)
            transposed = ("the Transpose context reverses the data's axes, and this case's data has dimensions "
                          "unknown until run time" if chosen.get("context") == "Transpose" and case.dynamic else None)
            found[path] = found[path] or (computed if chosen.get("shape") == "computed" else None) or \
                (constant if chosen.get("data") == "initializer" else None) or transposed
        return found

    def model(self, request: Request) -> Any:
        return expand_batch_model([request], int(request.path["opset"]), self.output_rank)

    def why_not(self, case: Case, path: Path, dtype: str) -> str | None:
        if case.op == "elementwise":
            return onnx_elementwise.why_not(path, dtype) or super().why_not(case, path, dtype)
        if dtype in ("i4", "u4", "f8e4m3", "f8e5m2"):
            return NOT_IN_EXPAND.format(dtype=dtype)
        if dtype == "bf16" and dict(path)["opset"] == "8":
            return "ONNX Expand-8's type constraint T has no bfloat16 (Expand-13 added it)"
        if dict(path).get("context") == "Add" and dtype not in ADD_DTYPES:
            return (f"ONNX Add (opsets 8 and 13: Add-7, Add-13) has no {dtype}: 8- and 16-bit integers came with "
                    "Add-14, and it never takes booleans or strings")
        if case.dynamic and not case.valid and dict(path)["shape"] == "computed":
            return ("a declared-shape check of an invalid input: with the shape computed by a Shape node when the "
                    "model runs, nothing before running has to know it breaks a rule")
        return super().why_not(case, path, dtype)

    def shape_type_rule(self, path: Path, shape_dtype: str) -> str | None:
        if shape_dtype != "i64":
            return "onnx_shape_int64 (ONNX Expand's shape input is tensor(int64) only)"
        return None

    def run(self, request: Request) -> Outcome:
        if request.op == "elementwise":
            built, feeds = onnx_elementwise.model(request)
            return onnx_elementwise.named(self.run_model(built, feeds, path=request.path), request)
        return as_requested(self.run_model(self.model(request), batch_feeds([request]), path=request.path),
                            request)

    def run_many(self, requests: list[Request]) -> list[Outcome]:
        """One model for all the requests that agree on the axes acting on the whole model (the opset, how the
        model is read...), if the subclass can run several outputs at once."""
        if any(r.op == "elementwise" for r in requests):  # a model per check
            return [self.run(r) for r in requests]
        outcomes: dict[int, Outcome] = {}
        groups: dict[tuple[tuple[str, str], ...], list[int]] = {}
        for i, request in enumerate(requests):
            groups.setdefault(model_axes(request.path), []).append(i)
        for members in groups.values():
            batch = [requests[i] for i in members]
            path = batch[0].path
            shared = self.run_model_many(expand_batch_model(batch, int(path["opset"]), self.output_rank),
                                         batch_feeds(batch), path=path)
            results: list[Outcome | None] = list(shared) if shared else [None] * len(members)
            for i, result in zip(members, results, strict=True):
                outcomes[i] = self.run(requests[i]) if result is None else as_requested(result, requests[i])
        return [outcomes[i] for i in range(len(requests))]

    def run_model_many(self, model: Any, feeds: dict[str, np.ndarray], *,
                       path: Mapping[str, str] | None = None) -> list[Outcome] | None:
        """Run a model of several independent Expands: an Outcome per output with its output, or None if the
        model failed as a whole (each request is then run alone). The default never shares a model."""
        return None

    def declare(self, request: Request) -> Outcome:
        if request.op == "elementwise":
            return self.declare_model(onnx_elementwise.model(request)[0], path=request.path)
        return as_requested(self.declare_model(self.model(request), path=request.path), request)

    def run_model(self, model: Any, feeds: dict[str, np.ndarray], *, path: Mapping[str, str] | None = None) -> Outcome:
        """Run an Expand model (an onnx.ModelProto) on its inputs, by name; ``path``: the check's path."""
        raise NotImplementedError

    def declare_model(self, model: Any, *, path: Mapping[str, str] | None = None) -> Outcome:
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

    def run_model(self, model: Any, feeds: dict[str, np.ndarray], *, path: Mapping[str, str] | None = None) -> Outcome:
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
