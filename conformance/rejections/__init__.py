"""Which rule a runtime's rejection is about: a table per backend, as data (conformance/rejections/<backend>.yaml).

A runtime says why it refuses an input in words of its own. Each table maps patterns of those words (regular
expressions searched in the message, first match wins) to the spec's rules they enforce, each pattern with the
place in the runtime's source that raises it. A pattern may also say that a message is about no rule of the spec
(an allocation that failed, a buffer over-read, a null pointer): a rejection for such a reason is not the rejection
the spec asks for. The judge compares the rule found with the rule the input breaks (conformance/judge.py):
another rule, or none, is the verdict ``wrong_rule``; a message no pattern matches stays a pass, counted as
unclassified in the report, per backend (the goal is none).

A table file::

    include: [openvino]          # other tables whose patterns follow this one's (optional)
    patterns:
      - rule: numpy_dim          # a rule, a list of rules (the message is about any of them), or not_a_rule
        pattern: 'cannot be broadcasted \\(numpy mode\\)'
        source: https://github.com/.../broadcast_shape_inference.hpp#L79   # where the runtime raises it
        why: ...                 # required for not_a_rule: what the message is about instead
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:
    from conformance.backends.base import Outcome

TABLES_DIR = Path(__file__).parent
NOT_A_RULE = "not_a_rule"
_KEYS = {"rule", "pattern", "source", "why"}


class RejectionTableError(ValueError):
    """A bad table; the message starts with file:line."""


@dataclass(frozen=True)
class Pattern:
    rules: tuple[str, ...]  # the rules the message is about; (NOT_A_RULE,) for none
    regex: re.Pattern[str]
    source: str
    why: str | None
    where: str  # file:line

    @property
    def rule(self) -> str:
        """The rules as the record keeps them: one name, or several joined by '|'."""
        return "|".join(self.rules)


def _entry(raw: Any, where: str) -> Pattern:
    if not isinstance(raw, dict) or set(raw) - _KEYS or not {"rule", "pattern", "source"} <= set(raw):
        raise RejectionTableError(f"{where}: a pattern is a mapping with rule, pattern, source (and why for "
                                  f"{NOT_A_RULE}); got {raw!r}")
    rules = raw["rule"] if isinstance(raw["rule"], list) else [raw["rule"]]
    if not rules or not all(isinstance(r, str) and r for r in rules):
        raise RejectionTableError(f"{where}: rule is a rule's name, a list of them, or {NOT_A_RULE}; "
                                  f"got {raw['rule']!r}")
    if NOT_A_RULE in rules and (len(rules) > 1 or not str(raw.get("why") or "").strip()):
        raise RejectionTableError(f"{where}: {NOT_A_RULE} stands alone and says why (what the message is about)")
    try:
        regex = re.compile(str(raw["pattern"]))
    except re.error as e:
        raise RejectionTableError(f"{where}: pattern {raw['pattern']!r}: {e}") from None
    return Pattern(tuple(rules), regex, str(raw["source"]), str(raw["why"]).strip() if raw.get("why") else None,
                   where)


@cache
def table(name: str) -> tuple[Pattern, ...]:
    """The patterns of the table ``name`` (and of the tables it includes, after its own); () if there is none."""
    path = TABLES_DIR / f"{name}.yaml"
    if not path.is_file():
        return ()
    text = path.read_text(encoding="utf-8")
    try:
        raw = yaml.safe_load(text) or {}
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as e:
        raise RejectionTableError(f"{path}:{getattr(getattr(e, 'problem_mark', None), 'line', -1) + 1}: {e}") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("patterns", []), list):
        raise RejectionTableError(f"{path}:1: a rejection table is a mapping with patterns: [...] (and include)")
    items = next((v for k, v in node.value if k.value == "patterns"), None) if node is not None else None
    lines = [i.start_mark.line + 1 for i in items.value] if items is not None else []
    own = tuple(_entry(p, f"{path}:{line}") for p, line in zip(raw.get("patterns", []), lines, strict=True))
    return own + tuple(p for other in raw.get("include", []) for p in table(str(other)))


def classified(outcome: Outcome, backend: str) -> Outcome:
    """The outcome with the rule its rejection is about, from the backend's table, unless it has one already."""
    if outcome.error is None or outcome.rule is not None:
        return outcome
    found = classify(backend, outcome.error)
    return outcome if found is None else replace(outcome, rule=found.rule, rule_why=found.why)


def classify(name: str, message: str) -> Pattern | None:
    """The first pattern of the table ``name`` that the message matches; None: unclassified."""
    return next((p for p in table(name) if p.regex.search(message)), None)
