"""ONNX Runtime with the OpenVINO execution provider (the `onnxruntime-openvino` package), the CPU fallback off.

The package installs as the `onnxruntime` module, with OpenVINO's own libraries inside it (onnxruntime/capi/
libopenvino*.so: 2025.4.1 in onnxruntime-openvino 1.24.1, whatever `openvino` package is installed beside it), so it
cannot share an environment with plain onnxruntime: it runs in its own (``tox -e conformance-ort-openvino``) and its
results file merges into the report as a column of its own (``python -m conformance report reports/results-*.json``).

It is the onnxruntime backend (conformance/backends/onnxruntime.py: the same models, paths and session options) on
another value of its ``provider`` axis: the session is given ``OpenVINOExecutionProvider`` alone, with
``session.disable_cpu_ep_fallback`` set, so that a node the provider does not claim is the provider's refusal
("...assigned to the default CPU EP, but fallback to CPU EP has been explicitly disabled") and never the CPU
kernel's result. A backend of its own name rather than ``--provider OpenVINOExecutionProvider`` of the onnxruntime
backend: its package, version and known differences are not onnxruntime's, and the report's columns are backends.
"""

from __future__ import annotations

from conformance.backends.cpu_features import one_inference_thread
from conformance.backends.onnxruntime import OnnxRuntimeBackend
from conformance.run.paths import Axis

OPENVINO_PROVIDER = "OpenVINOExecutionProvider"


class OnnxRuntimeOpenVINOBackend(OnnxRuntimeBackend):
    name = "onnxruntime-openvino"
    package = "onnxruntime-openvino"
    target = Axis("provider", (OPENVINO_PROVIDER,), {OPENVINO_PROVIDER: "openvino"},
                  f"the execution provider the session is given: {OPENVINO_PROVIDER} alone, the CPU fallback off (the "
                  "default); --provider adds others, not applicable where onnxruntime.get_available_providers() lacks "
                  "them", default=OPENVINO_PROVIDER)
    provider = OPENVINO_PROVIDER
    preload = ("onnx", "onnxruntime", "conformance.backends.onnxruntime_openvino")

    def unavailable(self) -> str | None:
        reason = super().unavailable()
        if reason is not None:
            return (f"{reason} (it installs as the onnxruntime module, so in an environment of its own: "
                    "tox -e conformance-ort-openvino)")
        return self.target_absent(OPENVINO_PROVIDER)

    def hardware(self) -> tuple[str, ...]:
        """``cpu:one_inference_thread`` where the process may run on one CPU only: the provider runs OpenVINO's
        CPU plugin, whose results differ with one inference thread (docs/internals.md "One inference thread")."""
        return one_inference_thread()
