"""For a failing check no known difference explains: the entries whose conditions all hold but one ("looks like").

A new case or path that meets an old bug in a new way fails as a new failure; the entry it nearly matches says at
once which bug it probably is, and which condition to widen (or which trait tells the two apart). Each condition is
weighed on its own: a match key (``dtype``, ``mode``, ``version`` ...), each path axis of an entry with one path (a
list of alternative paths is one condition), and each trait of an entry's ``inputs`` (alternatives: one condition).
"""

from __future__ import annotations

from typing import Any

from conformance.known.entries import OR, Known
from conformance.known.facts import Facts

NEAREST = 3  # entries recorded per check at most: the first is what the report and pytest's message lead with


def nearest(entries: list[Known], facts: Facts, verdict: str | None = None,
            limit: int = NEAREST) -> list[dict[str, Any]]:
    """The entries (up to ``limit``) whose conditions all hold but one, those of the check's ``verdict`` first, then
    in file order; each as {"id", "differs_in", "entry", "check", "verdict", "where"}: the condition that does not
    hold, what the entry asks there and what the check has. An entry of one condition is never near: differing in
    its only condition, it says nothing about the check."""
    found = []
    for entry in entries:
        conds = entry.conditions
        if len(conds) < 2:
            continue
        failed = None
        for c in conds:
            if not c.test(facts):
                if failed is not None:
                    break
                failed = c
        else:
            if failed is not None:
                found.append({"id": entry.id, "differs_in": failed.name, "entry": failed.wants,
                              "check": failed.shown(facts), "verdict": entry.verdict, "where": entry.where})
    found.sort(key=lambda n: verdict not in n["verdict"].split(OR))  # stable: file order within each
    return found[:limit]


def describe(near: dict[str, Any]) -> str:
    """One line: ``looks like <id> (differs in: <condition>: the entry asks <x>, the check has <y>)``."""
    return (f"looks like {near['id']} (differs in: {near['differs_in']}: the entry asks {near['entry']}, the check "
            f"has {near['check']}; {near['where']})")
