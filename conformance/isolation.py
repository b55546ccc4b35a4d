"""Checks run in worker processes, so that a backend that kills its process costs one check, not the run.

A pebble ProcessPool keeps its workers alive across checks (each keeps its loaded runtimes and backend
instances), reports a worker that died with its exit code, and enforces a per-check timeout by killing
the worker; either way it starts a new one and the run goes on. Workers are forked from a forkserver that
has already imported the runtimes (``preload``): a replacement is ready in about 0.1 s instead of the
0.5 s a fresh interpreter takes to import them, which matters when a runtime crashes hundreds of times a run.

``run_batch`` sends several checks of one backend in one call (``Backend.run_many``, which may share one
compiled model among them); if the batch fails in any way, the caller runs each of its checks alone.
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


def run_checks(backend_ref: str, requests: list[Request]) -> list[Outcome] | None:
    """Runs in the worker: a batch through Backend.run_many; None if it failed as a whole (the caller then
    runs the checks one by one, so that each gets its own verdict)."""
    try:
        backend = _INSTANCES.get(backend_ref)
        if backend is None:
            backend = _INSTANCES[backend_ref] = load(backend_ref)
        outcomes = backend.run_many(requests)
    except BaseException:  # noqa: BLE001 -- any failure of the batch: run its checks one by one
        return None
    if len(outcomes) != len(requests) or not all(isinstance(o, Outcome) for o in outcomes):
        return None
    return outcomes


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


def worker_context(preload: tuple[str, ...]) -> Any:
    """Workers start from a clean process: forked from a forkserver that imported only ``preload`` (and this
    module), never from the parent, which may hold threads (xdist) and runtime state. The forkserver is one per
    parent process, so the first pool's preload list is the one it keeps."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    # conformance.quiesce last: it stops the threads the others started, so that forking is safe
    context.set_forkserver_preload(["numpy", "conformance.isolation", *preload, "conformance.quiesce"])
    return context


class WorkerPool:
    """One pool per pytest process (and so per xdist worker)."""

    def __init__(self, timeout: float, workers: int = 1, memory_limit: int | None = None,
                 preload: tuple[str, ...] = ()) -> None:
        self.timeout = timeout
        self.workers = workers
        self.memory_limit = memory_limit
        self.context = worker_context(preload)
        self._pool = self._start()

    def _start(self) -> ProcessPool:
        return ProcessPool(max_workers=self.workers, context=self.context,
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

    def run_batch(self, backend_ref: str, requests: list[Request]) -> list[Outcome] | None:
        """Several checks in one call; None if the batch failed in any way (a crash, a timeout, an exception):
        the caller then runs each check alone, so a crash is pinned on the check that causes it."""
        try:
            future = self._pool.schedule(run_checks, args=(backend_ref, requests), timeout=self.timeout)
            return future.result()
        except (BrokenProcessPool, RuntimeError):
            self._restart()
            return None
        except Exception:  # ProcessExpired, timeout, an unpicklable result
            return None

    def run_alone(self, backend_ref: str, request: Request) -> Outcome:
        context = self.context
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
