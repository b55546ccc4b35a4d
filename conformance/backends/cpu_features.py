"""Features of the CPU that change what a backend computes, as the kernel lists them: a known difference found on
some hardware only names them (``match: {hardware: cpu:avx512_bf16}``, Backend.hardware)."""

from __future__ import annotations

import os


def cpu_flags(wanted: tuple[str, ...], cpuinfo: str = "/proc/cpuinfo") -> tuple[str, ...]:
    """The flags of ``wanted`` the CPU has, as ``cpu:<flag>``, from the kernel's list (Linux); none where it is
    not readable."""
    try:
        with open(cpuinfo, encoding="utf-8") as f:
            flags = next((line.split(":", 1)[1].split() for line in f if line.startswith("flags")), [])
    except OSError:
        return ()
    return tuple(f"cpu:{flag}" for flag in wanted if flag in flags)


def one_inference_thread() -> tuple[str, ...]:
    """``cpu:one_inference_thread`` where the process may run on one CPU only (its affinity: a one-core machine or
    container, ``taskset -c 0``): OpenVINO's CPU plugin then compiles with INFERENCE_NUM_THREADS 1, and its results
    differ from those of two threads or more (a run pinned to one core, 2026-11-29: invalid inputs of dynamic shapes
    accepted, docs/internals.md "One inference thread"). The known differences are recorded with two threads; the
    feature is in the report's header, so that a run of one thread says so."""
    try:
        return ("cpu:one_inference_thread",) if len(os.sched_getaffinity(0)) == 1 else ()
    except (AttributeError, OSError):  # no affinity to read (not Linux)
        return ("cpu:one_inference_thread",) if os.cpu_count() == 1 else ()
