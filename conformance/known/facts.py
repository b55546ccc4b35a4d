"""What a known difference matches on: the facts of one check, and the conditions of one entry over them (compiled
for matching, ``compile_tests``; one by one and named, ``conditions``, for the entries a check nearly matches).

Every check, named or generated, is looked up the same way. The cheap conditions (strings: path, dtype,
version, case id ...) are tried first; the traits of a case's params are computed once per case and entry
(``_traits_of`` remembers them for each named case object; a generated case is new every time).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fnmatch import translate
from typing import Any

from conformance import ops
from conformance.cases.schema import GENERATED

_CACHED = 50_000  # cases (or entries lists) remembered at most: far more than a run has; then start again


@dataclass(frozen=True)
class Facts:
    case: Any  # conformance.cases.Case: .id, .op, .group, .params
    dtype: str
    shape_dtype: str
    path: tuple[tuple[str, str], ...]  # (axis, value) pairs
    variant: str  # the path label
    version: str | None  # the backend's package version
    # The check only asks the backend for its declared output shape (conformance.run.plan.shape_only: a case
    # with dimensions unknown until run time, or an output beyond the budget): nothing is computed. None: as
    # the default budget makes it (asked only of entries that say ``shape_only``)
    shape_only: bool | None = None
    # The run raised an error the backend did not report (Outcome.unreported_error: known after the run only; None
    # before it, when no entry that names it can hold)
    unreported_error: bool | None = None

    @classmethod
    def of(cls, case: Any, variant: str, dtype: str, shape_dtype: str = "i64", version: str | None = None,
           path: tuple[tuple[str, str], ...] | None = None, shape_only: bool | None = None) -> Facts:
        """Facts from a variant label, the path read from it where not given (``path_of_label``)."""
        return cls(case, dtype, shape_dtype, path_of_label(variant) if path is None else path, variant, version,
                   shape_only)


_LABEL = re.compile(r"opset(\d+)-(const|param|init|input)")
_LABEL_VALUES = {"const": ("target_shape", "Constant"), "param": ("target_shape", "Parameter"),
                 "init": ("shape", "initializer"), "input": ("shape", "input")}
LOCAL_OPS = ("v0", "v1", "v3", "expand")


def path_of_label(label: str) -> tuple[tuple[str, str], ...]:
    """The path of the built-in backends' labels: ``opset1-const`` -> opset 1, target_shape Constant (openvino);
    ``opset8-init`` -> opset 8, shape initializer (the ONNX backends); ``v1`` -> op v1 (local)."""
    m = _LABEL.fullmatch(label)
    if m:
        return (("opset", m.group(1)), _LABEL_VALUES[m.group(2)])
    return (("op", label),) if label in LOCAL_OPS else (("variant", label),) if label else ()


def _shape_only(f: Facts) -> bool:
    if f.shape_only is not None:
        return f.shape_only
    from conformance.run.plan import DEFAULT_BUDGET, shape_only  # the harness's rule (run imports known)

    return getattr(f.case, "params", None) is not None and shape_only(f.case, f.dtype, DEFAULT_BUDGET)


def _params(case: Any) -> Any:
    return getattr(case, "params", case)  # a Case of the old layout kept the params' fields itself


def _op(case: Any) -> str:
    return getattr(case, "op", None) or ops.DEFAULT


# id(case) -> (case, {trait: holds}): the case is kept so that its id is not reused by another object
_TRAIT_CACHE: dict[int, tuple[Any, dict[str, bool]]] = {}


def trait_holds(case: Any, trait: str) -> bool:
    """A trait of the case's op (False for an op that has no such trait), remembered per named case."""
    if getattr(case, "group", None) == GENERATED or _params(case) is None:
        return _evaluate(case, trait)
    entry = _TRAIT_CACHE.get(id(case))
    if entry is None or entry[0] is not case:
        if len(_TRAIT_CACHE) >= _CACHED:
            _TRAIT_CACHE.clear()
        entry = _TRAIT_CACHE[id(case)] = (case, {})
    known = entry[1]
    if trait not in known:
        known[trait] = _evaluate(case, trait)
    return known[trait]


def _evaluate(case: Any, trait: str) -> bool:
    found, params = ops.get(_op(case)).traits.get(trait), _params(case)
    return found is not None and params is not None and bool(found[0](params))


def glob_regex(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """Globs (fnmatch, case-sensitive) as one regular expression: any of them matches."""
    return re.compile("|".join(f"(?:{translate(p)})" for p in patterns))


Test = Callable[[Facts], bool]
# What a key reads from the facts: those of the check's path, dtypes and version (the same for every case the
# check's backend runs that way: an entries list is indexed by them), then those of its case
_CHECK_FACTS: dict[str, Callable[[Facts], str]] = {
    "variant": lambda f: f.variant, "dtype": lambda f: f.dtype, "shape_dtype": lambda f: f.shape_dtype,
    "version": lambda f: f.version or "",
    "unreported_error": lambda f: "true" if f.unreported_error else "false",
}
_CASE_FACTS: dict[str, Callable[[Facts], str]] = {
    "case": lambda f: f.case.id, "op": lambda f: _op(f.case), "group": lambda f: getattr(f.case, "group", ""),
    "shape_only": lambda f: "true" if _shape_only(f) else "false",
}
NOT = "not "  # an inputs trait that must not hold: "not zero_in_target"


def compile_tests(match: dict[str, tuple[str, ...]], paths: tuple[dict[str, tuple[str, ...]], ...],
                  inputs: tuple[tuple[str, ...], ...] | None) -> tuple[tuple[Test, ...], tuple[Test, ...]]:
    """The entry's conditions as tests on facts: (those on the check's path, dtypes and version; those on its
    case, cheap ones first). Hardware is not among them: ``on_hardware`` filters the entries at load."""
    check = [_string_test(read, glob_regex(match[k])) for k, read in _CHECK_FACTS.items() if k in match]
    if paths:
        check.append(_paths_test(tuple(tuple(_path_test(axis, glob_regex(patterns)) for axis, patterns in p.items())
                                       for p in paths)))
    case = [_string_test(read, glob_regex(match[k])) for k, read in _CASE_FACTS.items() if k in match]
    case += [_field_test(k, glob_regex(v)) for k, v in match.items()
             if k not in _CHECK_FACTS and k not in _CASE_FACTS and k != "hardware"]
    if inputs is not None:
        case.append(_inputs_test(inputs))
    return tuple(check), tuple(case)


# id(entries) -> (entries, its length, {check key: the entries whose check tests hold})
_INDEX: dict[int, tuple[list[Any], int, dict[tuple[Any, ...], list[Any]]]] = {}


def candidates(entries: list[Any], facts: Facts) -> list[Any]:
    """The entries (in order) whose conditions on the check's path, dtypes and version hold, remembered for
    each such combination of an entries list: every check is looked up, and they share few combinations."""
    if not entries:
        return []
    index = _INDEX.get(id(entries))
    if index is None or index[0] is not entries or index[1] != len(entries):
        if len(_INDEX) >= _CACHED:
            _INDEX.clear()
        index = _INDEX[id(entries)] = (entries, len(entries), {})
    key = (facts.variant, facts.path, facts.dtype, facts.shape_dtype, facts.version, bool(facts.unreported_error))
    found = index[2].get(key)
    if found is None:
        found = index[2][key] = [k for k in entries if all(test(facts) for test in k.tests[0])]
    return found


def _string_test(read: Callable[[Facts], str], pattern: re.Pattern[str]) -> Test:
    return lambda f: pattern.fullmatch(read(f)) is not None


def _path_test(axis: str, pattern: re.Pattern[str]) -> Test:
    def test(f: Facts) -> bool:
        value = next((v for a, v in f.path if a == axis), None)
        return value is not None and pattern.fullmatch(value) is not None
    return test


def _paths_test(alternatives: tuple[tuple[Test, ...], ...]) -> Test:
    """One of the alternatives (``match.path`` as a list of maps) holds in full."""
    return lambda f: any(all(test(f) for test in tests) for tests in alternatives)


def _field_test(name: str, pattern: re.Pattern[str]) -> Test:
    """An op param field (``mode``): a case whose op has no such field does not match."""
    def test(f: Facts) -> bool:
        if name not in ops.get(_op(f.case)).fields:
            return False
        value = getattr(_params(f.case), name, None)
        return value is not None and pattern.fullmatch(str(value)) is not None
    return test


def _inputs_test(alternatives: tuple[tuple[str, ...], ...]) -> Test:
    parsed = tuple(tuple((t.removeprefix(NOT), t.startswith(NOT)) for t in group) for group in alternatives)
    return lambda f: any(all(trait_holds(f.case, t) is not negated for t, negated in group) for group in parsed)


@dataclass(frozen=True)
class Condition:
    """One condition of an entry: its name as the entry writes it, what the entry asks, and its test."""

    name: str  # "dtype", "path.context", "inputs" (a trait, or alternatives of traits), ...
    wants: str
    test: Callable[[Facts], bool]
    shown: Callable[[Facts], str]  # what the check has there


def conditions(entry: Any) -> list[Condition]:
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
