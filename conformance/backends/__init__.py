"""Built-in backends, by name, as import references a worker process can load."""

from __future__ import annotations

import importlib

from conformance.backends.base import Backend, Outcome, Request

BUILTIN = {
    "openvino": "conformance.backends.openvino:OpenVINOBackend",
    "onnxruntime": "conformance.backends.onnxruntime:OnnxRuntimeBackend",
    "local": "conformance.backends.local:LocalBackend",
}


def load(ref: str) -> Backend:
    """A backend instance from a built-in name or a ``module:Class`` reference."""
    ref = BUILTIN.get(ref, ref)
    module_name, _, class_name = ref.partition(":")
    if not class_name:
        raise ValueError(f"backend {ref!r}: expected a built-in name ({', '.join(BUILTIN)}) or module:Class")
    cls = getattr(importlib.import_module(module_name), class_name)
    if not (isinstance(cls, type) and issubclass(cls, Backend)):
        raise TypeError(f"backend {ref!r} is not a subclass of conformance.backends.Backend")
    return cls()


__all__ = ["BUILTIN", "Backend", "Outcome", "Request", "load"]
