"""Sharing work among checks: the checks of one case on one backend go to the worker in one call.

When a check runs and no outcome is waiting for it, the Batcher sends it together with the other checks of its
test item (one case on one backend, conformance/plugin.py CaseItem) that have not run yet, that are expected to
produce an output (a valid case, no recorded crash or rejection for them) and are small; the backend may run
them all in one model (``Backend.run_many``). Each check is still judged on its own, against its own
reference output. A batch that fails as a whole costs nothing but time: its checks then run one by one,
exactly as with ``--uncached``, so no verdict ever depends on which checks shared a model.
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
        self.batches = self.batched = self.failed_batches = 0

    def shareable(self, check: Check, backend_name: str) -> bool:
        if check.not_applicable or check.variant is None or check.dtype is None or check.expect_reject:
            return False
        if shape_only(check.case, check.dtype, self.budget) or materialised_bytes(check.case, check.dtype) > \
                MAX_BATCH_BYTES:
            return False
        entry = find(self.known.get(backend_name, []), check.case.id, check.variant, check.dtype,
                     self.versions.get(check.backend_ref), check.shape_dtype)
        return entry is None or entry.verdict in OUTPUT_VERDICTS

    def runner(self, check: Check, peers: Callable[[], Iterable[Check]]) -> Callable[[str, Request], Outcome]:
        """The ``run`` for execute(): this check's outcome from a batch (formed now, with ``peers``: the checks
        of its item), or from a run of its own."""

        def run(backend_ref: str, request: Request) -> Outcome:
            self.done.add(check.name)
            waiting = self.waiting.pop(check.name, None)
            if waiting is not None:
                return waiting
            if check.name not in self.alone and self.shareable(check, check.backend):
                batch = [check]
                for c in peers():
                    if len(batch) == self.size:
                        break
                    if c.name not in self.done and c.name not in self.alone and c.name not in self.waiting \
                            and self.shareable(c, c.backend):
                        batch.append(c)
                if len(batch) > 1:
                    return self._run_batch(batch, request)
            return self.pool.run(backend_ref, request)

        return run

    def _run_batch(self, batch: list[Check], request: Request) -> Outcome:
        requests = [request] + [request_for(c, make_data(c.case.data_shape, DTYPES[c.dtype])) for c in batch[1:]]
        self.batches += 1
        outcomes = self.pool.run_batch(batch[0].backend_ref, requests)
        if outcomes is None:
            self.failed_batches += 1
            self.alone.update(c.name for c in batch)
            return self.pool.run(batch[0].backend_ref, request)
        self.batched += len(batch)
        for c, outcome in zip(batch[1:], outcomes[1:], strict=True):
            self.waiting[c.name] = outcome
        return outcomes[0]
