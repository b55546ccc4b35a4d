"""Sharing work among checks: the checks of several cases on one backend go to the worker in one call.

When a check runs and no outcome is waiting for it, the Batcher sends it together with other checks this
process is about to run on the same backend (those of its test item, then of the next items of that backend,
conformance/plugin.py) that have not run yet, that are expected to produce an output that agrees with the
spec (a valid case that no known difference describes) and are small, up to MAX_BATCH; the backend may run
them all in one model
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

from conformance import known as known_mod
from conformance.backends import Outcome, Request
from conformance.run.execute import prepare
from conformance.run.plan import Check, materialised_bytes, shape_only

MAX_BATCH = 64
MAX_BATCH_BYTES = 1 << 20  # a larger check runs alone: a batch should not hold many large arrays at once


class Alone:
    """Every check on a model of its own, one worker call each (``--uncached``)."""

    def __init__(self, pool: Any) -> None:
        self.pool = pool

    def outcome(self, check: Check, request: Request) -> tuple[Outcome, str]:
        outcome = self.pool.run(check.backend_ref, request)
        return outcome, "own, fresh worker" if self.pool.last_fresh else "own"

    def fresh(self, check: Check, request: Request, timeout: float | None = None) -> Outcome:
        return self.pool.run_fresh(check.backend_ref, request, timeout)

    def doubt(self, check: Check) -> None:
        self.pool.recycle(check.backend_ref)

    def alone(self, check: Check, request: Request) -> Outcome:
        return self.pool.run(check.backend_ref, request)


class Batcher:
    def __init__(self, pool: Any, known: dict[str, list[known_mod.Known]], versions: dict[str, str | None],
                 budget: int, size: int = MAX_BATCH) -> None:
        self.pool = pool
        self.known = known
        self.versions = versions  # backend_ref -> version
        self.budget = budget
        self.size = size
        self.waiting: dict[str, Outcome] = {}  # check name -> outcome computed in a batch
        self.lone: set[str] = set()  # checks whose batch failed: they run one by one
        self.done: set[str] = set()  # checks whose item has run: never computed again in a batch
        self.batch_of: dict[str, int] = {}  # check name -> the batch call its waiting outcome came from
        self._batches = 0
        self._shareable: dict[str, bool] = {}

    def shareable(self, check: Check) -> bool:
        """Expected to give an output of modest size (asked of each check several times: remembered)."""
        known = self._shareable.get(check.name)
        if known is None:
            known = self._shareable[check.name] = self._judge_shareable(check)
        return known

    def _judge_shareable(self, check: Check) -> bool:
        if check.not_applicable or check.path is None or check.dtype is None or check.expect_reject:
            return False
        if shape_only(check.case, check.dtype, self.budget) or materialised_bytes(check.case, check.dtype) > \
                MAX_BATCH_BYTES:
            return False
        entry = known_mod.find(self.known.get(check.backend, []), known_mod.Facts(
            check.case, check.dtype, check.shape_dtype, check.path, check.variant,
            self.versions.get(check.backend_ref), False))  # a shape-only check is never shared (above)
        return entry is None  # a known difference's check runs in a fresh worker of its own (execute.py)

    def runner(self, peers: Callable[[], Iterable[Check]]) -> Shared:
        """The Runner of one test item's checks: ``peers`` are the checks this process runs next on the same
        backend, in order (its item's, then the next items')."""
        return Shared(self, peers)

    def run_batch(self, batch: list[Check], request: Request) -> Outcome:
        requests = [request] + [prepare(c, self.budget, with_expected=False).request for c in batch[1:]]
        outcomes = self.pool.run_batch(batch[0].backend_ref, requests)
        if outcomes is None:
            self.lone.update(c.name for c in batch)
            return self.pool.run(batch[0].backend_ref, request)
        self._batches += 1
        for c in batch:
            self.batch_of[c.name] = self._batches
        for c, outcome in zip(batch[1:], outcomes[1:], strict=True):
            self.waiting[c.name] = outcome
        return outcomes[0]

    def doubt(self, check: Check) -> None:
        """The check's outcome failed: its worker is replaced, and the outcomes computed in the same call (the
        same model, the same process) are dropped, to be computed again when their items run."""
        self.pool.recycle(check.backend_ref)
        batch = self.batch_of.pop(check.name, None)
        if batch is not None:
            for name in [n for n in self.waiting if self.batch_of.get(n) == batch]:
                del self.waiting[name]
                del self.batch_of[name]


class Shared:
    """A check's outcome from a batch (formed when the first of its checks runs), or alone."""

    def __init__(self, batcher: Batcher, peers: Callable[[], Iterable[Check]]) -> None:
        self.batcher, self.peers = batcher, peers

    def outcome(self, check: Check, request: Request) -> tuple[Outcome, str]:
        batcher = self.batcher
        batcher.done.add(check.name)
        waiting = batcher.waiting.pop(check.name, None)
        if waiting is not None:
            return waiting, "shared"
        batcher.batch_of.pop(check.name, None)  # computed now: any earlier batch it was in is not its own
        if check.name not in batcher.lone and batcher.shareable(check):
            batch = [check]
            for c in self.peers():
                if len(batch) == batcher.size:
                    break
                if c.name not in batcher.done and c.name not in batcher.lone and c.name not in batcher.waiting \
                        and c.backend_ref == check.backend_ref and batcher.shareable(c):
                    batch.append(c)
            if len(batch) > 1:
                outcome = batcher.run_batch(batch, request)
                return outcome, "own" if check.name in batcher.lone else "shared"
        outcome = batcher.pool.run(check.backend_ref, request)
        return outcome, "own, fresh worker" if batcher.pool.last_fresh else "own"

    def fresh(self, check: Check, request: Request, timeout: float | None = None) -> Outcome:
        return self.batcher.pool.run_fresh(check.backend_ref, request, timeout)

    def doubt(self, check: Check) -> None:
        self.batcher.doubt(check)

    def alone(self, check: Check, request: Request) -> Outcome:
        return self.batcher.pool.run(check.backend_ref, request)
