"""For a failing check no known difference explains: the entries whose conditions all hold but one ("looks like").

A new case or path that meets an old bug in a new way fails as a new failure; the entry it nearly matches says at
once which bug it probably is, and which condition to widen (or which trait tells the two apart). Each condition is
weighed on its own: a match key (``dtype``, ``mode``, ``version`` ...), each path axis of an entry with one path (a
list of alternative paths is one condition), and each trait of an entry's ``inputs`` (alternatives: one condition).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from conformance.known.entries import Known
from conformance.known.facts import (
    _CASE_FACTS,
    _CHECK_FACTS,
    NOT,
    Facts,
    _field_test,
    _inputs_test,
    _params,
    _path_test,
    _paths_test,
    _string_test,
    glob_regex,
    trait_holds,
)

NEAREST = 3  # entries recorded per check at most: the first is what the report and pytest's message lead with


@dataclass(frozen=True)
class Condition:
    """One condition of an entry: its name as the entry writes it, what the entry asks, and its test."""

    name: str  # "dtype", "path.context", "inputs" (a trait, or alternatives of traits), ...
    wants: str
    test: Callable[[Facts], bool]
    shown: Callable[[Facts], str]  # what the check has there


def conditions(entry: Known) -> list[Condition]:
    """Every condition of the entry, one by one (hardware is not one: entries for other hardware are not loaded)."""
    match = dict(entry.match)
    out = []
    for key, patterns in match.items():
        if key == "hardware":
            continue
        wants = " | ".join(patterns)
        read = _CHECK_FACTS.get(key) or _CASE_FACTS.get(key)
        if read is not None:
            out.append(Condition(key, wants, _string_test(read, glob_regex(patterns)), read))
        else:  # a field of the op's params (broadcast: mode)
            out.append(Condition(key, wants, _field_test(key, glob_regex(patterns)),
                                 lambda f, k=key: str(getattr(_params(f.case), k, None))))
    if len(entry.paths) == 1:
        for axis, patterns in entry.paths[0]:
            out.append(Condition(f"path.{axis}", " | ".join(patterns), _path_test(axis, glob_regex(patterns)),
                                 lambda f, a=axis: dict(f.path).get(a, "(no such axis)")))
    elif entry.paths:
        alternatives = tuple(tuple(_path_test(a, glob_regex(p)) for a, p in alt) for alt in entry.paths)
        wants = " or ".join("{" + ", ".join(f"{a}: {'|'.join(p)}" for a, p in alt) + "}" for alt in entry.paths)
        out.append(Condition("path", wants, _paths_test(alternatives), _path_shown))
    if entry.inputs is not None and len(entry.inputs) == 1:
        for trait in entry.inputs[0]:
            name, negated = trait.removeprefix(NOT), trait.startswith(NOT)
            out.append(Condition("inputs", trait, lambda f, t=name, n=negated: trait_holds(f.case, t) is not n,
                                 lambda f, t=name: t if trait_holds(f.case, t) else NOT + t))
    elif entry.inputs is not None:
        wants = " or ".join("[" + ", ".join(g) + "]" for g in entry.inputs)
        out.append(Condition("inputs", wants, _inputs_test(entry.inputs), lambda f: "none of them holds"))
    return out


def _path_shown(f: Facts) -> str:
    return "{" + ", ".join(f"{a}: {v}" for a, v in f.path) + "}"


def nearest(entries: list[Known], facts: Facts, verdict: str | None = None,
            limit: int = NEAREST) -> list[dict[str, Any]]:
    """The entries (up to ``limit``) whose conditions all hold but one, those of the check's ``verdict`` first, then
    in file order; each as {"id", "differs_in", "entry", "check", "verdict", "where"}: the condition that does not
    hold, what the entry asks there and what the check has. An entry of one condition is never near: differing in
    its only condition, it says nothing about the check."""
    found = []
    for entry in entries:
        conds = conditions(entry)
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
    found.sort(key=lambda n: n["verdict"] != verdict)  # stable: file order within each
    return found[:limit]


def describe(near: dict[str, Any]) -> str:
    """One line: ``looks like <id> (differs in: <condition>: the entry asks <x>, the check has <y>)``."""
    return (f"looks like {near['id']} (differs in: {near['differs_in']}: the entry asks {near['entry']}, the check "
            f"has {near['check']}; {near['where']})")
