"""Checks run in worker processes, so that a backend that kills its process costs one check, not the run.

A pebble ProcessPool keeps its workers alive across checks (each keeps its loaded runtimes and backend
instances), reports a worker that died with its exit code, and enforces a per-check timeout by killing
the worker; either way it starts a new one and the run goes on.
"""

from __future__ import annotations

import multiprocessing
import signal
import traceback
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool

from pebble import ProcessExpired, ProcessPool

from conformance.backends import Backend, Outcome, Request, load

_INSTANCES: dict[str, Backend] = {}  # per worker process: backends already loaded


def run_check(backend_ref: str, request: Request) -> Outcome:
    """Runs in the worker. Any exception leaving backend.run is a bug in the adapter: report it as such."""
    try:
        backend = _INSTANCES.get(backend_ref)
        if backend is None:
            backend = _INSTANCES[backend_ref] = load(backend_ref)
        return backend.run(request)
    except Exception:
        return Outcome(adapter_error=traceback.format_exc(limit=-8))


def describe_exit(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            return f"signal {-exitcode} ({signal.Signals(-exitcode).name})"
        except ValueError:
            return f"signal {-exitcode}"
    return f"exit code {exitcode}"


class WorkerPool:
    """One pool per pytest process (and so per xdist worker)."""

    def __init__(self, timeout: float, workers: int = 1) -> None:
        self.timeout = timeout
        self.workers = workers
        self.crashes = 0
        self._pool = self._start()

    def _start(self) -> ProcessPool:
        # spawn, not fork: the parent may hold threads (xdist) and runtimes must start from a clean process
        return ProcessPool(max_workers=self.workers, context=multiprocessing.get_context("spawn"))

    def _restart(self) -> None:
        self._pool.stop()
        self._pool.join(timeout=10)
        self._pool = self._start()

    def run(self, backend_ref: str, request: Request) -> Outcome:
        # A worker that dies between two checks (say, in a runtime's background thread) leaves pebble's pool
        # broken with no task to blame: start a new pool and give the check a second chance.
        for _attempt in range(2):
            try:
                future = self._pool.schedule(run_check, args=(backend_ref, request), timeout=self.timeout)
                return future.result()
            except ProcessExpired as e:
                self.crashes += 1
                return Outcome(crash=describe_exit(e.exitcode), stage="worker")
            except FutureTimeout:
                return Outcome(timeout=self.timeout, stage="worker")
            except (BrokenProcessPool, RuntimeError):
                self._restart()
            except Exception as e:  # e.g. the outcome could not be pickled back
                return Outcome(adapter_error=f"{type(e).__name__}: {e}")
        self.crashes += 1
        return Outcome(crash="the worker pool broke twice while this check ran", stage="worker")

    def close(self) -> None:
        self._pool.stop()
        self._pool.join(timeout=10)
