"""The files a run writes (``--results``, its stream ``<results>.jsonl``, ``--report``) over the run's life:
checked before anything runs, held by one run at a time, the last run's pair moved aside when this one starts
writing, and the new pair put in place together at the end.

- **Before anything runs** (``check``): each path's folder can be made and written in, the path is not a folder,
  and no two outputs are one file (``--results x.jsonl`` would be its own stream). A usage error says which.
- **One run at a time** (``Lock``): a run holds an exclusive lock (``flock``, released by the system when the
  process ends however it ends) on ``<path>.lock`` beside each of its outputs; a second run with the same
  results or report path is refused before it runs, instead of the two interleaving one stream.
- **Nothing stale looks current** (``move_aside``): when the run starts writing (its first stream line), the last
  run's results file and report become ``<name>.previous<suffix>``; a run killed from then on leaves its stream
  and no results file or report that belongs to another run.
- **A pair belongs to one run** (``commit``): the results file and the report are each written to a temporary
  file first; then, with SIGINT and SIGTERM held, the ones written are renamed into place, so an interrupt while
  the report renders never leaves a new results file beside an old report. A write that fails (a full disk) costs
  that file only: the other is still written, and the error is returned for the summary.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from conformance.results.files import write_temp

# Where a run writes when not told: a full run to reports/, a run of part of the suite (``part_of_the_suite`` in
# conformance/plugin/options.py) to a folder of its own under reports/runs/, so that a rerun command or a -k
# never replaces the full run's page.
DEFAULT_OUTPUTS = {"results": "reports/results.json", "report": "reports/index.html"}
PART_RUNS = "reports/runs"


class OutputError(Exception):
    """An output path that cannot be used: the message names the option and the path."""


def stream_path(results: Path) -> Path:
    return results.with_suffix(".jsonl")


def check(outputs: dict[str, Path]) -> None:
    """``outputs``: option name (``--results``, ``--report``) -> path. Raises OutputError for the first problem."""
    seen: dict[Path, str] = {}
    named = dict(outputs)
    if "--results" in outputs:
        named["the stream of --results"] = stream_path(outputs["--results"])
    for option, path in named.items():
        resolved = path.resolve()
        if resolved in seen:
            raise OutputError(f"{option} {path}: the same file as {seen[resolved]}; give each output a path of "
                              "its own (the stream of --results is <results>.jsonl: give --results a name "
                              "ending in .json)")
        seen[resolved] = option
    for option, path in outputs.items():
        if path.is_dir():
            raise OutputError(f"{option} {path}: a folder; give a file path")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, probe = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
            os.close(fd)
            os.unlink(probe)
        except OSError as e:
            raise OutputError(f"{option} {path}: cannot be written ({e.strerror or e}); give a path this run can "
                              "write") from None


class Lock:
    """Exclusive locks on ``<path>.lock`` for each output path, held for the process's life or until release."""

    def __init__(self, outputs: dict[str, Path]) -> None:
        self._files: list[int] = []
        for option, path in outputs.items():
            lock = path.with_name(path.name + ".lock")
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                self.release()
                raise OutputError(f"{option} {path}: another run is writing it (it holds {lock}); wait for it, "
                                  "or give this run other paths (--results, --report)") from None
            self._files.append(fd)  # the file stays empty: a run that runs nothing changes no byte of the folder

    def release(self) -> None:
        for fd in self._files:
            os.close(fd)  # closing the last descriptor releases the flock
        self._files.clear()


def previous(path: Path) -> Path:
    """Where the last run's file goes: reports/results.json -> reports/results.previous.json."""
    return path.with_name(f"{path.stem}.previous{path.suffix}")


def move_aside(paths: list[Path]) -> list[Path]:
    """The last run's files at ``paths`` become ``previous(path)``; returns those moved."""
    moved = []
    for path in paths:
        with contextlib.suppress(FileNotFoundError):
            os.replace(path, previous(path))
            moved.append(path)
    return moved


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM that arrive inside are delivered when it ends. Python runs a signal's handler in the main
    thread whichever thread the system gave the signal to (xdist's controller has others), so blocking the
    signals in this thread would not hold them: the handlers are replaced by ones that note the signal, and each
    noted signal is raised again, to the handlers that were there, on the way out."""
    if threading.current_thread() is not threading.main_thread():  # only the main thread may set handlers
        old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
        return
    noted: list[int] = []
    before = {sig: signal.signal(sig, lambda signum, frame: noted.append(signum))
              for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, signal.SIG_DFL if handler is None else handler)  # None: set outside Python
        for sig in dict.fromkeys(noted):
            signal.raise_signal(sig)


def commit(files: list[tuple[Path, Callable[[], str]]]) -> tuple[list[Path], dict[Path, str]]:
    """Each (path, text to write) written to a temporary file beside it, then those written renamed into place
    together with SIGINT and SIGTERM held. Returns the paths written and, per path that could not be, why."""
    ready: list[tuple[str, Path]] = []
    failed: dict[Path, str] = {}
    try:
        for path, text in files:
            try:
                ready.append((write_temp(path, text()), path))
            except OSError as e:  # this file only; anything else (Ctrl-C) ends the commit
                failed[path] = e.strerror or str(e)
        with _signals_held():
            for tmp, path in ready:
                os.replace(tmp, path)
        return [path for _, path in ready], failed
    except BaseException:
        for tmp, _ in ready:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise
