"""Backends that misbehave on purpose, to test isolation and verdicts. Loaded in workers by reference."""

from __future__ import annotations

import ctypes
import os
import signal
import time
from typing import Any

import numpy as np

from conformance.backends import Axis, Backend, Outcome, Request
from conformance.backends.local import LocalBackend

ALL = frozenset({"bool", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "f32", "f64"})


class _Fake(Backend):
    package = None
    variants = {"v3": 3}
    dtypes = ALL


class SegfaultBackend(_Fake):
    name = "segfault"

    def run(self, request: Request) -> Outcome:
        ctypes.string_at(0)  # a real SIGSEGV: reads address 0
        raise AssertionError("unreachable")


class AbortBackend(_Fake):
    name = "abort"

    def run(self, request: Request) -> Outcome:
        os.abort()


class FpeBackend(_Fake):
    name = "fpe"

    def run(self, request: Request) -> Outcome:
        os.kill(os.getpid(), signal.SIGFPE)
        time.sleep(5)
        raise AssertionError("unreachable")


class HangBackend(_Fake):
    name = "hang"

    def run(self, request: Request) -> Outcome:
        time.sleep(3600)
        raise AssertionError("unreachable")


class RaisingBackend(_Fake):
    name = "raising"

    def run(self, request: Request) -> Outcome:
        raise KeyError("a bug in the adapter")


class CrashOnSecondAxisBackend(LocalBackend):
    """Dies on data of rank 2 and behaves like the local implementation otherwise."""

    name = "crash-rank2"

    def run(self, request: Request) -> Outcome:
        if request.data.ndim == 2:
            ctypes.string_at(0)
        return super().run(request)


class ZeroFlipBackend(LocalBackend):
    """Copies -0.0 as +0.0 (a lossy copy by arithmetic), otherwise correct."""

    name = "zeroflip"

    def run(self, request: Request) -> Outcome:
        outcome = super().run(request)
        if outcome.output is not None and outcome.output.dtype.kind == "f":
            output = outcome.output.copy()
            with np.errstate(invalid="ignore"):  # comparing a signalling NaN; its bits stay as they are
                output[output == 0] = 0
            return Outcome(output=output)
        return outcome


class AcceptAllBackend(_Fake):
    """Never rejects: returns an array of the target shape (clipped at zero) filled with the first value."""

    name = "acceptall"

    def run(self, request: Request) -> Outcome:
        shape = tuple(max(int(t), 0) for t in np.ravel(request.target_shape))
        first = request.data.reshape(-1)[:1] if request.data.size else np.zeros(1, request.data.dtype)
        return Outcome(output=np.full(shape, first[0], request.data.dtype))


class SlowBackend(LocalBackend):
    """Correct, but takes a while per check: a run of it can be interrupted halfway."""

    name = "slow"

    def run(self, request: Request) -> Outcome:
        time.sleep(0.2)
        return super().run(request)


class HogBackend(_Fake):
    """Allocates far beyond any worker's memory limit."""

    name = "hog"

    def run(self, request: Request) -> Outcome:
        hog = np.ones(2**36, np.uint8)  # 64 GiB
        return Outcome(output=hog[:0])


class NoisyBackend(LocalBackend):
    """Correct, but writes binary garbage to the worker's stdout and stderr first."""

    name = "noisy"

    def run(self, request: Request) -> Outcome:
        os.write(1, bytes(range(256)) * 4 + b"\n{'verdict': 'pass'}\n")
        os.write(2, b"\x00\xff garbage on stderr\n")
        return super().run(request)


class ExitingBackend(_Fake):
    """Raises SystemExit from inside the adapter."""

    name = "exiting"

    def run(self, request: Request) -> Outcome:
        raise SystemExit(3)


class _Unpicklable(Exception):
    def __init__(self) -> None:
        super().__init__("carries a lock")
        self.lock = __import__("threading").Lock()


class ExoticExceptionBackend(_Fake):
    """Raises an exception that cannot be pickled back to the parent."""

    name = "exotic"

    def run(self, request: Request) -> Outcome:
        raise _Unpicklable()


class GarbageOutcomeBackend(_Fake):
    """Returns something that is not an Outcome at all."""

    name = "garbage"

    def run(self, request: Request) -> Outcome:
        return "not an outcome"  # type: ignore[return-value]


class SleepyBackend(_Fake):
    """Finishes, but only after the timeout."""

    name = "sleepy"

    def run(self, request: Request) -> Outcome:
        time.sleep(6)
        return Outcome(output=np.broadcast_to(request.data, tuple(request.target_shape)).copy())


class CrashOnI64Backend(LocalBackend):
    """Dies (SIGSEGV) on i64 data only, including in a batch: the harness must pin the crash on that check."""

    name = "crash-on-i64"
    package = None

    def run(self, request: Request) -> Outcome:
        if request.data.dtype == np.int64:
            ctypes.string_at(0)
        return super().run(request)


class CountingBackend(LocalBackend):
    """Writes the size of every batch it is given to the file $BATCH_LOG, one line each."""

    name = "counting"
    package = None

    def run_many(self, requests: list[Request]) -> list[Outcome]:
        with open(os.environ["BATCH_LOG"], "a", encoding="utf-8") as log:
            log.write(f"{len(requests)}\n")
        return super().run_many(requests)


class SharedModelBugBackend(LocalBackend):
    """Right alone, wrong in a shared model: run_many flips the first byte of every i64 output."""

    name = "sharedbug"
    package = None

    def run_many(self, requests: list[Request]) -> list[Outcome]:
        outcomes = super().run_many(requests)
        for outcome in outcomes:
            if outcome.output is not None and outcome.output.dtype == np.int64 and outcome.output.size:
                outcome.output.view(np.uint8).reshape(-1)[0] ^= 0xFF
        return outcomes


class TwoLayoutsBackend(LocalBackend):
    """The local implementation with one more path axis, given as data: where the output is written. Both
    values compute the same; a test adds a value to the axis (and nothing else) and sees its checks appear."""

    name = "two-layouts"
    axes = (*LocalBackend.axes, Axis("output", ("fresh",), help="where the output is written", default="fresh"))


class PatchingBackend(LocalBackend):
    """Patches local_broadcast in its own worker so that every Broadcast-3 gives zeros: what a plug-in may do to
    its process must not change another backend's verdicts."""

    name = "patching"

    def run(self, request: Request) -> Outcome:
        import local_broadcast

        local_broadcast.broadcast_v3 = lambda data, target, *args, **kwargs: np.zeros(  # type: ignore[assignment]
            tuple(int(t) for t in target), data.dtype)
        return super().run(request)


class SpoiledAfterFirstBackend(LocalBackend):
    """Right on the first check of its process, wrong on every later one (all output values zero)."""

    name = "spoiled"
    runs = 0

    def run(self, request: Request) -> Outcome:
        outcome = super().run(request)
        SpoiledAfterFirstBackend.runs += 1
        if SpoiledAfterFirstBackend.runs > 1 and outcome.output is not None and outcome.output.size:
            return Outcome(output=np.zeros_like(outcome.output))
        return outcome


class HiddenAfterFailureBackend(LocalBackend):
    """Wrong on every int64 output (its first byte flipped), except in a process where a wrong output was
    already given: there it computes right, as a runtime whose failing check leaves its process in a state that
    hides a later bug would (a changed floating-point mode that flushes what another bug would show)."""

    name = "hidden-after-failure"
    package = None
    failed = False

    def run(self, request: Request) -> Outcome:
        outcome = super().run(request)
        if outcome.output is not None and outcome.output.dtype == np.int64 and outcome.output.size \
                and not HiddenAfterFailureBackend.failed:
            HiddenAfterFailureBackend.failed = True
            outcome.output.view(np.uint8).reshape(-1)[0] ^= 0xFF
        return outcome

    def run_many(self, requests: list[Request]) -> list[Outcome]:
        return [self.run(r) for r in requests]


class _AlwaysEqual(np.ndarray):
    """An array that says it equals anything."""

    def __ne__(self, other: object) -> Any:
        return np.zeros(self.shape, bool)

    def __eq__(self, other: object) -> Any:
        return np.ones(self.shape, bool)


class HidingOutputBackend(LocalBackend):
    """Gives zeros for every output, dressed up: a fully masked array (float outputs) or an ndarray subclass that
    says it equals anything (the others). Neither may pass by hiding its elements."""

    name = "hiding"

    def run(self, request: Request) -> Outcome:
        outcome = super().run(request)
        out = outcome.output
        if out is None or not out.size or out.dtype.kind not in "fiu":
            return outcome
        if out.dtype.kind == "f":
            return Outcome(output=np.ma.masked_all(out.shape, out.dtype))
        return Outcome(output=np.zeros(out.shape, out.dtype).view(_AlwaysEqual))


class ImpostorBackend(LocalBackend):
    """A plug-in that calls itself "local", as the built-in backend is named."""


class EscapingBackend(LocalBackend):
    """Rejects every input with a message full of terminal escape sequences: clear the screen, set the clipboard
    (OSC 52), and a C1 CSI."""

    name = "escaping"

    def run(self, request: Request) -> Outcome:
        return Outcome(error="bad\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07 input\x9b31m", stage="infer")


class LoneModelBugBackend(LocalBackend):
    """Right in a shared model, wrong alone: run flips the first byte of every i64 output, run_many does not (the
    other way round from SharedModelBugBackend)."""

    name = "lonebug"

    def run(self, request: Request) -> Outcome:
        outcome = super().run(request)
        if outcome.output is not None and outcome.output.dtype == np.int64 and outcome.output.size:
            outcome.output.view(np.uint8).reshape(-1)[0] ^= 0xFF
        return outcome

    def run_many(self, requests: list[Request]) -> list[Outcome]:
        return [LocalBackend.run(self, r) for r in requests]


class StallsMidSendBackend(_Fake):
    """Starts its reply on the worker's pipe (a frame announcing 1000 bytes, 10 of them written) and stops its
    process (SIGSTOP): a worker stopped in the middle of sending."""

    name = "stalls"

    def run(self, request: Request) -> Outcome:
        import gc
        import struct
        from multiprocessing.connection import Connection

        pipe = next(o for o in gc.get_objects() if isinstance(o, Connection) and not o.closed)
        os.write(pipe.fileno(), struct.pack("!i", 1000) + b"x" * 10)
        os.kill(os.getpid(), signal.SIGSTOP)
        return Outcome(error="never sent")


class HugeOutputBackend(_Fake):
    """Returns an output of 64 MiB (zeros, never touched: the worker's memory stays small) for any input."""

    name = "huge"

    def run(self, request: Request) -> Outcome:
        return Outcome(output=np.zeros((4096, 4096), np.float32))


class _Expands:
    """Small to send, gigabytes once unpickled: bytes(2**40) in whatever process loads it."""

    def __reduce__(self) -> tuple[Any, ...]:
        return bytes, (2**40,)


class ExpandingOutputBackend(_Fake):
    """Returns, as its output and its error, objects whose pickle expands to 1 TiB when loaded."""

    name = "expanding"

    def run(self, request: Request) -> Outcome:
        return Outcome(output=_Expands(), stage=_Expands())  # type: ignore[arg-type]


class ChildStartingBackend(LocalBackend):
    """Starts a long-lived child process (its pid in the rejection message) and returns."""

    name = "parent"

    def run(self, request: Request) -> Outcome:
        import subprocess

        child = subprocess.Popen(["sleep", "600"])
        return Outcome(error=f"child {child.pid}", stage="infer")


class ThreeAxesZeroFlipBackend(LocalBackend):
    """The local implementation with two more path axes, losing -0.0 (as ZeroFlipBackend) only where Broadcast-3
    runs with layout b and copy y: a path combination a default (pairwise) run of a case outside the spec's
    examples and rules leaves out, and --paths all takes."""

    name = "three-axes"
    axes = (*LocalBackend.axes, Axis("layout", ("a", "b"), help="a test axis"),
            Axis("copy", ("x", "y"), help="a test axis"))

    def run(self, request: Request) -> Outcome:
        outcome = super().run(request)
        if (dict(request.path) == {"op": "v3", "layout": "b", "copy": "y"} and outcome.output is not None
                and outcome.output.dtype.kind == "f"):
            output = outcome.output.copy()
            with np.errstate(invalid="ignore"):  # comparing a signalling NaN; its bits stay as they are
                output[output == 0] = 0
            return Outcome(output=output)
        return outcome
