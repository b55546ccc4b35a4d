"""ONNX Runtime: ONNX `Expand` (opsets 8 and 13) in an InferenceSession on the CPU execution provider.

The models, paths and applicability are those of every ONNX backend (conformance/backends/onnx_backend.py):
only bidirectional Broadcast-3 cases apply; the shape is an initializer (``init``: known when the session is
created), a graph input (``input``: fed at run time) or computed by a Shape node; the data a graph input or an
initializer. Two axes of ONNX Runtime's own: ``source``, the session made from the model's bytes (the default) or
from a file path (``InferenceSession(path)``: ORT then reads the file itself, and resolves paths relative to it);
``optimization``, the session's graph optimization level, ORT_ENABLE_ALL (the default: constant folding, Expand
elimination and the other graph transformers) or ORT_DISABLE_ALL (``noopt``: the graph as written). The declared
shape is ONNX shape inference's, which ONNX Runtime runs when it creates the session.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from typing import Any

import numpy as np

from conformance.backends.base import Outcome
from conformance.backends.onnx_backend import CONTEXT, EXPAND_DTYPES, SOURCE, ExpandBackend
from conformance.backends.onnx_model import inferred_shape, inferred_shapes, saved
from conformance.run.paths import Axis

CPU_PROVIDER = "CPUExecutionProvider"
PROVIDER = Axis("provider", (CPU_PROVIDER,), {CPU_PROVIDER: "cpu"},
                "the execution provider the session is given: CPUExecutionProvider (the default); --provider adds "
                "others (CUDAExecutionProvider, TensorrtExecutionProvider...), each alone with the CPU fallback off, "
                "not applicable where onnxruntime.get_available_providers() lacks it", default=CPU_PROVIDER)


class OnnxRuntimeBackend(ExpandBackend):
    name = "onnxruntime"
    package = "onnxruntime"
    axes = (*ExpandBackend.axes, CONTEXT, SOURCE,
            Axis("optimization", ("all", "disabled"), {"disabled": "noopt"},
                 "the session's graph optimization level: ORT_ENABLE_ALL (constant folding and every graph "
                 "transformer) or ORT_DISABLE_ALL (the graph as written)", default="all"))
    # Types of ONNX Runtime's CPU Expand kernel (onnxruntime/core/providers/cpu/tensor/expand.cc).
    # Every combination agreed with the spec when this was written (the whole product: 48 paths, 22,687 checks
    # passed); the default run takes today's paths and every pair of values (onnx_backend.paired_paths)
    every_combination = False
    ops = frozenset({"broadcast", "elementwise"})  # elementwise: conformance/backends/onnx_elementwise.py
    # and on every opset and shape the data as an initializer, the rest at the defaults: both inputs constant for
    # ORT_ENABLE_ALL's constant folding (before 1.27 it computes the Expand whatever its size)
    also_every = ({"data": "initializer"},)
    # bfloat16 too: Expand-13 allows it and ONNX Runtime's CPU provider has no kernel for it, a known difference
    # (ort-cpu-no-bfloat16-expand-kernel), not "not applicable"
    dtypes = EXPAND_DTYPES
    preload = ("onnx", "onnxruntime", "conformance.backends.onnxruntime")
    target = PROVIDER
    provider = CPU_PROVIDER  # the target's default: a path without the axis runs on it

    def target_absent(self, value: str) -> str | None:
        import onnxruntime

        available = onnxruntime.get_available_providers()
        if value in available:
            return None
        return (f"ONNX Runtime execution provider {value!r} is absent here: this {self.package} "
                f"{self.version()} has {', '.join(available)} (onnxruntime.get_available_providers())")

    def session(self, model: Any, path: Mapping[str, str] | None = None) -> Any:
        """The model's InferenceSession, or the Outcome of its rejection."""
        import onnxruntime

        path = path or {}
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 4  # rejections are our results, not log noise
        if path.get("optimization") == "disabled":
            options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
        providers = [path.get("provider") or self.provider]
        if providers != [CPU_PROVIDER]:
            # ORT appends the CPU provider for the nodes the others do not take: off, so that a check of another
            # provider is that provider's result, or its refusal, never the CPU kernel's
            options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
        try:
            if path.get("source") == "file":
                with tempfile.TemporaryDirectory(prefix="expand-") as directory:
                    return onnxruntime.InferenceSession(saved(model, directory), options, providers=providers)
            return onnxruntime.InferenceSession(model.SerializeToString(), options, providers=providers)
        except Exception as e:  # onnxruntime raises its own exception types from C++
            return Outcome(error=f"{type(e).__name__}: {e}", stage="compile", declared_shape=inferred_shape(model))

    def declare_model(self, model: Any, *, path: Mapping[str, str] | None = None) -> Outcome:
        session = self.session(model, path)  # creating it validates the model; nothing is allocated for the output
        return session if isinstance(session, Outcome) else Outcome(declared_shape=inferred_shape(model))

    def run_model(self, model: Any, feeds: dict[str, np.ndarray], *, path: Mapping[str, str] | None = None) -> Outcome:
        session = self.session(model, path)
        if isinstance(session, Outcome):
            return session
        shape = inferred_shape(model)
        try:
            (result,) = session.run(None, feeds)
        except Exception as e:
            return Outcome(error=f"{type(e).__name__}: {e}", stage="infer", declared_shape=shape)
        return Outcome(output=np.array(result, copy=True), declared_shape=shape)

    def run_model_many(self, model: Any, feeds: dict[str, np.ndarray], *,
                       path: Mapping[str, str] | None = None) -> list[Outcome] | None:
        session = self.session(model, path)
        if isinstance(session, Outcome):
            return None
        try:
            results = session.run(None, feeds)
        except Exception:  # one of the Expands refused: each request is run alone
            return None
        return [Outcome(output=np.array(r, copy=True), declared_shape=shape)
                for r, shape in zip(results, inferred_shapes(model), strict=True)]
