"""Case files: YAML in, validated Case records out, every problem named with its file and line.

Loading uses PyYAML's safe loader only (``yaml.compose`` for positions, ``yaml.safe_load`` for values),
so no tag can construct an object. A case's ``expect`` is checked against the reference at load time:
a case that contradicts the spec's own rule is a collection error, not a backend failure.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import numpy as np
import yaml

import reference

SCHEMA_PATH = Path(__file__).with_name("case.schema.json")
# libyaml's safe loader where PyYAML has it (about 10x faster, same marks and tags), else the pure-Python one
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
DEFAULT_VERSIONS = {"numpy": (1, 3), "explicit": (1, 3), "bidirectional": (3,)}
GENERATED = "generated"  # the group of cases drawn by conformance/generated.py (never of a case file)


class CaseFileError(Exception):
    """A problem in a case file, with where it is."""

    def __init__(self, file: str, line: int | None, message: str) -> None:
        self.file, self.line, self.message = file, line, message
        super().__init__(f"{file}:{line}: {message}" if line else f"{file}: {message}")


@dataclass(frozen=True)
class Case:
    id: str
    file: str
    line: int
    group: str
    mode: str
    versions: tuple[int, ...]
    data_shape: tuple[int | None, ...]  # None: a dimension unknown when the graph is built ("?")
    target_shape: Any  # a list of ints, or nested lists where a case tests the 1-D rule
    axes_mapping: Any
    expect_shape: tuple[int | None, ...] | None
    expect_reject: str | None
    spec_ref: str
    description: str | None = None
    dtypes: tuple[str, ...] | None = None
    source: str | None = None
    interpretation: str | None = None
    upstream_error: str | None = None
    shape_dtypes: tuple[str, ...] = ("i64",)  # integer types of target_shape and axes_mapping to sweep
    text: str = field(default="", compare=False)

    @property
    def valid(self) -> bool:
        return self.expect_reject is None

    @property
    def dynamic(self) -> bool:
        """Some data dimension is unknown when the graph is built: the case checks declared shapes only."""
        return None in self.data_shape

    def summary(self) -> str:
        axes = f", axes_mapping {self.axes_mapping}" if self.axes_mapping is not None else ""
        return f"{self.mode}, data {show_dims(self.data_shape)}, target_shape {self.target_shape}{axes}"

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "group": self.group, "mode": self.mode,
                "versions": list(self.versions), "data_shape": as_yaml_dims(self.data_shape),
                "target_shape": self.target_shape, "axes_mapping": self.axes_mapping,
                "expect": ({"shape": as_yaml_dims(self.expect_shape or ())} if self.valid
                           else {"reject": self.expect_reject}),
                "spec_ref": self.spec_ref, "description": self.description, "source": self.source,
                "upstream_error": self.upstream_error, "interpretation": self.interpretation, "text": self.text}


def dims_from_yaml(dims: list[Any]) -> tuple[int | None, ...]:
    return tuple(None if d == "?" else d for d in dims)


def as_yaml_dims(dims: tuple[int | None, ...]) -> list[int | str]:
    return ["?" if d is None else d for d in dims]


def show_dims(dims: tuple[int | None, ...]) -> str:
    shown = ", ".join("?" if d is None else str(d) for d in dims)
    return f"({shown},)" if len(dims) == 1 else f"({shown})"


@cache
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


def _node_at(node: yaml.Node, path: Iterable[Any]) -> yaml.Node:
    """The YAML node a jsonschema error path points at (as deep as the path can be followed)."""
    for step in path:
        if isinstance(node, yaml.MappingNode):
            children = [v for k, v in node.value if k.value == step]
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            children = [node.value[step]]
        else:
            children = []
        if not children:
            break
        node = children[0]
    return node


def _bad_keys(node: yaml.Node) -> Iterator[tuple[yaml.Node, str]]:
    """Keys given twice in one mapping (PyYAML silently keeps the last, which would hide a typo), and keys
    that are not plain scalars (``? [a, b]``)."""
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key, value in node.value:
            if not isinstance(key, yaml.ScalarNode):
                yield key, "a mapping key must be a plain name, not a list or mapping"
            elif key.value in seen:
                yield key, f"key {key.value!r} given twice in one mapping"
            else:
                seen.add(key.value)
            yield from _bad_keys(value)
    elif isinstance(node, yaml.SequenceNode):
        for child in node.value:
            yield from _bad_keys(child)


# Bounds on what one case file may hold: far beyond any real case file, far below what hurts the run.
MAX_FILE_BYTES = 1_000_000
MAX_NODES = 200_000  # counted with every alias expanded: an alias bomb is small on disk, huge in memory
MAX_DEPTH = 32


def _check_bounds(name: str, root: yaml.Node) -> None:
    """Depth and expanded size of the node graph, in linear time (aliases are shared node objects)."""
    expanded: dict[int, int] = {}
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, children_done = stack.pop()
        if depth > MAX_DEPTH:
            raise CaseFileError(name, node.start_mark.line + 1, f"nesting deeper than {MAX_DEPTH} levels")
        if id(node) in expanded:
            continue
        if isinstance(node, yaml.MappingNode):
            children = [n for pair in node.value for n in pair]
        elif isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        else:
            expanded[id(node)] = 1
            continue
        if not children_done:
            stack.append((node, depth, True))
            stack.extend((child, depth + 1, False) for child in children if id(child) not in expanded)
            continue
        expanded[id(node)] = 1 + sum(expanded[id(child)] for child in children)
        if expanded[id(node)] > MAX_NODES:
            raise CaseFileError(name, node.start_mark.line + 1,
                                f"more than {MAX_NODES} values once aliases are expanded (an alias bomb?)")


def _parse(path: Path, name: str) -> tuple[Any, yaml.Node, str]:
    raw = path.read_bytes()
    if len(raw) > MAX_FILE_BYTES:
        raise CaseFileError(name, 1, f"file is {len(raw) / 1e6:.1f} MB, but a case file may hold at most "
                                     f"{MAX_FILE_BYTES / 1e6:g} MB: split it")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise CaseFileError(name, line, f"not UTF-8 text ({e.reason} at byte {e.start})") from None
    loader = None
    try:
        loader = SAFE_LOADER(text)  # the safe loader only: no tag can construct an object
        root = loader.get_single_node()
        if root is None:
            raise CaseFileError(name, 1, "empty file: a case file has `group` and a list of `cases`")
        _check_bounds(name, root)
        for key, problem in _bad_keys(root):
            raise CaseFileError(name, key.start_mark.line + 1, problem)
        data = loader.construct_document(root)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        raise CaseFileError(name, mark.line + 1 if mark else None, f"YAML error: {e.problem or e}") from None
    except yaml.reader.ReaderError as e:
        line = text[: e.position].count("\n") + 1
        raise CaseFileError(name, line, f"YAML error: unacceptable character #x{e.character:04x}") from None
    except yaml.YAMLError as e:
        raise CaseFileError(name, None, f"YAML error: {e}") from None
    except RecursionError:
        raise CaseFileError(name, None, "nesting too deep for the YAML parser") from None
    finally:
        if loader is not None:
            loader.dispose()
    return data, root, text


def _check_semantics(case: Case) -> str | None:
    """Rules a schema cannot say; returns the problem or None."""
    if case.mode == "bidirectional" and set(case.versions) - {3}:
        return "versions: Broadcast-1 and nGraph Broadcast have no bidirectional mode; use [3]"
    if 0 in case.versions and (case.mode != "explicit" or not case.valid):
        return "versions: 0 (nGraph Broadcast) applies to valid explicit-mode cases only"
    if case.expect_shape is not None and None in case.expect_shape and not case.dynamic:
        return "expect.shape: \"?\" is for cases whose data_shape has a \"?\" (a static input has a static output)"
    for name in ("target_shape", "axes_mapping"):
        try:
            np.asarray(getattr(case, name) or [], dtype=np.int64)
        except ValueError:
            return f"{name}: nested lists of unequal lengths are no tensor; give one list per row, all equally long"
    try:
        shape = reference.output_shape(case.data_shape, case.target_shape, case.axes_mapping, case.mode)
    except reference.BroadcastRuleError as e:
        if case.valid:
            return f"expect.shape={as_yaml_dims(case.expect_shape or ())}, but the reference rejects it: {e}"
        if e.rule != case.expect_reject:
            return f"expect.reject={case.expect_reject}, but the reference rejects for rule {e.rule}: {e}"
        return None
    if not case.valid:
        return f"expect.reject={case.expect_reject}, but the reference accepts it with shape {as_yaml_dims(shape)}"
    if tuple(shape) != case.expect_shape:
        return (f"expect.shape={as_yaml_dims(case.expect_shape or ())}, but the reference gives "
                f"{as_yaml_dims(tuple(shape))}")
    return None


def load_file(path: Path, root_dir: Path) -> list[Case]:
    """Every case of one file, or CaseFileError for the first problem found."""
    try:
        name = path.relative_to(root_dir).as_posix()
    except ValueError:
        name = path.as_posix()
    data, root, text = _parse(path, name)
    errors = sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        err = min(errors, key=lambda e: len(e.absolute_path))  # the outermost problem explains the rest
        where = "/".join(map(str, err.absolute_path)) or "top level"
        node = _node_at(root, err.absolute_path)
        raise CaseFileError(name, node.start_mark.line + 1, f"{where}: {err.message}")
    lines = text.splitlines()
    cases = []
    for raw, node in zip(data["cases"], _node_at(root, ["cases"]).value, strict=True):
        expect = raw["expect"]
        mode = raw["mode"]
        case = Case(
            id=raw["id"], file=name, line=node.start_mark.line + 1, group=data["group"], mode=mode,
            versions=tuple(raw.get("versions", DEFAULT_VERSIONS[mode])),
            data_shape=dims_from_yaml(raw["data_shape"]), target_shape=raw["target_shape"],
            axes_mapping=raw.get("axes_mapping"),
            expect_shape=dims_from_yaml(expect["shape"]) if "shape" in expect else None,
            expect_reject=expect.get("reject"), spec_ref=raw["spec_ref"], description=raw.get("description"),
            dtypes=tuple(raw["dtypes"]) if "dtypes" in raw else None, source=raw.get("source"),
            interpretation=raw.get("interpretation"), upstream_error=raw.get("upstream_error"),
            shape_dtypes=tuple(raw.get("shape_dtypes", ("i64",))),
            text="\n".join(lines[node.start_mark.line:node.end_mark.line]).rstrip(),
        )
        problem = _check_semantics(case)
        if problem:
            raise CaseFileError(name, case.line, f"case {case.id}: {problem}")
        cases.append(case)
    return cases


def case_files(cases_dir: Path) -> list[Path]:
    return sorted(p for p in cases_dir.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def load_all(cases_dir: Path, root_dir: Path | None = None) -> tuple[dict[Path, list[Case]],
                                                                      dict[Path, CaseFileError]]:
    """All case files under cases_dir: the cases of each good file, and the error of each bad one.

    A case id used twice is an error in the later file (by path order), naming both places.
    """
    root_dir = root_dir or cases_dir.parent
    loaded: dict[Path, list[Case]] = {}
    errors: dict[Path, CaseFileError] = {}
    first: dict[str, Case] = {}
    for path in case_files(cases_dir):
        try:
            cases = load_file(path, root_dir)
        except CaseFileError as e:
            errors[path] = e
            continue
        seen = dict(first)
        for case in cases:
            if case.id in seen:
                other = seen[case.id]
                errors[path] = CaseFileError(case.file, case.line, f"duplicate case id {case.id!r}: "
                                             f"first defined at {other.file}:{other.line}")
                break
            seen[case.id] = case
        else:
            first = seen
            loaded[path] = cases
    return loaded, errors
