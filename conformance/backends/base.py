"""The backend interface: what an implementation under test provides.

A backend is a small class. The harness (parent process) asks it cheap questions: its name, the version
of its package, whether it is usable at all, its path axes (the ways it can run a check, as data:
conformance/run/paths.py) and, for a case, which paths apply and which element types it cannot take (and
why). The check itself runs in a worker process: ``run`` gets a Request and returns an Outcome. A rejection by
the implementation is an Outcome with ``error`` and ``stage``; an exception escaping ``run`` is a bug in the
adapter and becomes the verdict ``error``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from importlib import metadata
from typing import Any, ClassVar

import numpy as np

from conformance.cases import Case
from conformance.ops import DEFAULT as DEFAULT_OP
from conformance.ops import get as get_op
from conformance.run.paths import Axis, Path, every_path


@dataclass(frozen=True)
class Request:
    """Everything a worker needs to run one check; small and picklable."""

    op: str  # the op's name (conformance.ops.get)
    path: Mapping[str, str]  # axis -> value
    inputs: Mapping[str, np.ndarray | None]  # by name: data inputs (empty for a shape-only check), shape inputs
    attrs: Mapping[str, Any] = field(default_factory=dict)  # the op's attributes (Broadcast: mode)
    # A shape-only check: the output would exceed the memory budget, so nothing is run or allocated; the
    # backend says what shape it would produce (``declare``) or rejects the input.
    shape_only: bool = False
    input_shapes: Mapping[str, tuple[int | None, ...]] = field(default_factory=dict)  # data inputs; None: "?"
    variant: str = ""  # the path's label, e.g. "opset3-param"
    # The largest output the worker sends back: the output budget (a check whose right output is larger is
    # shape-only), so a larger one is wrong whatever it holds, and is judged from its shape (conformance/run/wire.py)
    max_output_bytes: int | None = None

    # Broadcast's inputs by name, for adapters of that op
    @property
    def data(self) -> np.ndarray:
        return self.inputs["data"]  # type: ignore[return-value]

    @property
    def target_shape(self) -> np.ndarray:
        return self.inputs["target_shape"]  # type: ignore[return-value]

    @property
    def axes_mapping(self) -> np.ndarray | None:
        return self.inputs.get("axes_mapping")

    @property
    def mode(self) -> str:
        return str(self.attrs["mode"])

    @property
    def input_shape(self) -> tuple[int | None, ...]:
        """The data's shape as the graph declares it (None: unknown until run time)."""
        return tuple(self.input_shapes.get("data", self.data.shape))


@dataclass(frozen=True)
class Outcome:
    """What a backend did with a Request."""

    output: np.ndarray | None = None
    error: str | None = None  # the implementation refused the input
    stage: str | None = None  # where: build, compile, infer, validate (or worker for crash/timeout)
    declared_shape: tuple[int | None, ...] | None = None  # inferred before running; None = dynamic dim
    rule: str | None = None  # the rule a rejection names, for backends that say it ('a|b': one of them)
    rule_why: str | None = None  # for rule not_a_rule: what the message is about instead (conformance/rejections)
    crash: str | None = None  # the worker died: signal or exit code
    timeout: float | None = None  # seconds waited
    out_of_memory: str | None = None  # the check ran out of the worker's memory
    adapter_error: str | None = None  # a traceback from our own adapter code
    # An error the run raised and the backend's API did not report (the run returned outputs): found by running the
    # inputs another way (OpenVINO's one-thread inference: conformance/backends/openvino_threads.py)
    unreported_error: str | None = None
    # An output larger than the request allows (Request.max_output_bytes), not sent from the worker: its shape,
    # element type and size in bytes (conformance/run/wire.py); set by the harness, never by a backend.
    withheld: tuple[tuple[int, ...], str, int] | None = None


def target_label(value: str) -> str:
    """A device's or execution provider's part of check ids: ``HETERO:CPU`` -> ``hetero_cpu``,
    ``CUDAExecutionProvider`` -> ``cuda``."""
    return re.sub(r"[^a-z0-9]+", "_", value.removesuffix("ExecutionProvider").lower()).strip("_") or "target"


class Backend:
    """Subclass this; see conformance/backends/local.py for a complete small example."""

    name: ClassVar[str]
    package: ClassVar[str | None] = None  # the distribution whose version is reported
    ops: ClassVar[frozenset[str]] = frozenset({"broadcast"})  # the ops it runs
    # Its path axes (conformance/run/paths.py). A simple backend may give ``variants`` instead: one axis
    # "variant", each value running the Broadcast version it maps to (0, 1 or 3).
    axes: ClassVar[tuple[Axis, ...]] = ()
    variants: ClassVar[dict[str, int]] = {}
    dtypes: ClassVar[frozenset[str]]  # element types (conformance.data.DTYPES names) it takes
    unsupported: ClassVar[dict[str, str]] = {}  # element type it does not take -> why (else a generic reason)
    # Modules a worker process imports before its first check (its forkserver does, once): the runtime's own
    # package and the backend's own module, so that a worker replacing one that crashed, or one forked to confirm
    # a failing check, is ready at once (a built-in backend's module imported in each fresh worker cost ~200 ms).
    preload: ClassVar[tuple[str, ...]] = ()
    # Where a check runs (OpenVINO's device, ONNX Runtime's execution provider), for a backend that can run on more
    # than one: an axis whose only value is its default (the CPU); a run adds others (--device, --provider:
    # ``add_targets``). Not among ``axes``: every path a run takes of a case is taken on each of its values
    # (conformance/run/plan.py ``targeted``), so that a device's checks are the CPU's, check by check; a value the
    # machine does not have is not applicable there, with the reason (``target_absent``).
    target: ClassVar[Axis | None] = None

    def path_axes(self) -> tuple[Axis, ...]:
        return self.axes or (Axis("variant", tuple(self.variants)),)

    def target_axis(self) -> Axis | None:
        """The target axis with the values this run added."""
        added: Axis | None = self.__dict__.get("_target")
        return added or self.target

    def all_axes(self) -> tuple[Axis, ...]:
        """Every axis a check's path has: the path axes, then the target axis."""
        target = self.target_axis()
        return (*self.path_axes(), target) if target is not None else self.path_axes()

    def add_targets(self, values: Iterable[str]) -> None:
        """Add values to the target axis (ValueError: the backend has none). An added value is swept over every
        element type, as the default is: asked for, it is run as the default is."""
        axis = self.target_axis()
        if axis is None:
            raise ValueError(f"backend {self.name} has no device or execution provider to choose")
        values = tuple(dict.fromkeys((*axis.values, *(v.strip() for v in values))))
        labels = {v: axis.labels.get(v) or target_label(v) for v in values}
        self.__dict__["_target"] = replace(axis, values=values, labels=labels, swept=values)

    def target_absent(self, value: str) -> str | None:
        """Why a value of the target axis cannot run on this machine (absent here), or None. Asked in the harness."""
        return None

    def targets(self) -> dict[str, str | None]:
        """Each value of the target axis this run takes, with the reason it is absent here (or None: it runs)."""
        axis = self.target_axis()
        if axis is None:
            return {}
        # asked once a value; never of the default: where the backend runs at all (if it cannot, unavailable() says)
        absent: dict[str, str | None] = self.__dict__.setdefault("_absent", {axis.default: None})
        return {value: absent[value] if value in absent else absent.setdefault(value, self.target_absent(value))
                for value in axis.values}

    def targeted(self, path: Path) -> list[tuple[Path, str | None]]:
        """The path on each value of the target axis, each with the reason it is absent here (or None)."""
        axis = self.target_axis()
        if axis is None or not path:
            return [(path, None)]
        return [((*path, (axis.name, value)), why) for value, why in self.targets().items()]

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

    def op_version(self, path: Path, op: str = DEFAULT_OP) -> int | None:
        """The version of the op a path runs (Broadcast: 0, 1 or 3), where a case says which versions it
        applies to; None: any."""
        variant = dict(path).get("variant")
        return self.variants.get(variant) if variant is not None else None

    def paths_for(self, case: Case, every: bool = False) -> dict[Path, str | None]:
        """Each path that applies to the case, with None or the reason it is not applicable. ``{(): reason}``:
        the backend cannot express the case at all (one not-applicable check); empty: nothing to say. A backend
        that leaves out some of its paths to keep a default run short (a coverage policy of its own) takes every
        path that can exist when ``every`` is set (``--paths all``)."""
        if case.op not in self.ops:
            return {(): f"{self.name} does not run op {case.op}"}
        versions = get_op(case.op).versions(case.params)
        return {path: None for path in self._every_path
                if not versions or self.op_version(path, case.op) in versions}

    @cached_property
    def _every_path(self) -> tuple[Path, ...]:
        """The product of the axes' values, made once per backend object."""
        return tuple(every_path(self.path_axes()))

    def chooses_paths(self) -> bool:
        """``paths_for`` already applies the backend's own choice of paths for a default run, to every group of cases
        (the ONNX backends' pairwise choice over their axes): the default run then takes each of them, instead of
        choosing again among them by the case's group (conformance/run/paths.py ``covering``)."""
        return False

    def fed_at_run_time(self, path: Path) -> bool:
        """The path feeds the shape inputs at run time, not when the model is built."""
        return False

    def why_not(self, case: Case, path: Path, dtype: str) -> str | None:
        if dtype not in self.dtypes:
            return self.unsupported.get(dtype, f"{self.name} does not take element type {dtype}")
        op_reason = get_op(case.op).type_reason(case.params, self.op_version(path, case.op), dtype)
        if op_reason:
            return op_reason
        if case.dynamic and not case.valid and self.fed_at_run_time(path):
            return ("a declared-shape check of an invalid input: with target_shape fed at run time, nothing "
                    "before running can know it breaks a rule")
        return None

    def shape_type_rule(self, path: Path, shape_dtype: str) -> str | None:
        """A rule of this backend's op that rejects shape inputs of this integer type, which the spec allows
        (T_SHAPE: any integer type); None if the type is fine."""
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
        described: dict[str, Any] = {"version": self.version(), "available": reason is None, "reason": reason,
                                     "axes": {a.name: list(a.values) for a in self.all_axes()}}
        hardware = self.hardware() if reason is None else ()
        if hardware:
            described["hardware"] = list(hardware)
        targets = self.targets() if reason is None else {}
        if targets:
            described["targets"] = {"axis": self.all_axes()[-1].name, "values": targets}
        return described
