"""``python3 -m conformance known --verify``: run every known difference's reproducer against the installed runtimes.

An entry is a claim about a runtime: "this bug is there". Its reproducer (conformance/known/reproducers/<backend>/
<entry-id>.py, standalone: numpy and the runtime's own API) prints what the runtime gives and what the spec says
and exits 0 when the bug shows, 1 when the runtime behaves as the spec says, 2 when it cannot run here. Each runs
in a subprocess of its own (a session of its own, so that a timeout ends the children it started as well), up to
``jobs`` at once. An entry whose ``version`` or ``hardware`` condition does not hold for the installed runtime or
this machine is not applicable here and is not run. The run fails (exit 1) when an applicable entry's reproducer
does not show its bug: the bug is fixed (or the reproducer is wrong), and the entry must not hide it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from conformance.known.entries import Known

SHOWS = "shows the bug"
FIXED = "FIXED"
CANNOT_RUN = "cannot run"
NOT_APPLICABLE = "not applicable here"
FAILED = "reproducer failed"  # it raised, died, timed out or gave an exit status other than 0, 1 and 2
NO_REPRODUCER = "no reproducer"  # only a link (nothing to run)
RESULTS = (SHOWS, FIXED, CANNOT_RUN, NOT_APPLICABLE, FAILED, NO_REPRODUCER)
DEFAULT_TIMEOUT = 300.0  # seconds per reproducer: some start a child process per model (crashes), on a busy machine


@dataclass(frozen=True)
class Runtime:
    """What verification needs to know of a backend: whether its runtime is here, its version, its hardware."""

    available: bool
    reason: str | None = None  # why not available
    version: str | None = None
    hardware: tuple[str, ...] = ()


@dataclass(frozen=True)
class Row:
    entry: str
    backend: str
    result: str  # one of RESULTS
    detail: str = ""  # the reproducer's last line, or why it was not run
    seconds: float | None = None
    output: str = ""  # everything the reproducer printed (stdout and stderr)
    counts: bool = True  # False: a "cannot run" that does not fail the run (the backend's runtime is not here)

    @property
    def fails(self) -> bool:
        """The entry's reproducer does not show its bug although it applies here."""
        return self.result in (FIXED, FAILED) or (self.result == CANNOT_RUN and self.counts)


def runtime_of(name: str, needs_hardware: bool = True) -> Runtime:
    """The backend's runtime as conformance.backends sees it (its package, version and hardware features)."""
    from conformance import backends

    try:
        backend = backends.load(name)
    except (backends.BackendNotFound, TypeError, ImportError) as e:
        return Runtime(available=False, reason=f"backend {name!r} cannot be loaded here ({e})")
    reason = backend.unavailable()
    if reason is not None:
        return Runtime(available=False, reason=reason, version=backend.version())
    hardware = backend.hardware() if needs_hardware else ()
    return Runtime(available=True, version=backend.version(), hardware=tuple(hardware))


def _conditions(entry: Known) -> dict[str, tuple[str, ...]]:
    match = dict(entry.match)
    return {k: match[k] for k in ("version", "hardware") if k in match}


def not_applicable(entry: Known, runtime: Runtime) -> str | None:
    """Why the entry does not apply here (its version or hardware condition does not hold), or None."""
    conditions = _conditions(entry)
    if "version" in conditions and runtime.version is not None and not entry.applies_to_version(runtime.version):
        return f"version {runtime.version} is not {' or '.join(conditions['version'])}"
    if "version" in conditions and runtime.version is None and runtime.available:
        return f"the backend reports no version; the entry is for {' or '.join(conditions['version'])}"
    if "hardware" in conditions and runtime.available and not entry.applies_on(runtime.hardware):
        return (f"hardware {' or '.join(conditions['hardware'])} not among this machine's "
                f"({', '.join(runtime.hardware) or 'none reported'})")
    return None


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""


def run_reproducer(entry: Known, timeout: float) -> Row:
    """Run one entry's reproducer in a subprocess (its own session) and read its exit status."""
    script = entry.reproducer_file
    if script is None:  # inline text (a --known file may still give one) or only a link
        inline = bool(entry.reproducer)
        return Row(entry.id, entry.backend, CANNOT_RUN if inline else NO_REPRODUCER,
                   "the reproducer is given inline, not as a script" if inline else f"link only: {entry.link}",
                   counts=inline)
    started = time.monotonic()
    try:
        proc = subprocess.Popen([sys.executable, str(script)], cwd=script.parent, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True, errors="replace",
                                start_new_session=True)
    except OSError as e:
        return Row(entry.id, entry.backend, FAILED, f"cannot start {script}: {e}")
    try:
        output, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        output, _ = proc.communicate()
        return Row(entry.id, entry.backend, FAILED, f"timed out after {timeout:g} s", time.monotonic() - started,
                   output)
    finally:
        _kill_group(proc)  # children the reproducer left behind
    seconds = time.monotonic() - started
    code = proc.returncode
    last = _last_line(output)
    if code == 0:
        return Row(entry.id, entry.backend, SHOWS, last, seconds, output)
    if code == 2:
        return Row(entry.id, entry.backend, CANNOT_RUN, last, seconds, output)
    if code == 1 and "Traceback (most recent call last)" not in output:
        return Row(entry.id, entry.backend, FIXED, last, seconds, output)
    if code < 0:
        detail = f"killed by {_signal_name(-code)}"
    elif code == 1:
        detail = f"raised: {last}"
    else:
        detail = f"exit status {code}: {last}"
    return Row(entry.id, entry.backend, FAILED, detail, seconds, output)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _kill_group(proc: subprocess.Popen[str]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


def _own_script(entry: Known) -> bool:
    """The entry's reproducer is a script of its own backend's folder (or it has none to run)."""
    script = entry.reproducer_file
    return script is None or script.parent.name == entry.backend  # reproducers/<backend>/<script>.py


def verify(entries: Mapping[str, list[Known]], backends: Iterable[str] | None = None,
           timeout: float = DEFAULT_TIMEOUT, jobs: int | None = None,
           runtimes: Callable[[str, bool], Runtime] = runtime_of,
           progress: Callable[[Row], None] | None = None) -> list[Row]:
    """A row per entry of the chosen backends (all by default), in file order: applicable entries' reproducers
    run up to ``jobs`` (default: the core count) at once, each with ``timeout`` seconds."""
    chosen = list(entries) if backends is None else [b for b in entries if b in set(backends)]
    rows: dict[tuple[str, str], Row] = {}
    to_run: list[Known] = []
    available: dict[str, bool] = {}
    for name in chosen:
        runtime = runtimes(name, any("hardware" in _conditions(k) for k in entries[name]))
        available[name] = runtime.available
        for k in entries[name]:
            why = not_applicable(k, runtime)
            if why is not None:
                rows[(name, k.id)] = Row(k.id, name, NOT_APPLICABLE, why)
            elif not runtime.available and not _own_script(k):
                # another backend's script (onnxruntime-openvino's entries of ONNX Runtime's own bugs name
                # onnxruntime's): it runs whatever runtime is here, not this backend's, so it cannot verify it
                rows[(name, k.id)] = Row(k.id, name, CANNOT_RUN, f"cannot run: {runtime.reason}", counts=False)
            else:  # run even where the runtime is missing: the reproducer says what it misses (exit 2)
                to_run.append(k)

    def one(k: Known) -> Row:
        row = run_reproducer(k, timeout)
        if row.result == CANNOT_RUN and not available[k.backend]:  # no runtime here: nothing to verify
            row = Row(row.entry, row.backend, row.result, row.detail, row.seconds, row.output, counts=False)
        if progress is not None:
            progress(row)
        return row

    with ThreadPoolExecutor(max_workers=max(1, jobs or os.cpu_count() or 1)) as pool:
        for row in pool.map(one, to_run):
            rows[(row.backend, row.entry)] = row
    return [rows[(name, k.id)] for name in chosen for k in entries[name]]


def table(rows: list[Row]) -> str:
    """The rows as a text table (entry, backend, result, seconds, detail) and a summary line."""
    head = ("entry", "backend", "result", "time", "detail")
    body = [(r.entry, r.backend, r.result + ("" if r.counts else " (runtime not here)"),
             "" if r.seconds is None else f"{r.seconds:.0f}s", r.detail) for r in rows]
    widths = [max(len(line[i]) for line in [head, *body]) for i in range(4)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(line[:4], widths, strict=True)) + "  " + line[4]
             for line in [head, *body]]
    return "\n".join([*(line.rstrip() for line in lines), summary(rows)])


def summary(rows: list[Row]) -> str:
    counts = Counter(r.result for r in rows)
    failing = sum(r.fails for r in rows)
    parts = ", ".join(f"{counts[r]} {r}" for r in RESULTS if counts[r])
    return (f"{len(rows)} entries: {parts or 'none'}; "
            + (f"{failing} applicable entr{'y does' if failing == 1 else 'ies do'} not show the bug"
               if failing else "every applicable entry shows its bug"))


def listing(entries: Mapping[str, list[Known]], backends: Iterable[str] | None = None) -> str:
    """One line per entry: backend, id, verdict, its conditions and its evidence (reproducer script or link)."""
    chosen = list(entries) if backends is None else [b for b in entries if b in set(backends)]
    lines = []
    for name in chosen:
        for k in entries[name]:
            conditions = [f"{key}={'|'.join(v)}" for key, v in k.match]
            if k.paths:  # alternatives: one holds in full
                conditions.append(" or ".join(",".join(f"path.{axis}={'|'.join(v)}" for axis, v in p) for p in k.paths))
            if k.inputs:
                conditions.append("inputs=" + " | ".join(",".join(g) for g in k.inputs))
            evidence = k.reproducer if k.reproducer_file is not None else (k.link or "inline reproducer")
            lines.append(f"{name}  {k.id}  {k.verdict}  {' '.join(conditions)}  {evidence}")
    return "\n".join(lines)


def main(entries: Mapping[str, list[Known]], backends: list[str] | None, timeout: float, jobs: int | None,
         out: Callable[[str], None] = print, runtimes: Callable[[str, bool], Runtime] = runtime_of) -> int:
    """Verify, print the table (and the output of each reproducer that does not show its bug), exit status."""
    unknown = sorted(set(backends or ()) - set(entries))
    if unknown:
        out(f"no known differences for backend(s) {', '.join(unknown)}; backends with entries: "
            f"{', '.join(entries)}")
        return 2
    rows = verify(entries, backends, timeout=timeout, jobs=jobs, runtimes=runtimes)
    for row in rows:
        if row.fails and row.output:
            out(f"--- {row.backend}/{row.entry}: {row.result} ({row.detail})\n{row.output.rstrip()}")
    out(table(rows))
    return 1 if any(r.fails for r in rows) else 0


__all__ = ["CANNOT_RUN", "DEFAULT_TIMEOUT", "FAILED", "FIXED", "NOT_APPLICABLE", "NO_REPRODUCER", "RESULTS", "Row",
           "Runtime", "SHOWS", "listing", "main", "not_applicable", "run_reproducer", "runtime_of", "summary",
           "table", "verify"]
