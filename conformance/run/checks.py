"""From cases to checks: which (backend, variant, dtype) each case runs on, and how one check is judged.

This module knows nothing of pytest; conformance/plugin.py turns each Check into a test item.
"""

from __future__ import annotations

import math
import shlex
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

import reference
from conformance import verdicts as v
from conformance.backends import Backend, Outcome, Request
from conformance.cases import GENERATED, Case, as_yaml_dims
from conformance.compare import judge
from conformance.data import DEFAULT_REJECT_SWEEP, DEFAULT_SWEEP, DTYPES, SHAPE_GROUPS, SHAPE_SWEEP, make_data
from conformance.known import Known, explaining, find
from conformance.verdicts import FAILING

OP_NAMES = {0: "nGraph Broadcast", 1: "Broadcast-1", 3: "Broadcast-3"}
DEFAULT_BUDGET = 256 * 2**20  # bytes of output above which a check is shape-only


@dataclass(frozen=True)
class Check:
    case: Case
    backend: str  # the backend's name
    backend_ref: str  # what a worker loads: a built-in name or module:Class
    variant: str | None  # None: the backend cannot express the case at all
    dtype: str | None
    version: int | None = None  # the op version the variant runs: 0, 1 or 3
    not_applicable: str | None = None
    shape_dtype: str = "i64"  # the integer type of target_shape and axes_mapping (T_SHAPE)
    # A rule of the backend's own op that rejects an input the Broadcast spec accepts (ONNX Expand's shape
    # input is int64 only): the check then expects that rejection.
    backend_rule: str | None = None

    @property
    def expect_reject(self) -> str | None:
        return self.backend_rule or self.case.expect_reject

    @property
    def shape_part(self) -> str | None:
        return None if self.shape_dtype == "i64" else f"shape_{self.shape_dtype}"

    @property
    def part(self) -> str:
        """What names the check among the checks of its case: backend-variant-dtype[-shape_<type>]."""
        return "-".join([self.backend] + [p for p in (self.variant, self.dtype, self.shape_part) if p])

    @property
    def name(self) -> str:
        return f"{self.case.id}[{self.part}]"

    def context(self) -> str:
        op = OP_NAMES.get(self.version, "Broadcast") if self.version is not None else "Broadcast"
        where = " ".join(p for p in (self.backend, self.variant, self.dtype, self.shape_part) if p)
        return f"[{op} {self.case.summary()} @ {where}]"


def dtypes_for(case: Case, selected: tuple[str, ...] | None) -> list[str]:
    # A declared shape does not depend on the element type: one is enough for a case with "?" dimensions.
    if case.dtypes:
        sweep = case.dtypes
    elif not case.valid or case.dynamic:
        sweep = DEFAULT_REJECT_SWEEP
    else:
        sweep = SHAPE_SWEEP if case.group in SHAPE_GROUPS else DEFAULT_SWEEP
    return [d for d in sweep if selected is None or d in selected]


def plan(case: Case, backend: Backend, backend_ref: str, dtypes: tuple[str, ...] | None) -> list[Check]:
    """Every check of one case on one backend, including not-applicable ones (they are reported)."""
    variants = backend.variants_for(case)
    if len(variants) == 1 and next(iter(variants.values())) is not None:
        (variant, reason), = variants.items()
        return [Check(case, backend.name, backend_ref, None, None, None, reason)]
    checks = []
    for variant, reason in variants.items():
        for dtype in dtypes_for(case, dtypes):
            why = reason or backend.why_not(case, variant, dtype)
            for shape_dtype in case.shape_dtypes:
                checks.append(Check(case, backend.name, backend_ref, variant, dtype, backend.variants[variant], why,
                                    shape_dtype, backend.shape_type_rule(variant, shape_dtype)))
    return checks


def shape_only(case: Case, dtype: str, budget: int) -> bool:
    """A check that only declares: its case has "?" dimensions, or its output would exceed the budget."""
    return case.dynamic or materialised_bytes(case, dtype) > budget


def materialised_bytes(case: Case, dtype: str) -> int:
    """The bytes the harness would allocate for a check: its input, and the reference output of a valid case.
    Exact integer arithmetic, so a target of 2**62 elements is a number, not an allocation; a 0 dimension
    counts as 1 (see nominal_bytes), so an empty output of a shape numpy cannot hold is shape-only too. (A
    case that must be rejected has no reference output; a backend that accepts it anyway is held by the
    worker's memory limit.)"""
    return max(nominal_bytes(case.data_shape, dtype), nominal_bytes(case.expect_shape or (), dtype))


def nominal_bytes(shape: Any, dtype: str) -> int:
    """The bytes of an array of that shape, counting a 0 dimension as 1: numpy refuses a shape whose
    nominal size overflows (such as (2**62, 0) of int64) even when it holds no element."""
    return math.prod(max(d, 1) for d in shape) * DTYPES[dtype].itemsize


def request_for(check: Check, data: np.ndarray, shape_only: bool = False) -> Request:
    case = check.case
    shape_type = DTYPES[check.shape_dtype]
    axes = None if case.axes_mapping is None else np.asarray(case.axes_mapping, dtype=shape_type)
    return Request(mode=case.mode, variant=check.variant or "", data=data,
                   target_shape=np.asarray(case.target_shape, dtype=shape_type), axes_mapping=axes,
                   shape_only=shape_only, data_shape=tuple(case.data_shape))


def expectation(case: Case, version: int, data: np.ndarray) -> np.ndarray | None:
    """The reference output for a valid case (None for one that must be rejected)."""
    if not case.valid:
        return None
    if version == 0:
        mapped = set(case.axes_mapping or [])
        added = [i for i in range(len(case.target_shape)) if i not in mapped]
        return reference.broadcast_v0(data, case.target_shape, added)
    return reference.broadcast(data, case.target_shape, case.axes_mapping, case.mode)


def rerun_command(nodeid: str, check: Check | None = None) -> str:
    """The command that reruns the test item ``nodeid``, or just one of its checks."""
    only = f" --check {shlex.quote(check.part)}" if check is not None else ""
    return f"python -m pytest {shlex.quote(nodeid)}{only}"


def result_record(check: Check, check_id: str, backend_version: str | None, rerun: str | None = None) -> dict[str, Any]:
    case = check.case
    return {"id": check_id, "case": case.id, "backend": check.backend, "backend_version": backend_version,
            "variant": check.variant or "", "dtype": check.dtype or "", "shape_dtype": check.shape_dtype,
            "verdict": None, "message": None,
            "expected": ({"shape": as_yaml_dims(case.expect_shape or ()), "dtype": check.dtype}
                         if check.expect_reject is None else {"reject": check.expect_reject}),
            "actual": None, "first_diff": None, "known": None, "duration": 0.0,
            "rerun": rerun or rerun_command(check_id)}


def actual_json(outcome: Outcome) -> dict[str, Any]:
    out = outcome.output
    return {"shape": None if out is None else list(out.shape), "dtype": None if out is None else str(out.dtype),
            "declared_shape": None if outcome.declared_shape is None else list(outcome.declared_shape),
            "error": outcome.error or outcome.crash or outcome.out_of_memory or outcome.adapter_error
            or (f"timeout after {outcome.timeout:g} s" if outcome.timeout else None),
            "stage": outcome.stage}


def execute(check: Check, run: Any, known: list[Known], record: dict[str, Any],
            budget: int = DEFAULT_BUDGET) -> tuple[str, str | None]:
    """Run one applicable check through ``run(backend_ref, request) -> Outcome`` and judge it. A check whose
    output would exceed ``budget`` bytes is shape-only: nothing is allocated, the backend declares a shape.

    ``run`` may have come from a model shared with other checks; if it did and the check fails,
    ``run.again_alone(backend_ref, request)`` recomputes it on a model of its own, and that outcome decides:
    a verdict never depends on which checks shared a model.

    Fills ``record`` and returns (pytest outcome, message): "passed", "failed", "xfailed" or "skipped".
    """
    assert check.variant is not None and check.dtype is not None and check.version is not None
    start = time.perf_counter()
    case = check.case
    declare_only = shape_only(case, check.dtype, budget)
    if declare_only:
        data, expected = np.empty((0,), DTYPES[check.dtype]), None
    else:
        data = make_data(case.data_shape, DTYPES[check.dtype])
        expected = None if check.backend_rule else expectation(case, check.version, data)
    request = request_for(check, data, declare_only)
    result = _judged(check, run(check.backend_ref, request), expected, declare_only, known, record, start)
    record["model"] = "shared" if getattr(run, "shared", False) else "own"
    again_alone = getattr(run, "again_alone", None)
    if result[0] == "failed" and again_alone is not None:
        alone = again_alone(check.backend_ref, request)
        if alone is not None:
            result = _judged(check, alone, expected, declare_only, known, record, start)
            record["model"] = "shared, then own"
    return result


def _judged(check: Check, outcome: Outcome, expected: np.ndarray | None, declare_only: bool, known: list[Known],
            record: dict[str, Any], start: float) -> tuple[str, str | None]:
    """The verdict on an outcome, with the known difference that explains it, if any: into ``record``."""
    assert check.variant is not None and check.dtype is not None
    case = check.case
    verdict = judge(expected, check.expect_reject, outcome, shape_only=declare_only,
                    expected_shape=None if check.backend_rule else case.expect_shape, partial=case.dynamic)
    record.update(verdict=verdict.verdict, message=verdict.message, actual=actual_json(outcome), known=None,
                  first_diff=verdict.first_diff, duration=round(time.perf_counter() - start, 4))
    if expected is not None:
        record["expected"] = {"shape": list(expected.shape), "dtype": str(expected.dtype)}
    if case.group == GENERATED:  # no name to list: an entry explains it by the traits of its inputs
        entry = explaining(known, case, check.variant, check.dtype, record["backend_version"], check.shape_dtype,
                           verdict.verdict)
    else:
        entry = find(known, case.id, check.variant, check.dtype, record["backend_version"], check.shape_dtype)
    context = check.context()
    if entry is not None:
        record["known"] = entry.to_json()
        if verdict.verdict == entry.verdict:
            record["verdict"] = v.KNOWN
            return "xfailed", f"known difference {entry.id}: {entry.reason} ({entry.link or 'reproducer given'})"
        record["message"] = (f"known difference {entry.id} ({entry.where}) expects {entry.verdict}, "
                             f"but the check gave {verdict.verdict}: {verdict.message or 'pass'}. "
                             "Update or remove the entry.")
        record["verdict"] = v.ERROR if verdict.verdict == v.PASS else verdict.verdict
        return "failed", f"{record['message']} {context}"
    if verdict.verdict in FAILING:
        return "failed", f"{verdict.verdict}: {verdict.message} {context}"
    if verdict.verdict == v.NOT_APPLICABLE:
        return "skipped", f"not applicable: {verdict.message}"
    return "passed", None
