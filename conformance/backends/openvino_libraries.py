"""Imported once by the forkserver every worker is forked from (``preload`` of both OpenVINO backends): loads
OpenVINO's CPU plugin and ONNX frontend libraries, so that a worker forked to replace one that died finds them
loaded. OpenVINO's CPU plugin kills its worker several hundred times a run (known crashes), and each replacement
then saved ~5 ms. Loading them starts no thread, as a forkserver must hold none when it forks
(conformance/quiesce.py; tests/test_isolation.py checks it)."""

from __future__ import annotations

import contextlib

from openvino.frontend import FrontEndManager

from conformance.backends.openvino import cpu_capabilities


def load_libraries() -> None:
    cpu_capabilities()  # loads the CPU plugin; remembered, so forked workers need not ask again
    with contextlib.suppress(RuntimeError):  # no ONNX frontend here: each worker finds out itself, as before
        FrontEndManager().load_by_framework("onnx")


load_libraries()
