"""Checks run in worker processes, so that a backend that kills its process costs one check, not the run.

A pebble ProcessPool keeps its workers alive across checks (each keeps its loaded runtimes and backend
instances), reports a worker that died with its exit code, and enforces a per-check timeout by killing
the worker; either way it starts a new one and the run goes on.
"""

from __future__ import annotations

import multiprocessing
import resource
import signal
import traceback
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from pebble import ProcessExpired, ProcessPool

from conformance.backends import Backend, Outcome, Request, load

_INSTANCES: dict[str, Backend] = {}  # per worker process: backends already loaded


def run_check(backend_ref: str, request: Request) -> Outcome:
    """Runs in the worker. Any exception leaving backend.run is a bug in the adapter: report it as such."""
    try:
        backend = _INSTANCES.get(backend_ref)
        if backend is None:
            backend = _INSTANCES[backend_ref] = load(backend_ref)
        outcome = backend.declare(request) if request.shape_only else backend.run(request)
        if not isinstance(outcome, Outcome):
            return Outcome(adapter_error=f"{backend_ref}.run returned {type(outcome).__name__}, not an Outcome")
        return outcome
    except MemoryError as e:  # the worker's memory limit (set in _limit_memory) or the machine's
        return Outcome(out_of_memory=f"MemoryError: {e}", stage="worker")
    except BaseException:  # SystemExit and friends too: whatever the adapter raised, the worker reports it
        return Outcome(adapter_error=traceback.format_exc(limit=-8))


def _run_and_send(backend_ref: str, request: Request, send: Any, memory_limit: int | None) -> None:
    _limit_memory(memory_limit)
    send.send(run_check(backend_ref, request))


def _limit_memory(limit_bytes: int | None) -> None:
    """Worker initializer: cap the address space, so a runaway allocation fails in this worker (MemoryError
    or the runtime's own allocation error) instead of taking the machine."""
    if limit_bytes:
        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))


def describe_exit(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            return f"signal {-exitcode} ({signal.Signals(-exitcode).name})"
        except ValueError:
            return f"signal {-exitcode}"
    return f"exit code {exitcode}"


class WorkerPool:
    """One pool per pytest process (and so per xdist worker)."""

    def __init__(self, timeout: float, workers: int = 1, memory_limit: int | None = None) -> None:
        self.timeout = timeout
        self.workers = workers
        self.memory_limit = memory_limit
        self._pool = self._start()

    def _start(self) -> ProcessPool:
        # spawn, not fork: the parent may hold threads (xdist) and runtimes must start from a clean process
        return ProcessPool(max_workers=self.workers, context=multiprocessing.get_context("spawn"),
                           initializer=_limit_memory, initargs=(self.memory_limit,))

    def _restart(self) -> None:
        self._pool.stop()
        self._pool.join(timeout=10)
        self._pool = self._start()

    def run(self, backend_ref: str, request: Request) -> Outcome:
        try:
            future = self._pool.schedule(run_check, args=(backend_ref, request), timeout=self.timeout)
            return future.result()
        except ProcessExpired as e:
            return Outcome(crash=describe_exit(e.exitcode), stage="worker")
        except FutureTimeout:
            return Outcome(timeout=self.timeout, stage="worker")
        except (BrokenProcessPool, RuntimeError):
            # pebble could not tell which task a dead worker was running (it died before its task was
            # acknowledged, or between two checks): start a new pool, and run this check once more alone in
            # a process of its own, whose exit code is then certain.
            self._restart()
            return self.run_alone(backend_ref, request)
        except Exception as e:  # e.g. the outcome could not be pickled back
            return Outcome(adapter_error=f"{type(e).__name__}: {e}")

    def run_alone(self, backend_ref: str, request: Request) -> Outcome:
        context = multiprocessing.get_context("spawn")
        receive, send = context.Pipe(duplex=False)
        process = context.Process(target=_run_and_send, args=(backend_ref, request, send, self.memory_limit))
        process.start()
        send.close()
        ready = receive.poll(self.timeout)
        try:
            outcome = receive.recv() if ready else None
        except EOFError:  # the process died before it could answer
            outcome = None
        process.join(None if outcome is not None else 0 if not ready else 30)
        if process.is_alive():
            process.kill()
            process.join()
            return Outcome(timeout=self.timeout, stage="worker")
        if outcome is None:
            return Outcome(crash=describe_exit(process.exitcode), stage="worker")
        return outcome

    def close(self) -> None:
        self._pool.stop()
        self._pool.join(timeout=10)
