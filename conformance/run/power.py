"""The suite's power: which planted bugs the YAML cases and the default generated check each catch.

A planted bug is a backend with one defect (tests/planted/). For each, the cases of the case files run as a
default run plans them (conformance/run/plan.py), in file order, until the first failing verdict; then,
separately, the default generated check (conformance/run/generated.py: its default examples and seed) runs,
without shrinking what it finds. Both judge through conformance/run/execute.py, as a run does. A planted bug
that kills or hangs its process (``isolated``) runs in the suite's worker processes; the others in this one.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance import verdicts as v
from conformance.backends import Backend, Outcome, Request, load
from conformance.cases import Case, load_all
from conformance.run import generated
from conformance.run.batching import Alone
from conformance.run.execute import execute, record_for
from conformance.run.isolation import WorkerPool, run_check
from conformance.run.plan import DEFAULT_BUDGET, Check, plan

# The YAML cases and the default generated check must catch this share of the planted bugs.
YAML_GOAL, GENERATED_GOAL = 1.0, 0.9


class InProcess:
    """A Runner that runs each check in this process (a planted bug that neither crashes nor hangs)."""

    def outcome(self, check: Check, request: Request) -> tuple[Outcome, str]:
        return run_check(check.backend_ref, request), "own, fresh worker"

    def fresh(self, check: Check, request: Request, timeout: float | None = None) -> Outcome:
        return run_check(check.backend_ref, request)  # in process: a planted bug here never hangs

    def doubt(self, check: Check) -> None:
        pass  # nothing is shared

    def alone(self, check: Check, request: Request) -> Outcome:
        return run_check(check.backend_ref, request)


@dataclass(frozen=True)
class Caught:
    """How one check run found a planted bug: the check, its verdict and message; ``checks``: checks run."""

    by: str | None
    verdict: str | None
    message: str
    checks: int
    seconds: float

    @property
    def caught(self) -> bool:
        return self.by is not None


@dataclass(frozen=True)
class Row:
    ref: str
    name: str
    defect: str
    cases: Caught
    generated: Caught


def by_cases(backend: Backend, ref: str, cases: Iterable[Case], runner: Any, budget: int = DEFAULT_BUDGET) -> Caught:
    """Run the cases' checks in order until the first failing verdict."""
    start, count = time.perf_counter(), 0
    for case in cases:
        for check in plan(case, backend, ref, None):
            if check.not_applicable is not None:
                continue
            count += 1
            record = execute(check, runner, [], record_for(check, check.name, None, ""), budget=budget)
            if record.verdict in v.FAILING:
                return Caught(check.name, record.verdict, record.message or "", count, time.perf_counter() - start)
    return Caught(None, None, "", count, time.perf_counter() - start)


def by_generated(backend: Backend, ref: str, runner: Any, examples: int = generated.DEFAULT_EXAMPLES,
                 seed: int = generated.DEFAULT_SEED, budget: int = DEFAULT_BUDGET) -> Caught:
    """The default generated check, stopped at its first failure (not shrunk)."""
    start = time.perf_counter()
    found = generated.search(backend, ref, runner, [], None, examples, seed, budget, shrink=False)
    seconds = time.perf_counter() - start
    if found.failure is None:
        return Caught(None, None, "", found.examples, seconds)
    check, _, record = found.failure
    return Caught(check.name, record.verdict, record.message or "", found.examples, seconds)


def measure(refs: Iterable[str], cases_dir: Path, timeout: float = 3.0, examples: int = generated.DEFAULT_EXAMPLES,
            seed: int = generated.DEFAULT_SEED, generated_only: bool = False) -> Iterable[Row]:
    """A Row per planted bug (``refs``: module:Class references), as each is measured."""
    loaded, errors = load_all(cases_dir)
    if errors:
        raise ValueError("; ".join(f"{path}: {error}" for path, error in errors.items()))
    # the planted bugs are a Broadcast implementation's: the cases of the other ops (elementwise) do not reach them
    cases = [case for file_cases in loaded.values() for case in file_cases if case.op == "broadcast"]
    for ref in refs:
        backend = load(ref)
        pool = WorkerPool(timeout=timeout, memory_limit=8192 * 2**20, preload=backend.preload) \
            if getattr(backend, "isolated", False) else None
        runner = InProcess() if pool is None else Alone(pool)
        try:
            caught = Caught(None, None, "not run", 0, 0.0) if generated_only else by_cases(backend, ref, cases, runner)
            found = by_generated(backend, ref, runner, examples, seed)
        finally:
            if pool is not None:
                pool.close()
        doc = (type(backend).__doc__ or "").strip().splitlines()
        yield Row(ref, backend.name, doc[0] if doc else "", caught, found)


def _cell(caught: Caught) -> str:
    if not caught.caught:
        return f"no ({caught.checks} checks)"
    return f"yes: {caught.by} {caught.verdict} (check {caught.checks})"


def table(rows: list[Row]) -> str:
    """The power table, and the share of planted bugs each catches."""
    width = max([len(r.name) for r in rows] + [len("planted bug")])
    lines = [f"{'planted bug':<{width}}  caught by the YAML cases / by the default generated check",
             f"{'':<{width}}  (yes: the first failing check, its verdict, and how many checks ran: each run stops "
             "at its first failure)",
             "-" * (width + 60)]
    for r in rows:
        lines.append(f"{r.name:<{width}}  cases: {_cell(r.cases)}")
        lines.append(f"{'':<{width}}  generated: {_cell(r.generated)}")
    lines.append("-" * (width + 60))
    lines.append(summary(rows))
    return "\n".join(lines)


def shares(rows: list[Row]) -> tuple[float, float]:
    n = len(rows) or 1
    return sum(r.cases.caught for r in rows) / n, sum(r.generated.caught for r in rows) / n


def summary(rows: list[Row]) -> str:
    cases, gen = shares(rows)
    n = len(rows)
    return (f"{n} planted bugs: the YAML cases catch {round(cases * n)} ({100 * cases:.0f}%, goal "
            f"{100 * YAML_GOAL:.0f}%), the default generated check {round(gen * n)} ({100 * gen:.0f}%, goal "
            f"{100 * GENERATED_GOAL:.0f}%)")


def enough(rows: list[Row]) -> bool:
    cases, gen = shares(rows)
    return cases >= YAML_GOAL and gen >= GENERATED_GOAL
