"""ONNX Runtime: ONNX `Expand` (opsets 8 and 13) in an InferenceSession on the CPU execution provider.

The models, variants and applicability are those of every ONNX backend (conformance/backends/onnx_backend.py):
only bidirectional Broadcast-3 cases apply, and the shape is an initializer (``init``: known when the
session is created) or a graph input (``input``: fed at run time). The declared shape is ONNX shape
inference's, which ONNX Runtime runs when it creates the session.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.backends.base import Outcome
from conformance.backends.onnx_backend import EXPAND_DTYPES, ExpandBackend, inferred_shape, inferred_shapes


class OnnxRuntimeBackend(ExpandBackend):
    name = "onnxruntime"
    package = "onnxruntime"
    # Types of ONNX Runtime's CPU Expand kernel (onnxruntime/core/providers/cpu/tensor/expand.cc).
    dtypes = EXPAND_DTYPES - {"bf16"}
    unsupported = {"bf16": "ONNX Runtime's CPU execution provider registers no bfloat16 Expand kernel (session "
                           "creation: NOT_IMPLEMENTED, 'Could not find an implementation for Expand(13)')"}
    preload = ("onnx", "onnxruntime")

    def session(self, model: Any) -> Any:
        """The model's InferenceSession, or the Outcome of its rejection."""
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.log_severity_level = 4  # rejections are our results, not log noise
        try:
            return onnxruntime.InferenceSession(model.SerializeToString(), options,
                                                providers=["CPUExecutionProvider"])
        except Exception as e:  # onnxruntime raises its own exception types from C++
            return Outcome(error=f"{type(e).__name__}: {e}", stage="compile", declared_shape=inferred_shape(model))

    def declare_model(self, model: Any) -> Outcome:
        session = self.session(model)  # creating it validates the model; nothing is allocated for the output
        return session if isinstance(session, Outcome) else Outcome(declared_shape=inferred_shape(model))

    def run_model(self, model: Any, feeds: dict[str, np.ndarray]) -> Outcome:
        session = self.session(model)
        if isinstance(session, Outcome):
            return session
        shape = inferred_shape(model)
        try:
            (result,) = session.run(None, feeds)
        except Exception as e:
            return Outcome(error=f"{type(e).__name__}: {e}", stage="infer", declared_shape=shape)
        return Outcome(output=np.array(result, copy=True), declared_shape=shape)

    def run_model_many(self, model: Any, feeds: dict[str, np.ndarray]) -> list[Outcome] | None:
        session = self.session(model)
        if isinstance(session, Outcome):
            return None
        try:
            results = session.run(None, feeds)
        except Exception:  # one of the Expands refused: each request is run alone
            return None
        return [Outcome(output=np.array(r, copy=True), declared_shape=shape)
                for r, shape in zip(results, inferred_shapes(model), strict=True)]
