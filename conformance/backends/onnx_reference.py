"""ONNX's own reference implementation, ``onnx.reference.ReferenceEvaluator``, on the ONNX Expand models the
other ONNX backends run.

Its Expand is ``data * numpy.ones(shape, data.dtype)`` (onnx/reference/ops/op_expand.py): numpy's
broadcasting rule, which is the bidirectional one, and a multiplication by one, which keeps every bit of the
data (NaN payloads, signed zeros, subnormals) on IEEE hardware. A rejection is the exception numpy raises.
The declared shape is ONNX shape inference's (``onnx.shape_inference.infer_shapes``, strict): for a
declared-shape check its refusal is this backend's rejection, at stage ``shape_inference``. Besides the paths of
every ONNX backend, ``source``: the evaluator made from the model (a ModelProto, the default) or from a file path
(``ReferenceEvaluator(path)`` loads it with onnx.load).
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from typing import Any

import numpy as np

from conformance.backends.base import Outcome
from conformance.backends.onnx_backend import CONTEXT, EXPAND_DTYPES, SOURCE, ExpandBackend
from conformance.backends.onnx_model import inferred_shape, inferred_shapes, saved


class OnnxReferenceBackend(ExpandBackend):
    name = "onnx-reference"
    package = "onnx"
    axes = (*ExpandBackend.axes, CONTEXT, SOURCE)
    # Every combination agreed with the spec when this was written (the whole product: 24 paths, 12,547 checks
    # passed); the default run takes today's paths and every pair of values (onnx_backend.paired_paths)
    every_combination = False
    ops = frozenset({"broadcast", "elementwise"})  # elementwise: conformance/backends/onnx_elementwise.py
    # and on every opset and shape the data as an initializer, the rest at the defaults: how the evaluator loads a
    # constant is per element type (before onnx 1.19 a bf16 initializer becomes its own stand-in type)
    also_every = ({"data": "initializer"},)
    dtypes = EXPAND_DTYPES  # numpy has every element type the suite sweeps
    # onnx.reference.ops: the op list, 30 ms at first use
    preload = ("onnx", "onnx.reference", "onnx.reference.ops", "conformance.backends.onnx_reference")

    def declare_model(self, model: Any, *, path: Mapping[str, str] | None = None) -> Outcome:
        import onnx

        try:
            inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
        except Exception as e:  # InferenceError, or whatever the checker raises first
            return Outcome(error=f"{type(e).__name__}: {e}", stage="shape_inference")
        output = inferred.graph.output[0].type.tensor_type
        if not output.HasField("shape"):
            return Outcome()
        return Outcome(declared_shape=tuple(d.dim_value if d.HasField("dim_value") else None
                                            for d in output.shape.dim))

    @staticmethod
    def evaluator(model: Any, path: Mapping[str, str] | None) -> Any:
        from onnx.reference import ReferenceEvaluator

        if (path or {}).get("source") == "file":
            with tempfile.TemporaryDirectory(prefix="expand-") as directory:
                return ReferenceEvaluator(saved(model, directory))
        return ReferenceEvaluator(model)

    def run_model(self, model: Any, feeds: dict[str, np.ndarray], *, path: Mapping[str, str] | None = None) -> Outcome:
        shape = inferred_shape(model)
        try:
            evaluator = self.evaluator(model, path)
        except Exception as e:  # the evaluator raises whatever its checks or numpy raise
            return Outcome(error=f"{type(e).__name__}: {e}", stage="compile", declared_shape=shape)
        try:
            (result,) = evaluator.run(None, feeds)
        except Exception as e:
            return Outcome(error=f"{type(e).__name__}: {e}", stage="infer", declared_shape=shape)
        return Outcome(output=np.array(result, copy=True), declared_shape=shape)

    def run_model_many(self, model: Any, feeds: dict[str, np.ndarray], *,
                       path: Mapping[str, str] | None = None) -> list[Outcome] | None:
        try:
            results = self.evaluator(model, path).run(None, feeds)
        except Exception:  # one of the Expands refused: each request is run alone
            return None
        return [Outcome(output=np.array(r, copy=True), declared_shape=shape)
                for r, shape in zip(results, inferred_shapes(model), strict=True)]
