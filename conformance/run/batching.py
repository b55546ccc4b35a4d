"""Sharing work among checks: the checks of several cases on one backend go to the worker in one call.

When a check runs and no outcome is waiting for it, the Batcher sends it together with other checks this
process is about to run on the same backend (those of its test item, then of the next items of that backend,
conformance/plugin.py) that have not run yet, that are expected to produce an output (a valid case, no recorded
crash or rejection for them) and are small, up to MAX_BATCH; the backend may run them all in one model
(``Backend.run_many``: compiling is most of a check's cost, about 10 ms a model and 0.7 ms a node more). Each
check is still judged on its own, against its own reference output, when its own item runs.

No verdict depends on which checks shared a model: a batch that fails as a whole runs its checks one by one,
and a check whose outcome from a shared model fails is run again on a model of its own (``again_alone``),
exactly as with ``--uncached``, and that outcome decides. (OpenVINO's CPU plugin fills the output of a
bidirectional Broadcast of rank 7 or more with a run-time target with uninitialised memory when a rank-6 one
comes before it in the same model: ~100 checks a run, each right alone, and so is its verdict. Reproduced with
two nodes in tests/test_sharing.py::test_openvino_still_miscomputes_a_rank7_broadcast_after_a_rank6_one_in_one_model.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from conformance import verdicts as v
from conformance.backends import Outcome, Request
from conformance.checks import Check, materialised_bytes, request_for, shape_only
from conformance.data import DTYPES, make_data
from conformance.known import Known, find

MAX_BATCH = 64
MAX_BATCH_BYTES = 1 << 20  # a larger check runs alone: a batch should not hold many large arrays at once
# Known differences whose checks still give an output, so they can share a model with others.
OUTPUT_VERDICTS = frozenset({v.WRONG_VALUES, v.WRONG_SHAPE, v.WRONG_DTYPE})


class Batcher:
    def __init__(self, pool: Any, known: dict[str, list[Known]], versions: dict[str, str | None],
                 budget: int, size: int = MAX_BATCH) -> None:
        self.pool = pool
        self.known = known
        self.versions = versions  # backend_ref -> version
        self.budget = budget
        self.size = size
        self.waiting: dict[str, Outcome] = {}  # check name -> outcome computed in a batch
        self.alone: set[str] = set()  # checks whose batch failed: they run one by one
        self.done: set[str] = set()  # checks whose item has run: never computed again in a batch
        self._shareable: dict[str, bool] = {}

    def shareable(self, check: Check, backend_name: str) -> bool:
        """Expected to give an output of modest size (asked of each check several times: remembered)."""
        known = self._shareable.get(check.name)
        if known is None:
            known = self._shareable[check.name] = self._judge_shareable(check, backend_name)
        return known

    def _judge_shareable(self, check: Check, backend_name: str) -> bool:
        if check.not_applicable or check.variant is None or check.dtype is None or check.expect_reject:
            return False
        if shape_only(check.case, check.dtype, self.budget) or materialised_bytes(check.case, check.dtype) > \
                MAX_BATCH_BYTES:
            return False
        entry = find(self.known.get(backend_name, []), check.case.id, check.variant, check.dtype,
                     self.versions.get(check.backend_ref), check.shape_dtype)
        return entry is None or entry.verdict in OUTPUT_VERDICTS

    def runner(self, check: Check, peers: Callable[[], Iterable[Check]]) -> CheckRun:
        """The ``run`` for execute(): this check's outcome from a batch (formed now, with ``peers``: the checks
        this process runs next on the same backend, in order), or from a run of its own."""
        return CheckRun(self, check, peers)

    def run_batch(self, batch: list[Check], request: Request) -> Outcome:
        requests = [request] + [request_for(c, make_data(c.case.data_shape, DTYPES[c.dtype])) for c in batch[1:]]
        outcomes = self.pool.run_batch(batch[0].backend_ref, requests)
        if outcomes is None:
            self.alone.update(c.name for c in batch)
            return self.pool.run(batch[0].backend_ref, request)
        for c, outcome in zip(batch[1:], outcomes[1:], strict=True):
            self.waiting[c.name] = outcome
        return outcomes[0]


class CheckRun:
    """One check's ``run``: from a batch, or alone; and once more alone if the batch's outcome fails."""

    def __init__(self, batcher: Batcher, check: Check, peers: Callable[[], Iterable[Check]]) -> None:
        self.batcher, self.check, self.peers = batcher, check, peers
        self.shared = False

    def __call__(self, backend_ref: str, request: Request) -> Outcome:
        batcher, check = self.batcher, self.check
        batcher.done.add(check.name)
        waiting = batcher.waiting.pop(check.name, None)
        if waiting is not None:
            self.shared = True
            return waiting
        if check.name not in batcher.alone and batcher.shareable(check, check.backend):
            batch = [check]
            for c in self.peers():
                if len(batch) == batcher.size:
                    break
                if c.name not in batcher.done and c.name not in batcher.alone and c.name not in batcher.waiting \
                        and c.backend_ref == check.backend_ref and batcher.shareable(c, c.backend):
                    batch.append(c)
            if len(batch) > 1:
                outcome = batcher.run_batch(batch, request)
                self.shared = check.name not in batcher.alone
                return outcome
        return batcher.pool.run(backend_ref, request)

    def again_alone(self, backend_ref: str, request: Request) -> Outcome | None:
        """The outcome on a model of the check's own, if the last one came from a shared model; else None."""
        if not self.shared:
            return None
        self.shared = False
        return self.batcher.pool.run(backend_ref, request)
