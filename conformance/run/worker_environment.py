"""Imported first by the forkserver that forks every worker process (conformance/isolation.py), never by the
harness: the environment the runtimes read when the forkserver imports them, and the forkserver's process group.

ONNX Runtime starts a telemetry thread when it is imported (on Linux since 1.29; seen with 1.32 here: a thread of
onnxruntime_pybind11_state waiting on a timer). It does not start with CI=true in the environment (as in this
project's CI), nor with ORT_DISABLE_TELEMETRY=1, the switch users report
(https://github.com/OHF-Voice/wyoming-piper/issues/64); both checked here. A forkserver must hold no thread when it
forks (conformance/quiesce.py), so the workers' environment sets it before anything imports onnxruntime. Only the
worker processes get it: the harness's own process, and so the user's, is left as it is.
"""

from __future__ import annotations

import os

os.environ["ORT_DISABLE_TELEMETRY"] = "1"

# tract's errors (anyhow) capture a stack backtrace when RUST_BACKTRACE=1 is in the environment, as it often is on a
# Rust developer's machine: symbolizing it costs ~0.1 s an error (every refused check), and its frames are no part
# of the error's text the report shows. RUST_LIB_BACKTRACE governs errors only, so a panic still prints its own.
os.environ["RUST_LIB_BACKTRACE"] = "0"

# A process group of its own for the forkserver and so for every worker forked from it: a SIGTERM or Ctrl-C sent
# to the harness's group (a service manager, `kill -- -PGID`, the terminal) reaches pytest, which stops the run in
# order; it used to kill the forkserver and the worker running a check, whose outcome then read as a crash of
# that check (signal 15) or, with no forkserver left, an error. The harness ends its workers itself (close), and
# the forkserver ends when the harness does (multiprocessing's alive pipe).
os.setpgid(0, 0)
