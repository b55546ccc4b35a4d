"""Known differences: recorded, explained divergences of a backend from the spec, applied as strict xfails.

One YAML file per backend in conformance/known/ (``<backend>.yaml``), a list of entries::

    - id: short-name
      match: {case: "glob", variant: "glob", dtype: [glob, ...]}  # every key given must match (fnmatch);
                                                                 # a list matches if any of its globs does
      # optional in match: shape_dtype: [i8, u8] -- the integer type of target_shape / axes_mapping
      # optional in match: version: "2025.[0-3].*" -- the backend's version (its package's), for a
      # divergence of some releases only; an entry with a version never matches a backend without one
      # optional in match: hardware: "cpu:bf16" -- a feature of the machine the backend reports
      # (Backend.hardware), for a divergence on some hardware only; elsewhere the entry does not apply
      inputs: [zero_size_data]  # optional: the named traits (conformance/traits.py) of the inputs it
                                # happens for, so that a generated check can be explained by it too
      verdict: wrong_values                                   # the verdict the divergence produces
      reason: why the backend does this
      link: https://upstream/issue                            # or `reproducer:` where no report exists

A matching check with that verdict is a known difference (xfail). One that now passes, or fails another
way, fails loudly, and an entry that matched no check of a run is listed in the report.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fnmatch import fnmatchcase, translate
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml

from conformance import traits
from conformance.cases import Case
from conformance.verdicts import FAILING

KNOWN_DIR = Path(__file__).with_name("known")
_KEYS = {"id", "match", "inputs", "verdict", "reason", "link", "reproducer"}
_MATCH_KEYS = {"case", "variant", "dtype", "version", "shape_dtype", "hardware"}


@dataclass(frozen=True)
class Known:
    id: str
    backend: str
    match: tuple[tuple[str, tuple[str, ...]], ...]
    verdict: str
    reason: str
    link: str | None
    reproducer: str | None
    where: str
    inputs: tuple[tuple[str, ...], ...] | None = None  # alternatives, each a set of traits that all hold

    def explains(self, case: Case, variant: str, dtype: str, version: str | None, shape_dtype: str,
                 verdict: str) -> bool:
        """A generated check: its inputs have every trait of one of the ``inputs`` alternatives, and it failed
        with this verdict."""
        if self.inputs is None or verdict != self.verdict:
            return False
        return self._fields_match({"variant": variant, "dtype": dtype, "version": version or "",
                                   "shape_dtype": shape_dtype}) and self.describes(case)

    def describes(self, case: Case) -> bool:
        """The case has every trait of one of the alternatives of ``inputs``."""
        return self.inputs is not None and any(all(traits.holds(t, case) for t in group) for group in self.inputs)

    def matches(self, case: str, variant: str, dtype: str, version: str | None = None,
                shape_dtype: str = "i64") -> bool:
        return self._fields_match({"case": case, "variant": variant, "dtype": dtype, "version": version or "",
                                   "shape_dtype": shape_dtype})

    def _fields_match(self, fields: dict[str, str]) -> bool:
        """Every match key among ``fields`` has a glob that matches (keys not in ``fields`` are not looked at)."""
        return all(pattern.fullmatch(fields[k]) for k, pattern in self._patterns if k in fields)

    @cached_property
    def _patterns(self) -> tuple[tuple[str, re.Pattern[str]], ...]:
        """Each match key's globs as one regular expression: every check of a run is looked up (fnmatchcase
        pattern by pattern cost ~100 us a check)."""
        return tuple((k, re.compile("|".join(f"(?:{translate(p)})" for p in patterns))) for k, patterns in self.match)

    def applies_to_version(self, version: str) -> bool:
        """An entry for some releases only says nothing about a run of another release."""
        patterns = dict(self.match).get("version")
        return patterns is None or any(fnmatchcase(version, p) for p in patterns)

    def applies_on(self, hardware: tuple[str, ...]) -> bool:
        """An entry for some hardware only applies where the backend reports a feature it names."""
        patterns = dict(self.match).get("hardware")
        return patterns is None or any(fnmatchcase(f, p) for f in hardware for p in patterns)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "reason": self.reason, "link": self.link, "reproducer": self.reproducer,
                "verdict": self.verdict, "match": {k: list(v) for k, v in self.match}, "where": self.where,
                **({"inputs": [list(g) for g in self.inputs]} if self.inputs else {})}


def _entry(raw: Any, backend: str, where: str) -> Known:
    if not isinstance(raw, dict) or set(raw) - _KEYS or not {"id", "match", "verdict", "reason"} <= set(raw):
        raise ValueError(f"{where}: an entry has id, match, verdict, reason and link or reproducer; got {raw!r}")
    match = raw["match"]
    if not isinstance(match, dict) or not match or set(match) - _MATCH_KEYS:
        raise ValueError(f"{where}: match takes case, variant, dtype, version, shape_dtype, hardware glob patterns; "
                         f"got {match!r}")
    if raw["verdict"] not in FAILING:
        raise ValueError(f"{where}: verdict={raw['verdict']!r}, but should be one of {sorted(FAILING)}")
    inputs = raw.get("inputs")
    if inputs is not None:
        # [a, b]: traits that all hold; [[a, b], [c]]: alternatives, one of which holds in full
        groups = inputs if isinstance(inputs, list) and inputs and all(isinstance(g, list) for g in inputs) \
            else [inputs]
        if not all(isinstance(g, list) and g and not set(map(str, g)) - set(traits.TRAITS) for g in groups):
            raise ValueError(f"{where}: inputs is a list of traits from {sorted(traits.TRAITS)} (or a list of such "
                             f"lists, alternatives); got {inputs!r}")
        inputs = tuple(tuple(map(str, g)) for g in groups)
    if not raw.get("link") and not raw.get("reproducer"):
        raise ValueError(f"{where}: entry {raw['id']!r} needs an upstream link or a minimal reproducer")
    patterns = {k: tuple(map(str, v)) if isinstance(v, list) else (str(v),) for k, v in match.items()}
    return Known(id=str(raw["id"]), backend=backend, match=tuple(sorted(patterns.items())),
                 verdict=raw["verdict"], reason=str(raw["reason"]).strip(), link=raw.get("link"),
                 reproducer=raw.get("reproducer"), where=where,
                 inputs=inputs)


def load(paths: list[Path] | None = None) -> dict[str, list[Known]]:
    """backend name -> entries, from conformance/known/*.yaml and any extra files (named after the backend)."""
    entries: dict[str, list[Known]] = {}
    for path in sorted(KNOWN_DIR.glob("*.yaml")) + list(paths or []):
        nodes = yaml.compose(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
        raws = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        if not isinstance(raws, list):
            raise ValueError(f"{path}: a known-differences file is a list of entries")
        for raw, node in zip(raws, nodes.value if nodes else [], strict=True):
            entries.setdefault(path.stem, []).append(_entry(raw, path.stem, f"{path}:{node.start_mark.line + 1}"))
    return entries


def on_hardware(entries: dict[str, list[Known]], hardware: dict[str, tuple[str, ...]]) -> dict[str, list[Known]]:
    """The entries that apply on this machine: those for some hardware only where the backend reports it."""
    return {name: [k for k in ks if k.applies_on(hardware.get(name, ()))] for name, ks in entries.items()}


def find(entries: list[Known], case: str, variant: str, dtype: str, version: str | None = None,
         shape_dtype: str = "i64") -> Known | None:
    return next((k for k in entries if k.matches(case, variant, dtype, version, shape_dtype)), None)


def explaining(entries: list[Known], case: Case, variant: str, dtype: str, version: str | None, shape_dtype: str,
               verdict: str) -> Known | None:
    """The entry that explains a generated check's failing verdict by the traits of its inputs, if any."""
    return next((k for k in entries if k.explains(case, variant, dtype, version, shape_dtype, verdict)), None)
