"""Checks run in a worker process, so that a backend that kills its process costs one check, not the run.

A worker is one process forked from a forkserver that has already imported the runtimes (``preload``), joined
to the harness by a pipe. It keeps its loaded runtimes, backend instances and their caches across checks. For
each task it first acknowledges the task, then runs it and sends the outcome back. The harness learns that the
worker died the moment the pipe reports end-of-file, and reads its exit code: a death after the
acknowledgement is that check's crash; a death before it (the worker was already gone) sends the task once more
to a fresh worker. A check that takes longer than the timeout has its worker killed. Either way a replacement is
forked at once, and the run goes on.

Why not a pool library: pebble, used before, notices a dead worker on its manager thread's 0.1 s poll, and
OpenVINO's CPU plugin kills its process several hundred times a run (known crashes), which cost ~90 ms each;
end-of-file on a pipe is immediate, and a task needs no thread hop.

``run_batch`` sends several checks of one backend in one call (``Backend.run_many``, which may share one
compiled model among them); if the batch fails in any way, the caller runs each of its checks alone.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.spawn
import os
import pickle
import resource
import signal
import time
import traceback
from collections.abc import Iterator
from typing import Any

from conformance.backends import Backend, Outcome, Request, load
from conformance.run import wire

_INSTANCES: dict[str, Backend] = {}  # per worker process: backends already loaded
_ACK = "ack"
# What the harness reads of one reply: each check's output limit (Request.max_output_bytes; else this) and room
# for its texts (each clipped to wire.MAX_TEXT) and framing
DEFAULT_OUTPUT_LIMIT = 256 * 2**20
MESSAGE_OVERHEAD = 4 * 2**20


def _backend(backend_ref: str) -> Backend:
    backend = _INSTANCES.get(backend_ref)
    if backend is None:
        backend = _INSTANCES[backend_ref] = load(backend_ref)
    return backend


def run_check(backend_ref: str, request: Request) -> Outcome:
    """Runs in the worker. Any exception leaving backend.run is a bug in the adapter: report it as such."""
    try:
        backend = _backend(backend_ref)
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
        outcomes = _backend(backend_ref).run_many(requests)
    except BaseException:  # noqa: BLE001 -- any failure of the batch: run its checks one by one
        return None
    if len(outcomes) != len(requests) or not all(isinstance(o, Outcome) for o in outcomes):
        return None
    return outcomes


def _serve(conn: Any, memory_limit: int | None) -> None:
    """The worker's loop: acknowledge a task, run it, send its result as plain data (conformance/run/wire.py);
    until the harness closes the pipe. The worker leads a process group of its own, so that the processes a
    backend starts end with it (the harness ends the group, _Worker.stop)."""
    os.setpgid(0, 0)
    _limit_memory(memory_limit)
    _no_core_dumps()
    while True:
        try:
            batch, backend_ref, payload = conn.recv()
        except EOFError:
            return
        conn.send(_ACK)
        if batch:
            outcomes = run_checks(backend_ref, payload)
            result: Any = None if outcomes is None else [_plain(o, r) for o, r in zip(outcomes, payload, strict=True)]
        else:
            result = _plain(run_check(backend_ref, payload), payload)
        conn.send(result)


def _plain(outcome: Outcome, request: Request) -> dict[str, Any]:
    try:
        return wire.to_wire(outcome, request.max_output_bytes)
    except Exception as e:  # noqa: BLE001 -- whatever a backend's objects do when read
        return wire.to_wire(Outcome(adapter_error=f"the outcome could not be sent back: {type(e).__name__}: {e}"),
                            None)


def _limit_memory(limit_bytes: int | None) -> None:
    """Cap the worker's address space, so a runaway allocation fails in this worker (MemoryError or the
    runtime's own allocation error) instead of taking the machine."""
    if limit_bytes:
        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))


def _no_core_dumps() -> None:
    """A run has hundreds of known crashes; where core dumps are on (ulimit -c), each would write the worker's
    whole memory (hundreds of MB with OpenVINO loaded) to disk. The signal is the result; the entry's reproducer
    is there for the debugger."""
    resource.setrlimit(resource.RLIMIT_CORE, (0, resource.getrlimit(resource.RLIMIT_CORE)[1]))


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
    # conformance.run.worker_environment first: it keeps runtimes from starting threads as they are imported;
    # conformance.run.quiesce last: it stops the threads the others started, so that forking is safe
    context.set_forkserver_preload(["conformance.run.worker_environment", "numpy", "conformance.run.isolation",
                                    *preload,
                                    "conformance.run.quiesce"])
    return context


class _Died(Exception):
    def __init__(self, acknowledged: bool, exitcode: int | None) -> None:
        super().__init__(describe_exit(exitcode))
        self.acknowledged = acknowledged


class _TimedOut(Exception):
    pass


@contextlib.contextmanager
def _without_the_main_module() -> Iterator[None]:
    """A worker needs nothing from the harness's ``__main__``, yet multiprocessing runs a main script again in
    every process it starts from a forkserver: with the ``pytest`` console script that is an import of pytest,
    ~45 ms in each of the hundreds of workers that replace crashed ones (26 s of an 80 s run), and a script
    calling pytest.main() without a ``__name__`` guard would run the suite again inside the worker. So the
    preparation data the worker receives names no main module. (A backend given as ``__main__:Class`` is
    therefore not loadable in a worker; a module of its own is.)"""
    original = multiprocessing.spawn.get_preparation_data

    def preparation_data(name: str) -> dict[str, Any]:
        data = original(name)
        data.pop("init_main_from_path", None)
        data.pop("init_main_from_name", None)
        return data

    multiprocessing.spawn.get_preparation_data = preparation_data  # read by each Popen._launch at call time
    try:
        yield
    finally:
        multiprocessing.spawn.get_preparation_data = original


class _Worker:
    """One worker process and the harness's end of its pipe."""

    def __init__(self, context: Any, memory_limit: int | None) -> None:
        self.conn, child = context.Pipe(duplex=True)
        self.process = context.Process(target=_serve, args=(child, memory_limit), daemon=True)
        with _without_the_main_module():
            self.process.start()
        child.close()
        self.tasks = 0  # tasks sent to it: a worker that has run none is fresh

    def call(self, batch: bool, backend_ref: str, payload: Any, timeout: float) -> Any:
        """The task's result: an Outcome, or for a batch a list of them or None; raises _Died, or _TimedOut once
        it has killed the process (also when it stops in the middle of sending: every wait has its deadline)."""
        self.tasks += 1
        acknowledged = False
        requests = payload if batch else [payload]
        limit = sum((r.max_output_bytes or DEFAULT_OUTPUT_LIMIT) + MESSAGE_OVERHEAD for r in requests)
        try:
            self.conn.send((batch, backend_ref, payload))
            acknowledged = self._reply(timeout, MESSAGE_OVERHEAD) == _ACK
            result = self._reply(timeout, limit)
        except (EOFError, OSError):  # the pipe is closed: the process is gone
            self.process.join(30)
            raise _Died(acknowledged, self.process.exitcode) from None
        except wire.TooLarge as e:  # the worker's own code sent more than it may: it ends, the check is an error
            self.kill()
            return None if batch else Outcome(adapter_error=f"the worker sent {e}")
        try:
            if batch:
                return None if result is None else [wire.from_wire(o) for o in result]
            return wire.from_wire(result)
        except (ValueError, TypeError, KeyError) as e:
            return None if batch else Outcome(adapter_error=f"the worker sent no outcome: {e}")

    def _reply(self, timeout: float, limit: int) -> Any:
        try:
            return wire.loads(wire.read_message(self.conn.fileno(), time.monotonic() + timeout, limit))
        except wire.Timeout:
            self.kill()
            raise _TimedOut from None
        except pickle.UnpicklingError as e:
            self.kill()
            raise wire.TooLarge(f"a message that is not plain data ({e})") from None

    def kill(self) -> None:
        """The worker and every process in its group (what a backend started)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.kill()

    def stop(self) -> None:
        self.conn.close()
        self.process.join(1)
        self.kill()  # its group too, whether it ended or not
        self.process.join()

    def retire(self) -> None:
        """Ask it to end (its pipe closed) without waiting: ``reaped`` says when it has."""
        self.conn.close()

    def reaped(self) -> bool:
        self.process.join(0)
        if self.process.is_alive():
            return False
        with contextlib.suppress(ProcessLookupError, PermissionError):  # what it started, if still there
            os.killpg(self.process.pid, signal.SIGKILL)
        return True


class WorkerPool:
    """A worker per backend in each pytest process (and so in each xdist worker), replaced when it dies or hangs.
    Backends never share a worker: what one backend's adapter does to its process (patching a module, changing
    the floating-point mode) cannot change another backend's verdicts."""

    def __init__(self, timeout: float, memory_limit: int | None = None, preload: tuple[str, ...] = ()) -> None:
        self.timeout = timeout
        self.memory_limit = memory_limit
        self.context = worker_context(preload)
        self._workers: dict[str, _Worker] = {}
        self._spares: dict[str, _Worker] = {}  # per backend: a worker that has run nothing, for run_fresh
        self._retired: list[_Worker] = []  # spares that ran their one check, ending
        self.last_fresh = False  # the last task ran in a worker that had run nothing before it

    def _start(self) -> _Worker:
        return _Worker(self.context, self.memory_limit)

    def _call(self, batch: bool, backend_ref: str, payload: Any) -> Any:
        """The task's result; raises _Died or _TimedOut (the worker is then replaced)."""
        for attempt in range(2):
            worker = self._workers.get(backend_ref)
            if worker is None:
                worker = self._workers[backend_ref] = self._start()
            self.last_fresh = worker.tasks == 0
            try:
                return worker.call(batch, backend_ref, payload, self.timeout)
            except _TimedOut:
                worker.stop()
                self._workers[backend_ref] = self._start()
                raise
            except _Died as died:
                worker.stop()
                self._workers[backend_ref] = self._start()  # forked now: it gets ready while the harness judges
                # Gone before it took the task (it died after its last one): that is not this task's doing.
                if died.acknowledged or attempt:
                    raise
        raise AssertionError("unreachable")

    def _failed(self, error: Exception, timeout: float | None = None) -> Outcome:
        """The outcome of a check whose worker call failed: its worker died, it timed out (after ``timeout``, the
        pool's by default), or the call itself failed (e.g. the request could not be pickled)."""
        if isinstance(error, _Died):
            return Outcome(crash=str(error), stage="worker")
        if isinstance(error, _TimedOut):
            return Outcome(timeout=timeout or self.timeout, stage="worker")
        return Outcome(adapter_error=f"{type(error).__name__}: {error}")

    def run(self, backend_ref: str, request: Request) -> Outcome:
        try:
            return self._call(False, backend_ref, request)
        except Exception as e:
            return self._failed(e)

    def run_fresh(self, backend_ref: str, request: Request, timeout: float | None = None) -> Outcome:
        """The check in a worker that has run nothing before it: what an earlier check did to a process cannot
        change this outcome. That worker is a spare, forked after the previous fresh check (so it gets ready
        while the harness works), and it ends after this one check; the backend's worker keeps its warm state.
        ``timeout``: the seconds it is given, if not the pool's (a known hang's entry gives fewer)."""
        worker = self._spares.pop(backend_ref, None) or self._start()
        try:
            return worker.call(False, backend_ref, request, timeout or self.timeout)
        except _Died as died:
            if died.acknowledged:
                return self._failed(died)
            return self.run_alone(backend_ref, request)  # the spare died before it took the task: not its doing
        except Exception as e:
            return self._failed(e, timeout)
        finally:
            self._retire(worker)
            self._spares[backend_ref] = self._start()

    def recycle(self, backend_ref: str) -> None:
        """The backend's worker is in doubt (a check it computed failed: the runtime may have left the process in
        a state that changes later outcomes): it ends, and the next check goes to a new one, forked now."""
        worker = self._workers.pop(backend_ref, None)
        if worker is not None:
            self._retire(worker)
            self._workers[backend_ref] = self._start()

    def _retire(self, worker: _Worker) -> None:
        """Ask it to end, without waiting; kept until reaped (close stops any still running)."""
        worker.retire()
        self._retired = [w for w in self._retired if not w.reaped()] + [worker]

    def run_batch(self, backend_ref: str, requests: list[Request]) -> list[Outcome] | None:
        """Several checks in one call; None if the batch failed in any way (a crash, a timeout, an exception):
        the caller then runs each check alone, so a crash is pinned on the check that causes it."""
        try:
            return self._call(True, backend_ref, requests)
        except Exception:  # _Died, _TimedOut, an unpicklable request
            return None

    def run_alone(self, backend_ref: str, request: Request) -> Outcome:
        """The check in a fresh process of its own, which then ends."""
        worker = self._start()
        try:
            return worker.call(False, backend_ref, request, self.timeout)
        except (_Died, _TimedOut) as e:
            return self._failed(e)
        finally:
            worker.stop()

    def close(self) -> None:
        for worker in [*self._workers.values(), *self._spares.values(), *self._retired]:
            worker.stop()
        self._workers.clear()
        self._spares.clear()
        self._retired.clear()
