"""The backends under test: the built-in ones by name, and plug-ins, resolved to instances by ``load``.

A backend reference is one of (``pytest conformance --backend REF``; a worker process loads the same REF):

* a built-in name (``BUILTIN``);
* ``onnx-backend:MODULE``: any module implementing ``onnx.backend.base.Backend``, e.g.
  ``onnx-backend:onnxruntime.backend`` (conformance/backends/onnx_backend.py);
* the name of an entry point in the group ``broadcast_conformance.backends`` that an installed package
  declares, pointing at its Backend subclass (``mine = "my_pkg.backend:MyBackend"``);
* ``module:Class``, a Backend subclass importable from here.
"""

from __future__ import annotations

import importlib
from importlib import metadata

from conformance.backends.base import Backend, Outcome, Request
from conformance.run.paths import Axis

BUILTIN = {
    "openvino": "conformance.backends.openvino:OpenVINOBackend",
    "openvino-onnx": "conformance.backends.openvino_onnx:OpenVINOOnnxBackend",
    "onnxruntime": "conformance.backends.onnxruntime:OnnxRuntimeBackend",
    "onnxruntime-openvino": "conformance.backends.onnxruntime_openvino:OnnxRuntimeOpenVINOBackend",
    "onnx-reference": "conformance.backends.onnx_reference:OnnxReferenceBackend",
    "local": "conformance.backends.local:LocalBackend",
    "jax": "conformance.backends.jax:JaxBackend",
    "tract": "conformance.backends.tract:TractBackend",
    "tensorflow": "conformance.backends.tensorflow:TensorflowBackend",
    "torch": "conformance.backends.torch:TorchBackend",
}
ENTRY_POINT_GROUP = "broadcast_conformance.backends"
ONNX_BACKEND_PREFIX = "onnx-backend:"


class BackendNotFound(ValueError):
    """A backend reference that names nothing loadable; the message says what would have been."""


def plugins() -> dict[str, metadata.EntryPoint]:
    """The backends installed packages declare, by entry-point name."""
    return {ep.name: ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}


def _choices() -> str:
    installed = ", ".join(sorted(plugins())) or "none installed"
    return (f"built-in: {', '.join(BUILTIN)}; entry points in group {ENTRY_POINT_GROUP!r}: {installed}; "
            f"or {ONNX_BACKEND_PREFIX}MODULE for an onnx.backend.base backend; or module:Class")


def _import_class(ref: str) -> object:
    module_name, _, class_name = ref.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise BackendNotFound(f"backend {ref!r}: cannot import module {module_name!r} ({e}); {_choices()}") from e
    try:
        return getattr(module, class_name)
    except AttributeError:
        raise BackendNotFound(f"backend {ref!r}: module {module_name!r} has no {class_name!r}") from None


def _instance(ref: str, cls: object) -> Backend:
    if not (isinstance(cls, type) and issubclass(cls, Backend)):
        raise TypeError(f"backend {ref!r} is {cls!r}, but should be a subclass of conformance.backends.Backend")
    return cls()


def load(ref: str) -> Backend:
    """A backend instance from a reference (see the module's docstring); BackendNotFound names the choices."""
    if ref in BUILTIN:
        return _instance(ref, _import_class(BUILTIN[ref]))
    if ref.startswith(ONNX_BACKEND_PREFIX):
        from conformance.backends.onnx_backend import OnnxBackendAdapter

        module = ref.removeprefix(ONNX_BACKEND_PREFIX)
        if not module:
            raise BackendNotFound(f"backend {ref!r}: name the module, e.g. {ONNX_BACKEND_PREFIX}onnxruntime.backend")
        return OnnxBackendAdapter(module)
    entry_point = plugins().get(ref)
    if entry_point is not None:
        try:
            cls = entry_point.load()
        except Exception as e:  # the plug-in's own import failed: say which one
            raise BackendNotFound(f"backend {ref!r}: entry point {entry_point.value!r} of group "
                                  f"{ENTRY_POINT_GROUP!r} cannot be loaded ({type(e).__name__}: {e})") from e
        return _instance(ref, cls)
    if ":" not in ref:
        raise BackendNotFound(f"backend {ref!r} is unknown; {_choices()}")
    return _instance(ref, _import_class(ref))


__all__ = ["BUILTIN", "ENTRY_POINT_GROUP", "Axis", "Backend", "BackendNotFound", "Outcome", "Request", "load",
           "plugins"]
