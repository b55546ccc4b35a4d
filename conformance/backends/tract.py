"""tract (Sonos' ONNX and NNEF inference engine, in Rust, through its ``tract`` Python package): ONNX `Expand`.

The models, paths and applicability are those of every ONNX backend (conformance/backends/onnx_backend.py): only
bidirectional Broadcast-3 cases apply; the shape an initializer, a graph input or computed by a Shape node; the data
a graph input or an initializer; and, as for the other runtimes, the Expand alone, in Add(x, Expand(y, Shape(x))) or
between Transposes (``context``). tract's Python API loads a model from a file only (``tract.onnx().load(path)``),
so the model is written to one. Loading makes an InferenceModel; ``into_model`` types it (every shape and element
type known) and declutters it, ``into_runnable`` optimises it for this CPU: a refusal at any of these steps is a
rejection at stage ``compile``, a failure of ``run`` one at stage ``infer``. The declared shape is the one tract's
typed model gives its output. tract's Python API converts numpy booleans, integers and IEEE floats only
(tract/tensor.py ``dt_numpy_to_tract``): strings and bfloat16 are not applicable.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from typing import Any

import numpy as np

from conformance.backends.base import Outcome
from conformance.backends.onnx_backend import CONTEXT, EXPAND_DTYPES, ExpandBackend
from conformance.backends.onnx_model import saved

NO_TYPE = ("tract's Python API has no {what}: tract.Tensor.from_numpy converts numpy booleans, integers and IEEE "
           "floats only (tract/tensor.py dt_numpy_to_tract), and its DatumType lists no other")


class TractBackend(ExpandBackend):
    name = "tract"
    package = "tract"
    axes = (*ExpandBackend.axes, CONTEXT)
    # the default run takes today's paths and every pair of values (onnx_backend.paired_paths), as onnxruntime does
    every_combination = False
    also_every = ({"data": "initializer"},)
    dtypes = EXPAND_DTYPES - {"string", "bf16"}
    unsupported = {"string": NO_TYPE.format(what="string type"), "bf16": NO_TYPE.format(what="bfloat16")}
    preload = ("tract", "numpy.ctypeslib", "onnx", "conformance.backends.tract")  # ctypeslib: Tensor.to_numpy

    def unavailable(self) -> str | None:
        reason = super().unavailable()
        if reason is not None:
            return reason
        try:
            import tract  # noqa: F401
        except ImportError as e:  # installed, but its native library does not load here
            return f"tract cannot be imported: {e}"
        return None

    @staticmethod
    def typed(model: Any) -> tuple[Any, list[str]] | Outcome:
        """The model loaded and typed (tract's Model), with its graph inputs' names in tract's order; or the
        Outcome of its refusal."""
        import tract

        try:
            with tempfile.TemporaryDirectory(prefix="expand-") as directory:
                loaded = tract.onnx().load(saved(model, directory))
            names = [loaded.input_name(i) for i in range(loaded.input_count())]
            return loaded.into_model(), names
        except tract.TractError as e:
            return Outcome(error=f"TractError: {e}", stage="compile")

    @staticmethod
    def declared(typed: Any, output: int) -> tuple[int | None, ...]:
        fact = typed.output_fact(output)
        dims: list[int | None] = []
        for axis in range(fact.rank()):
            try:
                dims.append(fact.dim(axis).to_int64())
            except Exception:  # a symbolic dimension: unknown before running
                dims.append(None)
        return tuple(dims)

    def declare_model(self, model: Any, *, path: Mapping[str, str] | None = None) -> Outcome:
        typed = self.typed(model)
        return typed if isinstance(typed, Outcome) else Outcome(declared_shape=self.declared(typed[0], 0))

    def outputs(self, model: Any, feeds: dict[str, np.ndarray]) -> list[Outcome] | Outcome:
        """Every output of the model run on the feeds, or the Outcome of the refusal."""
        import tract

        typed = self.typed(model)
        if isinstance(typed, Outcome):
            return typed
        model_typed, names = typed
        shapes = [self.declared(model_typed, i) for i in range(len(model.graph.output))]
        try:
            runnable = model_typed.into_runnable()
        except tract.TractError as e:
            return Outcome(error=f"TractError: {e}", stage="compile", declared_shape=shapes[0])
        try:
            results = runnable.run([feeds[name] for name in names])
            arrays = [r.to_numpy() for r in results]
        except tract.TractError as e:
            return Outcome(error=f"TractError: {e}", stage="infer", declared_shape=shapes[0])
        return [Outcome(output=np.array(a, copy=True), declared_shape=shape)
                for a, shape in zip(arrays, shapes, strict=True)]

    def run_model(self, model: Any, feeds: dict[str, np.ndarray], *, path: Mapping[str, str] | None = None) -> Outcome:
        outcomes = self.outputs(model, feeds)
        return outcomes if isinstance(outcomes, Outcome) else outcomes[0]

    def run_model_many(self, model: Any, feeds: dict[str, np.ndarray], *,
                       path: Mapping[str, str] | None = None) -> list[Outcome] | None:
        outcomes = self.outputs(model, feeds)
        return None if isinstance(outcomes, Outcome) else outcomes
