"""Known-difference entries: reading and checking the YAML files, every problem named with its file and line."""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml

from conformance import ops
from conformance.known.facts import NOT, Condition, Facts, Test, compile_tests, conditions
from conformance.verdicts import FAILING, WRONG_VALUES

KNOWN_DIR = Path(__file__).parent
# conformance/known/reproducers/<backend>/<entry-id>.py: a standalone script per entry (numpy and the runtime only)
# that prints what the runtime gives and what the spec says, and exits 0 when the bug shows, 1 when the runtime
# behaves as the spec says, 2 when it cannot run; ``python3 -m conformance known --verify`` runs them all.
REPRODUCERS_DIR = KNOWN_DIR / "reproducers"
_KEYS = {"id", "match", "inputs", "verdict", "reason", "link", "reproducer", "cases_why", "timeout", "may_pass"}
# match keys besides the op's fields (``Op.fields``, e.g. broadcast's mode) and ``path`` (axis -> globs)
MATCH_KEYS = ("op", "group", "path", "variant", "dtype", "shape_dtype", "version", "hardware", "shape_only",
              "unreported_error", "case")
OR = " or "  # joins the verdicts of an entry that gives one of several (``verdict: [wrong_shape, wrong_values]``)


class KnownFileError(ValueError):
    """A bad known-differences file or entry; the message starts with file:line."""


@dataclass(frozen=True)
class Known:
    id: str
    backend: str
    match: tuple[tuple[str, tuple[str, ...]], ...]  # key -> globs: op, group, variant, dtype, ..., op fields
    verdict: str  # one verdict, or several joined by OR (a check gives one of them)
    reason: str
    link: str | None
    reproducer: str | None
    where: str  # file:line
    inputs: tuple[tuple[str, ...], ...] | None = None  # alternatives, each traits that all hold ("not t": t doesn't)
    # alternatives, each path axis -> globs, one of which holds in full (none: any path)
    paths: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...] = ()
    cases_why: str | None = None  # why the entry lists case ids: what no condition describes
    # verdict timeout only: the seconds a check it describes is given (a known hang need not take --check-timeout)
    timeout: float | None = None
    # why a check under the conditions may also pass (what decides it, which no condition can follow): such a check
    # passes or gives the entry's verdict; None: it must give the verdict (a strict expected failure)
    may_pass: str | None = None

    @property
    def verdicts(self) -> tuple[str, ...]:
        return tuple(self.verdict.split(OR))

    @cached_property
    def tests(self) -> tuple[tuple[Test, ...], tuple[Test, ...]]:
        """The conditions compiled: (on the check's path, dtypes and version; on its case)."""
        return compile_tests(dict(self.match), tuple(dict(p) for p in self.paths), self.inputs)

    @cached_property
    def conditions(self) -> tuple[Condition, ...]:
        """The conditions one by one, named (what a check that nearly matches differs in: conformance.known.near)."""
        return tuple(conditions(self))

    def matches(self, facts: Facts) -> bool:
        """Every condition holds for the check."""
        return all(test(facts) for tests in self.tests for test in tests)

    @property
    def reproducer_file(self) -> Path | None:
        """The reproducer's script (``reproducer:`` names it relative to the entry's YAML file's directory), or
        None: no reproducer, or one given inline (only in a file outside conformance/known/)."""
        if not is_reproducer_path(self.reproducer):
            return None
        return Path(self.where.rsplit(":", 1)[0]).parent / str(self.reproducer).strip()

    def applies_to_version(self, version: str) -> bool:
        """An entry for some releases only says nothing about a run of another release."""
        patterns = dict(self.match).get("version")
        return patterns is None or any(fnmatchcase(version, p) for p in patterns)

    def applies_on(self, hardware: tuple[str, ...]) -> bool:
        """An entry for some hardware only applies where the backend reports a feature it names; one for hardware
        without a feature (``not cpu:bf16``) where it reports none of those it negates."""
        patterns = dict(self.match).get("hardware")
        if patterns is None:
            return True
        wanted = [p for p in patterns if not p.startswith("not ")]
        refused = [p[4:].strip() for p in patterns if p.startswith("not ")]
        if any(fnmatchcase(f, p) for f in hardware for p in refused):
            return False
        return not wanted or any(fnmatchcase(f, p) for f in hardware for p in wanted)

    def to_json(self) -> dict[str, Any]:
        match: dict[str, Any] = {k: list(v) for k, v in self.match}
        if self.paths:
            alternatives = [{axis: list(v) for axis, v in p} for p in self.paths]
            match["path"] = alternatives[0] if len(alternatives) == 1 else alternatives
        return {"id": self.id, "reason": self.reason, "link": self.link, "reproducer": self.reproducer,
                "verdict": self.verdict, "match": match, "where": self.where,
                **({"inputs": [list(g) for g in self.inputs]} if self.inputs else {}),
                **({"cases_why": self.cases_why} if self.cases_why else {}),
                **({"may_pass": self.may_pass} if self.may_pass else {})}


def is_reproducer_path(reproducer: Any) -> bool:
    """``reproducer:`` names a script (one line ending in .py), rather than giving its text inline."""
    return isinstance(reproducer, str) and "\n" not in reproducer.strip() and reproducer.strip().endswith(".py")


def _reproducer(raw: dict[str, Any], node: yaml.Node | None, where: str) -> str | None:
    """The entry's reproducer as given: a path relative to the YAML file's directory, which must name an existing
    script inside it. The suite's own files (conformance/known/*.yaml) take paths only; a file given with --known
    may still give the script's text inline."""
    value = raw.get("reproducer")
    if value is None:
        return None
    at = _line(node, "reproducer", where)
    yaml_file = Path(where.rsplit(":", 1)[0])
    own = yaml_file.resolve().parent == KNOWN_DIR.resolve()
    if not is_reproducer_path(value):
        if own or not isinstance(value, str):
            raise KnownFileError(f"{at}: entry {raw['id']!r}: reproducer names a script, e.g. "
                                 f"reproducers/{yaml_file.stem}/{raw['id']}.py (relative to {yaml_file.parent}), "
                                 "that prints what the runtime gives and what the spec says and exits 0 when the bug "
                                 "shows, 1 when it does not, 2 when it cannot run; not the script's text")
        return value
    path = (yaml_file.parent / value.strip()).resolve()
    if Path(value.strip()).is_absolute() or not path.is_relative_to(yaml_file.parent.resolve()):
        raise KnownFileError(f"{at}: entry {raw['id']!r}: reproducer {value!r} must be a path inside "
                             f"{yaml_file.parent}, relative to it")
    if not path.is_file():
        raise KnownFileError(f"{at}: entry {raw['id']!r}: reproducer {value!r}: no such file ({path})")
    return value.strip()


def _ops_named(match: dict[str, Any]) -> list[ops.Op]:
    """The ops an entry can apply to: those its ``op`` names literally, else every built-in op."""
    names = match.get("op")
    names = [names] if isinstance(names, str) else names
    if isinstance(names, list) and names and all(isinstance(n, str) and not set(n) & set("*?[") for n in names):
        try:
            return [ops.get(n) for n in names]
        except ops.OpNotFound:
            pass
    return [ops.get(n) for n in ops.BUILTIN]


def _globs(value: Any, what: str, where: str) -> tuple[str, ...]:
    """A glob or a list of globs (numbers read as their text: ``opset: 3``; booleans as true / false)."""
    values = value if isinstance(value, list) else [value]
    if not values or not all(isinstance(v, (str, int, float)) for v in values):
        raise KnownFileError(f"{where}: {what} takes a glob or a list of globs; got {value!r}")
    return tuple(str(v).lower() if isinstance(v, bool) else str(v) for v in values)


def _line(node: yaml.Node | None, key: str, default: str) -> str:
    """file:line of the value of ``key`` in a mapping node, else ``default``."""
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if getattr(k, "value", None) == key:
                return default.rsplit(":", 1)[0] + f":{v.start_mark.line + 1}"
    return default


def parse_entry(raw: Any, node: yaml.Node | None, backend: str, where: str) -> Known:
    if not isinstance(raw, dict) or not {"id", "verdict", "reason"} <= set(raw):
        raise KnownFileError(f"{where}: an entry has id, conditions (match, inputs), verdict, reason and link or "
                             f"reproducer; got {raw!r}")
    unknown = set(raw) - _KEYS
    if unknown:
        raise KnownFileError(f"{where}: entry {raw['id']!r}: unknown key(s) {sorted(unknown)}; an entry takes "
                             f"{sorted(_KEYS)}")
    match = raw.get("match", {})
    at = _line(node, "match", where)
    if not isinstance(match, dict):
        raise KnownFileError(f"{at}: match is a mapping of conditions; got {match!r}")
    targets = _ops_named(match)
    fields = sorted({f for op in targets for f in op.fields})
    bad = set(match) - set(MATCH_KEYS) - set(fields)
    if bad:
        raise KnownFileError(f"{at}: unknown match key(s) {sorted(bad)}; match takes {', '.join(MATCH_KEYS)} and the "
                             f"op's fields ({', '.join(fields) or 'none'}), each a glob or a list of globs")
    path = match.get("path", {})
    alternatives = path if isinstance(path, list) and path else [path]
    if not all(isinstance(p, dict) and p and all(isinstance(k, str) for k in p) for p in alternatives) \
            and path != {}:
        raise KnownFileError(f"{at}: match.path maps path axis names to globs, e.g. {{opset: '3', target_shape: "
                             f"Parameter}}, or is a list of such maps (alternatives, one of which holds); got {path!r}")
    patterns = {k: _globs(v, f"match.{k}", at) for k, v in match.items() if k != "path"}
    paths = tuple(tuple(sorted((k, _globs(v, f"match.path.{k}", at)) for k, v in p.items()))
                  for p in alternatives if p)
    inputs = _inputs(raw.get("inputs"), targets, _line(node, "inputs", where))
    if "case" in patterns and not str(raw.get("cases_why") or "").strip():
        raise KnownFileError(f"{at}: entry {raw['id']!r} lists case ids; say in cases_why what no condition "
                             "(op, mode, path, dtype, inputs traits, ...) can describe")
    if not patterns and not paths and inputs is None:
        raise KnownFileError(f"{where}: entry {raw['id']!r} has no condition: give match and/or inputs")
    verdicts = raw["verdict"] if isinstance(raw["verdict"], list) and raw["verdict"] else [raw["verdict"]]
    if not all(isinstance(x, str) and x in FAILING for x in verdicts) or len(set(verdicts)) < len(verdicts):
        raise KnownFileError(f"{_line(node, 'verdict', where)}: verdict={raw['verdict']!r}, but should be one of "
                             f"{sorted(FAILING)}, or a list of some of them (the check gives one: what decides "
                             "which, the reason says)")
    if not raw.get("link") and not raw.get("reproducer"):
        raise KnownFileError(f"{where}: entry {raw['id']!r} needs an upstream link or a minimal reproducer")
    timeout = raw.get("timeout")
    if timeout is not None and (verdicts != ["timeout"] or isinstance(timeout, bool)
                                or not isinstance(timeout, (int, float)) or timeout <= 0):
        raise KnownFileError(f"{_line(node, 'timeout', where)}: entry {raw['id']!r}: timeout={timeout!r}; an entry "
                             "of verdict timeout may give the positive number of seconds its checks are given")
    may_pass = raw.get("may_pass")
    if may_pass is not None and (not isinstance(may_pass, str) or not may_pass.strip()):
        raise KnownFileError(f"{_line(node, 'may_pass', where)}: entry {raw['id']!r}: may_pass={may_pass!r}; it says "
                             "why a check under the entry's conditions may pass as well (what decides it, which no "
                             "condition can follow): a text")
    if may_pass is not None and not _reproducer_given(raw):
        raise KnownFileError(f"{_line(node, 'may_pass', where)}: entry {raw['id']!r}: an entry whose checks may pass "
                             "needs a reproducer (reproducer: ...), which shows the bug whatever the checks do")
    if verdicts == [WRONG_VALUES]:  # a check of the declared shape only has no values to be wrong
        patterns.setdefault("shape_only", ("false",))
    reproducer = _reproducer(raw, node, where)
    return Known(id=str(raw["id"]), backend=backend, match=tuple(sorted(patterns.items())), verdict=OR.join(verdicts),
                 reason=str(raw["reason"]).strip(), link=raw.get("link"), reproducer=reproducer,
                 where=where, inputs=inputs, paths=paths,
                 cases_why=str(raw["cases_why"]).strip() if raw.get("cases_why") else None,
                 timeout=None if timeout is None else float(timeout),
                 may_pass=str(may_pass).strip() if may_pass else None)


def _reproducer_given(raw: dict[str, Any]) -> bool:
    return bool(str(raw.get("reproducer") or "").strip())


def _inputs(inputs: Any, targets: list[ops.Op], where: str) -> tuple[tuple[str, ...], ...] | None:
    """[a, b]: traits that all hold; [[a, b], [c]]: alternatives, one of which holds in full; "not a": a does not."""
    if inputs is None:
        return None
    groups = inputs if isinstance(inputs, list) and inputs and all(isinstance(g, list) for g in inputs) else [inputs]
    known = {t for op in targets for t in op.traits}
    ok = all(isinstance(g, list) and g and all(isinstance(t, str) for t in g) for g in groups)
    unknown = sorted({t.removeprefix(NOT) for g in groups for t in g} - known) if ok else []
    if not ok or unknown:
        raise KnownFileError(f"{where}: inputs is a list of traits (or a list of such lists, alternatives), each a "
                             f"trait name or 'not <name>'{f'; unknown trait(s) {unknown}' if unknown else ''}; "
                             f"traits: {', '.join(sorted(known))}; got {inputs!r}")
    return tuple(tuple(g) for g in groups)


def read_file(path: Path, backend: str | None = None) -> list[Known]:
    """The entries of one file (backend: the file's stem unless given); KnownFileError names file:line."""
    backend = backend or path.stem
    try:
        text = path.read_text(encoding="utf-8")
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        raws = yaml.safe_load(text) or []
    except (OSError, yaml.YAMLError) as e:
        raise KnownFileError(f"{path}:{getattr(getattr(e, 'problem_mark', None), 'line', -1) + 1}: {e}") from None
    if not isinstance(raws, list):
        raise KnownFileError(f"{path}:1: a known-differences file is a list of entries")
    nodes = node.value if isinstance(node, yaml.SequenceNode) else [None] * len(raws)
    return [parse_entry(raw, n, backend, f"{path}:{n.start_mark.line + 1 if n is not None else 1}")
            for raw, n in zip(raws, nodes, strict=True)]


def load(paths: list[Path] | None = None) -> dict[str, list[Known]]:
    """backend name -> entries, from conformance/known/*.yaml and any extra files (named after the backend).
    An entry id given twice for one backend (in one file or across its files) is an error."""
    entries: dict[str, list[Known]] = {}
    seen: dict[tuple[str, str], str] = {}
    files = sorted(KNOWN_DIR.glob("*.yaml")) + [Path(p) for p in paths or []]
    for path in dict.fromkeys(p.resolve() for p in files):  # a file given twice is read once
        for k in read_file(path):
            first = seen.setdefault((k.backend, k.id), k.where)
            if first != k.where:
                raise KnownFileError(f"{k.where}: duplicate entry id {k.id!r} for backend {k.backend!r} (first at "
                                     f"{first})")
            entries.setdefault(k.backend, []).append(k)
    return entries
