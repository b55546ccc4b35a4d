"""The backend interface: what a Broadcast implementation under test provides.

A backend is a small class. The harness (parent process) asks it cheap questions: its name, the version
of its package, whether it is usable at all and, for a case, which variants apply and which element
types it cannot take (and why). The check itself runs in a worker process: ``run`` gets a Request and
returns an Outcome. A rejection by the implementation is an Outcome with ``error`` and ``stage``;
an exception escaping ``run`` is a bug in the adapter and becomes the verdict ``error``.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import metadata
from typing import Any, ClassVar

import numpy as np

from conformance.cases import Case


@dataclass(frozen=True)
class Request:
    """Everything a worker needs to run one check; small and picklable."""

    mode: str
    variant: str
    data: np.ndarray  # empty (of the check's dtype) for a shape-only check
    target_shape: np.ndarray
    axes_mapping: np.ndarray | None
    # A shape-only check: the output would exceed the memory budget, so nothing is run or allocated; the
    # backend says what shape it would produce (``declare``) or rejects the input.
    shape_only: bool = False
    data_shape: tuple[int, ...] = ()

    @property
    def input_shape(self) -> tuple[int, ...]:
        return self.data_shape if self.shape_only else self.data.shape


@dataclass(frozen=True)
class Outcome:
    """What a backend did with a Request."""

    output: np.ndarray | None = None
    error: str | None = None  # the implementation refused the input
    stage: str | None = None  # where: build, compile, infer, validate (or worker for crash/timeout)
    declared_shape: tuple[int | None, ...] | None = None  # inferred before running; None = dynamic dim
    rule: str | None = None  # the rule a rejection names, for backends that say it
    crash: str | None = None  # the worker died: signal or exit code
    timeout: float | None = None  # seconds waited
    out_of_memory: str | None = None  # the check ran out of the worker's memory
    adapter_error: str | None = None  # a traceback from our own adapter code


class Backend:
    """Subclass this; see conformance/backends/local.py for a complete small example."""

    name: ClassVar[str]
    package: ClassVar[str | None] = None  # the distribution whose version is reported
    variants: ClassVar[dict[str, int]]  # variant -> op version it runs (0, 1 or 3)
    dtypes: ClassVar[frozenset[str]]  # element types (conformance.data.DTYPES names) it takes
    unsupported: ClassVar[dict[str, str]] = {}  # element type it does not take -> why (else a generic reason)
    # The variants that feed target_shape (and axes_mapping) at run time, not when the model is built.
    runtime_inputs: ClassVar[frozenset[str]] = frozenset()
    # Modules a worker process imports before its first check (its forkserver does, once): the runtime's own
    # package, so that a worker replacing one that crashed is ready at once.
    preload: ClassVar[tuple[str, ...]] = ()

    def version(self) -> str | None:
        if self.package is None:
            return None
        try:
            return metadata.version(self.package)
        except metadata.PackageNotFoundError:
            return None

    def hardware(self) -> tuple[str, ...]:
        """Features of the machine, as the backend sees it, that change what it computes (``cpu:bf16``, say):
        a known difference found on some hardware only names them (``match: {hardware: ...}``), so that it
        applies there and nowhere else. Asked once per run, in the harness process."""
        return ()

    def unavailable(self) -> str | None:
        """Why the backend cannot run at all (a skip), or None."""
        if self.package is not None and self.version() is None:
            return f"package {self.package!r} is not installed"
        return None

    def variants_for(self, case: Case) -> dict[str, str | None]:
        """Each variant that applies to the case's op versions, with None or the reason it is not
        applicable. An empty dict means the backend has nothing to say about the case."""
        return {v: None for v, version in self.variants.items() if version in case.versions}

    def why_not(self, case: Case, variant: str, dtype: str) -> str | None:
        if dtype not in self.dtypes:
            return self.unsupported.get(dtype, f"{self.name} does not take element type {dtype}")
        if case.dynamic and not case.valid and variant in self.runtime_inputs:
            return ("a declared-shape check of an invalid input: with target_shape fed at run time, nothing "
                    "before running can know it breaks a rule")
        return None

    def shape_type_rule(self, variant: str, shape_dtype: str) -> str | None:
        """A rule of this backend's op that rejects target_shape / axes_mapping of this integer type, which
        the Broadcast spec allows (T_SHAPE: any integer type); None if the type is fine."""
        return None

    def run(self, request: Request) -> Outcome:
        raise NotImplementedError

    def run_many(self, requests: list[Request]) -> list[Outcome]:
        """Several checks at once, an Outcome each, in order. Override to share work among them (one model
        for all, say); each must keep its own result. If this raises, or a worker dies in it, the harness
        runs each check alone through ``run``, so a shared failure never decides a check's verdict."""
        return [self.run(request) for request in requests]

    def declare(self, request: Request) -> Outcome:
        """For a shape-only check: the output shape the backend would produce (``declared_shape``), or its
        rejection, without running or allocating the output. The default cannot say (not applicable)."""
        return Outcome()

    def describe(self) -> dict[str, Any]:
        reason = self.unavailable()
        described: dict[str, Any] = {"version": self.version(), "available": reason is None, "reason": reason}
        hardware = self.hardware() if reason is None else ()
        return {**described, "hardware": list(hardware)} if hardware else described
