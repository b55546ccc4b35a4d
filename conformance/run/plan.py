"""From cases to checks: a check is a case on one backend, on one of its paths, for one element type and one
integer type of the shape inputs. This module knows nothing of pytest or of running a check."""

from __future__ import annotations

import functools
import inspect
import math
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from conformance import ops
from conformance.backends import Backend
from conformance.cases import Case
from conformance.data import DEFAULT_REJECT_SWEEP, DEFAULT_SWEEP, DTYPES, SHAPE_GROUPS, SHAPE_SWEEP
from conformance.run import paths
from conformance.run.paths import Path

DEFAULT_BUDGET = 256 * 2**20  # bytes of output above which a check is shape-only


@dataclass(frozen=True)
class Check:
    case: Case
    backend: str  # the backend's name
    backend_ref: str  # what a worker loads: a built-in name or module:Class
    path: Path | None  # None: the backend cannot express the case at all
    variant: str  # the path's label in check ids ("" for none)
    dtype: str | None
    version: Any = None  # the op version the path runs (Broadcast: 0, 1 or 3; elementwise: the function)
    not_applicable: str | None = None
    shape_dtype: str = "i64"  # the integer type of the shape inputs (T_SHAPE)
    # A rule of the backend's own op that rejects an input the spec accepts (ONNX Expand's shape input is int64
    # only): the check then expects that rejection.
    backend_rule: str | None = None

    @property
    def expect_reject(self) -> str | None:
        """The rule a rejection must follow; where the input breaks a rule of the spec and the backend's own rule
        too (a 2-D shape of int8 for ONNX Expand), either: ``spec_rule|backend_rule (why)``."""
        if self.backend_rule and self.case.expect_reject:
            return f"{self.case.expect_reject}|{self.backend_rule}"
        return self.backend_rule or self.case.expect_reject

    @property
    def shape_part(self) -> str | None:
        return None if self.shape_dtype == "i64" else f"shape_{self.shape_dtype}"

    @property
    def part(self) -> str:
        """What names the check among the checks of its case: backend-path-dtype[-shape_<type>]."""
        return "-".join([self.backend] + [p for p in (self.variant, self.dtype, self.shape_part) if p])

    @property
    def name(self) -> str:
        return f"{self.case.id}[{self.part}]"

    @property
    def path_dict(self) -> dict[str, str]:
        return dict(self.path or ())

    def context(self) -> str:
        where = " ".join(p for p in (self.backend, paths.describe(self.path or ()), self.dtype, self.shape_part)
                         if p)
        return f"[{ops.get(self.case.op).label(self.version)} {self.case.summary()} @ {where}]"


def dtypes_for(case: Case, selected: tuple[str, ...] | None, version: Any = None) -> list[str]:
    # A declared shape does not depend on the element type: one is enough for a case with "?" dimensions.
    op_sweep = ops.get(case.op).sweep
    if case.dtypes:
        sweep = case.dtypes
    elif op_sweep is not None:  # an op whose versions take types of their own (elementwise functions)
        sweep = op_sweep(case.params, case.valid, version)
    elif not case.valid or case.dynamic:
        sweep = DEFAULT_REJECT_SWEEP
    else:
        sweep = SHAPE_SWEEP if case.group in SHAPE_GROUPS else DEFAULT_SWEEP
    return [d for d in sweep if selected is None or d in selected]


def plan(case: Case, backend: Backend, backend_ref: str, dtypes: tuple[str, ...] | None,
         selection: Mapping[str, set[str]] | None = None, every_path: bool = False,
         extras: Mapping[tuple[str, Path], frozenset[str]] | None = None) -> list[Check]:
    """Every check of one case on one backend, including not-applicable ones (they are reported): on the paths
    the case's group covers (conformance/run/paths.py ``covering``; ``every_path``: all of them), and of those
    only the ones ``selection`` selects (``--path AXIS=VALUE``). ``extras``: element types a path that is not
    swept in full takes besides its sampled ones (``type_coverage``)."""
    applicable = backend.paths_for(case, every=True) if every_path and _takes_every(type(backend)) else \
        backend.paths_for(case)
    if () in applicable:
        return [Check(case, backend.name, backend_ref, None, "", None, None, applicable[()])]
    checks = []
    for path, reason, variant, sweep, picked in _paths_and_types(case, backend, applicable, dtypes, every_path):
        if selection and not paths.selected(path, selection):
            continue
        version = backend.op_version(path, case.op)
        if picked is not None:
            extra = (extras or {}).get((case.id, path), frozenset())
            sweep = [d for d in sweep if d in picked or d in extra]
        for dtype in sweep:
            why = reason or backend.why_not(case, path, dtype)
            for shape_dtype in case.shape_dtypes:
                checks.append(Check(case, backend.name, backend_ref, path, variant, dtype, version, why,
                                    shape_dtype, backend.shape_type_rule(path, shape_dtype)))
    return checks


def _paths_and_types(case: Case, backend: Backend, applicable: Mapping[Path, str | None],
                     dtypes: tuple[str, ...] | None, every_path: bool
                     ) -> Iterator[tuple[Path, str | None, str, list[str], list[str] | None]]:
    """Each path a run takes of the case's applicable ones, with its reason (or None), label, the case's sweep of
    element types and, where the path is not swept in full, the types it samples (``sampled``; None: every type)."""
    axes, labelled = backend.path_axes(), backend.all_axes()
    for chosen in paths.covering(list(applicable), case.group, every_path or backend.chooses_paths(), axes):
        for path, absent in backend.targeted(chosen):  # on each device or execution provider of the run
            reason, variant = applicable[chosen] or absent, paths.label(labelled, path)
            sweep = dtypes_for(case, dtypes, backend.op_version(path, case.op))
            picked = None
            if not every_path and not paths.swept(labelled, path) and not case.dtypes:
                # the types sampled on the path without its target: a device takes the CPU's, check by check
                picked = sampled(case, paths.label(axes, chosen), sweep,
                                 functools.partial(_why_not, backend, case, path, reason))
            yield path, reason, variant, sweep, picked


@functools.cache
def _takes_every(backend_class: type) -> bool:
    """A backend's ``paths_for`` takes ``every`` (a plug-in written before it existed may not)."""
    return "every" in inspect.signature(backend_class.paths_for).parameters


# Element types a case's sweep takes on a path that is not swept in full (``paths.swept``: the paths as they were
# before newer axes) in a default run; ``--paths all`` sweeps every path.
SAMPLED_TYPES = 3


def _why_not(backend: Backend, case: Case, path: Path, reason: str | None, dtype: str) -> str | None:
    return reason or backend.why_not(case, path, dtype)


def sampled(case: Case, variant: str, sweep: list[str], why_not: Callable[[str], str | None]) -> list[str]:
    """SAMPLED_TYPES of the sweep's element types that the path can take, picked by a hash of the case, the path
    and the type (so that the cases of a group take every type on every path between them, and a check's
    presence depends on nothing but itself); every type where the path can take none (each not applicable)."""
    usable = [d for d in sweep if why_not(d) is None]
    if not usable or len(usable) <= SAMPLED_TYPES:
        return usable or sweep
    picked = set(sorted(usable, key=lambda d: zlib.crc32(f"{case.id}|{variant}|{d}".encode()))[:SAMPLED_TYPES])
    return [d for d in usable if d in picked]


def type_coverage(cases: Iterable[Case], backend: Backend, dtypes: tuple[str, ...] | None = None
                  ) -> dict[tuple[str, Path], frozenset[str]]:
    """The element types to add to the sampled ones so that in each group of cases, every (path axis value, element
    type) pair that some case of the group can take on a path of a default run is taken by at least one check. The
    sampled types (``sampled``) and the swept paths cover most; each pair they miss goes to the first case (in the
    order given: the files' order) and path that can take it. Computed over every case of a run before it is
    sharded, so a check's presence does not depend on the shard. Keys: (case id, path)."""
    covered: set[tuple[str, str, str, str]] = set()
    candidates: list[tuple[Case, Path, list[str]]] = []
    for case in cases:
        applicable = backend.paths_for(case)
        if () in applicable:
            continue
        for path, reason, _, sweep, picked in _paths_and_types(case, backend, applicable, dtypes, False):
            usable = [d for d in sweep if _why_not(backend, case, path, reason, d) is None]
            if picked is None:
                taken = usable
            else:
                taken = picked
                candidates.append((case, path, usable))
            covered.update((case.group, axis, value, d) for axis, value in path for d in taken)
    extras: dict[tuple[str, Path], set[str]] = {}
    for case, path, usable in candidates:
        for d in usable:
            pairs = {(case.group, axis, value, d) for axis, value in path}
            if not pairs <= covered:
                extras.setdefault((case.id, path), set()).add(d)
                covered |= pairs
    return {key: frozenset(types) for key, types in extras.items()}


def met_on_every_path(entries: list[Any], cases: Iterable[Case], backend: Backend, version: str | None,
                      budget: int) -> set[str]:
    """The ids of those known-difference ``entries`` of ``backend`` whose conditions (the verdict aside) some
    check of ``--paths all`` on these cases meets: a default run, which takes some paths of a case only, can
    leave an entry unmatched that such a check would show; one that none would meet describes no check at all."""
    from conformance import known as known_mod  # known imports this module's shape_only

    left, met = list(entries), set()
    for case in cases:
        for check in plan(case, backend, backend.name, None, every_path=True):
            if check.not_applicable is not None or check.path is None or check.dtype is None:
                continue
            facts = known_mod.Facts(case, check.dtype, check.shape_dtype, check.path, check.variant, version,
                                    shape_only(case, check.dtype, budget))
            found = {k.id for k in known_mod.candidates(left, facts) if all(t(facts) for t in k.tests[1])}
            if found:  # the rest are looked for in the checks to come
                met |= found
                left = [k for k in left if k.id not in found]
                if not left:
                    return met
    return met


def shape_only(case: Case, dtype: str, budget: int) -> bool:
    """A check that only declares: its case has "?" dimensions, or its output would exceed the budget. An output
    with no element runs, however large its other dimensions (a runtime must compute its shape at run time too),
    unless numpy cannot hold an array of its shape (the product of its other dimensions past the address space,
    e.g. (2**62, 0) of any type): the runtimes' Python APIs give and take numpy arrays."""
    if case.dynamic:
        return True
    if materialised_bytes(case, dtype) <= budget:
        return False
    return not (case.valid and case.expect_shape is not None and 0 in case.expect_shape
                and all(holdable(s, dtype, budget) for s in [*ops.get(case.op).data_shapes(case.params).values(),
                                                             case.expect_shape]))


def holdable(shape: Any, dtype: str, budget: int) -> bool:
    """The harness makes an array of this shape: one with elements within the budget; one with none if numpy
    can (its nominal bytes, a 0 counted as 1, within a signed pointer-sized integer)."""
    return nominal_bytes(shape, dtype) < (2**63 if 0 in shape else budget + 1)


def materialised_bytes(case: Case, dtype: str) -> int:
    """The bytes the harness would allocate for a check: its data inputs, and the reference output of a valid
    case. Exact integer arithmetic, so a target of 2**62 elements is a number, not an allocation; a 0 dimension
    counts as 1 (see nominal_bytes), so an empty output of a shape numpy cannot hold is shape-only too. (A
    case that must be rejected has no reference output; a backend that accepts it anyway is held by the
    worker's memory limit.)"""
    shapes: list[Any] = list(ops.get(case.op).data_shapes(case.params).values())
    return max(nominal_bytes(s, dtype) for s in [*shapes, case.expect_shape or ()])


def nominal_bytes(shape: Any, dtype: str) -> int:
    """The bytes of an array of that shape, counting a 0 dimension as 1: numpy refuses a shape whose
    nominal size overflows (such as (2**62, 0) of int64) even when it holds no element."""
    return math.prod(max(d or 1, 1) for d in shape) * DTYPES[dtype].itemsize
