"""Running one check and judging it: its inputs, the request a worker runs, the reference's expectation, the
known difference that describes it, and its record.

Where a check's outcome comes from is a ``Runner``'s business (conformance/run/batching.py): a model of its own,
or one shared with other checks, in the backend's worker process. No verdict depends on what else ran: an
outcome that fails (a known difference too) and was not computed in a fresh worker on a model of its own is
computed again so, in a worker that has run nothing before it, and that outcome decides (a check a known
difference describes goes there at once). Nothing runs after a failure in its worker: the worker whose outcome
failed is replaced, and the outcomes computed together with it in one shared model are computed again, so a
runtime that leaves its process in a state that hides a later bug (a changed floating-point mode) cannot make a
later check pass; the record says how the deciding outcome was computed (``model``:
"own", "shared", "own, fresh worker", "own, then fresh worker", "shared, then fresh worker", and "shared, also own" for
the deterministic sample of passing shared checks that are computed on a model of their own as well, to catch a
backend whose shared and lone runs disagree).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np

from conformance import known as known_mod
from conformance import ops
from conformance import verdicts as v
from conformance.backends import Outcome, Request
from conformance.cases import as_yaml_dims
from conformance.data import DTYPES, make_data, salt
from conformance.judge import Expectation, Judgement, judge, plain_array
from conformance.known.near import nearest
from conformance.rejections import classified
from conformance.results.record import Actual, CheckRecord, Expected, FirstDiff
from conformance.run import contexts
from conformance.run.plan import DEFAULT_BUDGET, Check, shape_only

# One passing shared check in SAMPLE_ALONE is computed again on a model of its own (a deterministic sample, by a
# hash of its name): a backend whose run_many and run disagree is caught in a default run.
SAMPLE_ALONE = 64  # ~780 checks a default run, ~20 s of summed check time (openvino 50-70 ms each alone)


def sampled_alone(check_name: str) -> bool:
    """A passing shared check that is computed alone as well (the same checks in every run)."""
    digest = hashlib.blake2b(check_name.encode(), digest_size=8).digest()  # crc32 is linear: names that differ
    return int.from_bytes(digest, "big") % SAMPLE_ALONE == 0  # only in their type fell in or out together


class Runner(Protocol):
    """Where outcomes come from: ``outcome`` gives a check's outcome and how it was computed ("own", "shared",
    "own, fresh worker"); ``fresh`` computes it again on a model of its own in a worker that has run nothing
    before it; ``doubt`` says that the check's outcome from ``outcome`` failed: the worker that computed it, and
    every outcome computed with it and not yet judged, are in doubt, and nothing more is taken from them."""

    def outcome(self, check: Check, request: Request) -> tuple[Outcome, str]: ...

    def fresh(self, check: Check, request: Request, timeout: float | None = None) -> Outcome: ...

    def doubt(self, check: Check) -> None: ...

    def alone(self, check: Check, request: Request) -> Outcome: ...


@dataclass(frozen=True)
class Prepared:
    request: Request
    expect: Expectation


def prepare(check: Check, budget: int = DEFAULT_BUDGET, with_expected: bool = True) -> Prepared:
    """The request a worker runs for an applicable check, and what the spec prescribes for it (the reference's
    output only ``with_expected``: a check sent ahead in a batch is judged later, prepared again). A check whose
    output would exceed ``budget`` bytes is shape-only: nothing is allocated, the backend declares a shape."""
    assert check.path is not None and check.dtype is not None
    case = check.case
    op = ops.get(case.op)
    declare_only = shape_only(case, check.dtype, budget)
    dtype = DTYPES[check.dtype]
    shapes = op.data_shapes(case.params)
    case_salt = salt(op.to_json(case.params))
    if op.make_inputs is not None and not declare_only:  # values of the op's own (elementwise functions)
        data = op.make_inputs(case.params, check.dtype, case_salt, check.version)
    else:
        data = {name: np.empty((0,), dtype) if declare_only else make_data(shape, dtype, case_salt)  # type: ignore[arg-type]
                for name, shape in shapes.items()}
    expected = None
    if with_expected and not declare_only and check.backend_rule is None and case.valid:
        expected = contexts.compose(check.path_dict, op.expected(case.params, data, check.version))
    request = Request(op=case.op, path=check.path_dict, inputs={**data, **op.shape_inputs(case.params,
                                                                                           DTYPES[check.shape_dtype])},
                      attrs=op.attributes(case.params), shape_only=declare_only, input_shapes=shapes,
                      variant=check.variant, max_output_bytes=budget)
    return Prepared(request, Expectation(expected, None if check.backend_rule else case.expect_shape,
                                         check.expect_reject, declare_only, case.dynamic))


def record_for(check: Check, check_id: str, version: str | None, rerun: str) -> CheckRecord:
    """A check's record before it is judged: what it is and what it expects."""
    case = check.case
    expected = (Expected(shape=as_yaml_dims(case.expect_shape or ()), dtype=check.dtype)
                if check.expect_reject is None else Expected(reject=check.expect_reject))
    return CheckRecord(id=check_id, case=case.id, op=case.op, backend=check.backend, backend_version=version,
                       path=check.path_dict, variant=check.variant, dtype=check.dtype or "",
                       shape_dtype=check.shape_dtype, verdict=v.ERROR, expected=expected, rerun=rerun)


def actual_of(outcome: Outcome) -> Actual:
    out = plain_array(outcome.output)
    return Actual(shape=None if out is None else list(out.shape), dtype=None if out is None else str(out.dtype),
                  declared_shape=None if outcome.declared_shape is None else list(outcome.declared_shape),
                  error=outcome.error or outcome.crash or outcome.out_of_memory or outcome.adapter_error
                  or (f"timeout after {outcome.timeout:g} s" if outcome.timeout else None),
                  stage=outcome.stage, rule=outcome.rule)


def fill(record: CheckRecord, judgement: Judgement, outcome: Outcome | None = None,
         expected: np.ndarray | None = None) -> CheckRecord:
    record.verdict, record.message = judgement.verdict, judgement.message
    record.first_diff = None if judgement.first_diff is None else FirstDiff.from_json(judgement.first_diff)
    record.known = None if judgement.known is None else judgement.known.to_json()
    if outcome is not None:
        record.actual = actual_of(outcome)
    if expected is not None:
        record.expected = Expected(shape=list(expected.shape), dtype=str(expected.dtype))
    return record


def execute(check: Check, runner: Runner, known: list[known_mod.Known], record: CheckRecord,
            budget: int = DEFAULT_BUDGET) -> CheckRecord:
    """Run one applicable check and judge it, into its record."""
    start = time.perf_counter()
    prepared = prepare(check, budget)
    facts = known_mod.Facts(check.case, check.dtype or "", check.shape_dtype, check.path or (), check.variant,
                            record.backend_version, prepared.request.shape_only)
    entry = known_mod.find(known, facts)
    def judged(outcome: Outcome) -> tuple[Outcome, Judgement]:
        """Every outcome is judged here, its rejection classified first (conformance/rejections). An outcome whose
        run raised an error the backend did not report is looked up again with that fact (an entry may name it)."""
        outcome = classified(outcome, record.backend)
        if not outcome.unreported_error:
            return outcome, judge(prepared.expect, outcome, known=entry)
        found = known_mod.find(known, replace(facts, unreported_error=True))
        judgement = judge(prepared.expect, outcome, known=found)
        return outcome, replace(judgement, message=f"{judgement.message or 'pass'}; the run raised an error it did "
                                                   f"not report: {outcome.unreported_error.strip()}")

    if entry is not None:  # expected to differ from the spec: only a fresh worker's outcome can decide
        # a known hang is given its entry's timeout, not the run's
        (outcome, judgement), model = judged(runner.fresh(check, prepared.request, entry.timeout)), "own, fresh worker"
    else:
        shared, model = runner.outcome(check, prepared.request)
        outcome, judgement = judged(shared)
    if model == "shared" and judgement.verdict == v.PASS and sampled_alone(check.name):
        # does the backend's run agree with its run_many?
        alone, alone_judgement = judged(runner.alone(check, prepared.request))
        if alone_judgement.verdict == v.PASS:
            model = "shared, also own"
        else:  # the model of its own decides, through the failure's road below
            outcome, judgement, model = alone, alone_judgement, "own"
    if entry is None and (judgement.verdict in v.FAILING or judgement.verdict == v.KNOWN or outcome.unreported_error):
        # (a known difference before the run needs an entry; one found after it, by what the run did, is confirmed;
        # a run that raised an error unreported leaves its process in doubt, even where its output passed)
        runner.doubt(check)  # no check runs after a failure in its worker
        if model != "own, fresh worker":
            (outcome, judgement), model = judged(runner.fresh(check, prepared.request)), f"{model}, then fresh worker"
    fill(record, judgement, outcome, prepared.expect.output)
    if entry is None and judgement.verdict in v.FAILING:  # a new failure: which known bug does it look like?
        record.looks_like = nearest(known, facts, judgement.verdict) or None
    record.model, record.duration = model, round(time.perf_counter() - start, 4)
    return record
