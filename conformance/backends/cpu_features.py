"""Features of the CPU that change what a backend computes, as the kernel lists them: a known difference found on
some hardware only names them (``match: {hardware: cpu:avx512_bf16}``, Backend.hardware)."""

from __future__ import annotations


def cpu_flags(wanted: tuple[str, ...], cpuinfo: str = "/proc/cpuinfo") -> tuple[str, ...]:
    """The flags of ``wanted`` the CPU has, as ``cpu:<flag>``, from the kernel's list (Linux); none where it is
    not readable."""
    try:
        with open(cpuinfo, encoding="utf-8") as f:
            flags = next((line.split(":", 1)[1].split() for line in f if line.startswith("flags")), [])
    except OSError:
        return ()
    return tuple(f"cpu:{flag}" for flag in wanted if flag in flags)
