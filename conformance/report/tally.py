"""Verdicts as the report ranks and counts them: severity order, one-letter codes and the Tally of a cell,
a column or a breakdown row. Shared by every report module; it imports none of them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from conformance.verdicts import (
    ACCEPTED_INVALID,
    CRASH,
    ERROR,
    KNOWN,
    NOT_APPLICABLE,
    OUT_OF_MEMORY,
    PASS,
    REJECTED_VALID,
    SKIPPED,
    TIMEOUT,
    VERDICTS,
    WRONG_DTYPE,
    WRONG_RULE,
    WRONG_SHAPE,
    WRONG_VALUES,
)

# Worst first: a matrix cell shows the first of these among its checks.
SEVERITY = (CRASH, TIMEOUT, OUT_OF_MEMORY, ERROR, WRONG_VALUES, WRONG_SHAPE, WRONG_DTYPE, ACCEPTED_INVALID,
            WRONG_RULE, REJECTED_VALID, KNOWN, PASS, NOT_APPLICABLE, SKIPPED)


@dataclass(frozen=True)
class Tally:
    """How many checks ended with each verdict."""

    counts: dict[str, int]

    @classmethod
    def of(cls, verdicts: Iterable[str]) -> Tally:
        return cls(dict(Counter(verdicts)))

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def passed(self) -> int:
        return self.counts.get(PASS, 0)

    @property
    def known(self) -> int:
        return self.counts.get(KNOWN, 0)

    @property
    def applicable(self) -> int:
        return self.total - self.counts.get(NOT_APPLICABLE, 0) - self.counts.get(SKIPPED, 0)

    @property
    def not_run(self) -> int:
        """Checks that do not count: not applicable or skipped."""
        return self.total - self.applicable

    @property
    def failing(self) -> int:
        """Applicable checks that neither passed nor are a known difference (unknown verdicts included)."""
        return self.applicable - self.passed - self.known

    @property
    def rate(self) -> float | None:
        """pass / applicable; a known difference is not a pass, an opt-out is not counted at all."""
        return self.passed / self.applicable if self.applicable else None

    @property
    def worst(self) -> str | None:
        return min(self.counts, key=rank) if self.counts else None

    @property
    def worst_letter(self) -> str:
        return letter(self.worst)

    @property
    def others(self) -> list[tuple[str, str, int]]:
        """(verdict, letter, count) of every verdict but pass, worst first."""
        return [(v, letter(v), self.counts[v]) for v in sorted(self.counts, key=rank) if v != PASS]


def letter(verdict: str | None) -> str:
    return VERDICTS[verdict][0] if verdict in VERDICTS else "?"


def rank(verdict: str) -> int:
    # A verdict this code does not know ranks worst: a results file from a newer suite must not look green.
    return SEVERITY.index(verdict) if verdict in SEVERITY else -1
