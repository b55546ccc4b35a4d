"""Case files: YAML in, validated Case records out, every problem named with its file and line.

A case names its op (``op:``, ``broadcast`` where omitted); what is particular to the op (its keys, rules and
reference) is the op's (conformance/ops/). A case's ``expect`` is checked against the op's reference at load
time: a case that contradicts the spec's own rule is a collection error, not a backend failure. Reading the
YAML safely is conformance/cases/yaml_file.py's; the schema is conformance/cases/schema.py's.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance import ops
from conformance.cases.schema import GENERATED, GROUPS, case_validator, file_validator
from conformance.cases.yaml_file import CaseFileError, node_at, parse
from conformance.ops.base import Shape

COMMON_KEYS = ("id", "op", "description", "expect", "spec_ref", "dtypes", "source", "shape_dtypes",
               "upstream_error", "interpretation")


@dataclass(frozen=True)
class Case:
    id: str
    file: str
    line: int
    group: str
    op: str
    params: Any  # the op's own: for broadcast a BroadcastParams (mode, versions, data_shape, ...)
    expect_shape: Shape | None
    expect_reject: str | None
    spec_ref: str
    description: str | None = None
    dtypes: tuple[str, ...] | None = None
    source: str | None = None
    interpretation: str | None = None
    upstream_error: str | None = None
    shape_dtypes: tuple[str, ...] = ("i64",)  # integer types of the shape inputs to sweep
    text: str = field(default="", compare=False)

    @property
    def spec(self) -> ops.Op:
        return ops.get(self.op)

    @property
    def valid(self) -> bool:
        return self.expect_reject is None

    @property
    def dynamic(self) -> bool:
        """Some data dimension is unknown when the graph is built: the case checks declared shapes only."""
        return any(None in shape for shape in self.spec.data_shapes(self.params).values())

    def summary(self) -> str:
        return self.spec.summary(self.params)

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "group": self.group, "op": self.op,
                "params": self.spec.to_json(self.params),
                "expect": ({"shape": as_yaml_dims(self.expect_shape or ())} if self.valid
                           else {"reject": self.expect_reject}),
                "spec_ref": self.spec_ref, "description": self.description, "source": self.source,
                "upstream_error": self.upstream_error, "interpretation": self.interpretation, "text": self.text}


def dims_from_yaml(dims: list[Any]) -> Shape:
    return tuple(None if d == "?" else d for d in dims)


def as_yaml_dims(dims: Shape) -> list[int | str]:
    return ["?" if d is None else d for d in dims]


def check_expectation(case: Case) -> str | None:
    """What is wrong with a case beyond its schema: the op's own rules, then its expect against the reference."""
    spec = case.spec
    problem = spec.problems(case.params, case.valid)
    if problem:
        return problem
    if case.expect_shape is not None and None in case.expect_shape and not case.dynamic:
        return "expect.shape: \"?\" is for cases whose data_shape has a \"?\" (a static input has a static output)"
    shape, rule = spec.outcome(case.params)
    if rule is not None:
        if case.valid:
            return (f"expect.shape={as_yaml_dims(case.expect_shape or ())}, but the reference rejects it "
                    f"[{rule}]: {spec.summary(case.params)}")
        if rule != case.expect_reject:
            return f"expect.reject={case.expect_reject}, but the reference rejects for rule {rule}"
        return None
    assert shape is not None
    if not case.valid:
        return f"expect.reject={case.expect_reject}, but the reference accepts it with shape {as_yaml_dims(shape)}"
    if tuple(shape) != case.expect_shape:
        return (f"expect.shape={as_yaml_dims(case.expect_shape or ())}, but the reference gives "
                f"{as_yaml_dims(tuple(shape))}")
    return None


def _schema_error(validator: Any, data: Any, root: Any, at: list[Any], name: str) -> None:
    errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        # The outermost problem explains the rest; of those, a plain one before "not valid under any of the given
        # schemas" (oneOf), which is told by the problem of the alternative that got furthest: the deepest
        err = min(errors, key=lambda e: (len(e.absolute_path), e.validator in ("oneOf", "anyOf")))
        while err.validator in ("oneOf", "anyOf") and err.context:
            err = max(err.context, key=lambda e: len(e.absolute_path))
        path = [*at, *err.absolute_path]
        where = "/".join(map(str, path)) or "top level"
        raise CaseFileError(name, node_at(root, path).start_mark.line + 1, f"{where}: {err.message}")


def case_from(raw: dict[str, Any], name: str, line: int, group: str, text: str) -> Case:
    """One case of a file, already valid by its op's schema."""
    spec = ops.get(raw.get("op", ops.DEFAULT))
    expect = raw["expect"]
    return Case(
        id=raw["id"], file=name, line=line, group=group, op=raw.get("op", spec.name),
        params=spec.parse({k: v for k, v in raw.items() if k not in COMMON_KEYS}),
        expect_shape=dims_from_yaml(expect["shape"]) if "shape" in expect else None,
        expect_reject=expect.get("reject"), spec_ref=raw["spec_ref"], description=raw.get("description"),
        dtypes=tuple(raw["dtypes"]) if "dtypes" in raw else None, source=raw.get("source"),
        interpretation=raw.get("interpretation"), upstream_error=raw.get("upstream_error"),
        shape_dtypes=tuple(raw.get("shape_dtypes", ("i64",))), text=text)


def display_name(path: Path, root_dir: Path) -> str:
    """How errors and results name a file: relative to the project root where it is under it."""
    try:
        return path.relative_to(root_dir).as_posix()
    except ValueError:
        return path.as_posix()


def load_file(path: Path, root_dir: Path) -> list[Case]:
    """Every case of one file, or CaseFileError for the first problem found."""
    name = display_name(path, root_dir)
    data, root, text = parse(path, name)
    _schema_error(file_validator(), data, root, [], name)
    lines = text.splitlines()
    cases = []
    for i, (raw, node) in enumerate(zip(data["cases"], node_at(root, ["cases"]).value, strict=True)):
        op_name = raw.get("op", ops.DEFAULT)
        try:
            validator = case_validator(op_name)
        except ops.OpNotFound as e:
            raise CaseFileError(name, node_at(root, ["cases", i, "op"]).start_mark.line + 1,
                                f"cases/{i}/op: {e}") from None
        _schema_error(validator, raw, root, ["cases", i], name)
        case = case_from(raw, name, node.start_mark.line + 1, data["group"],
                         "\n".join(lines[node.start_mark.line:node.end_mark.line]).rstrip())
        problem = check_expectation(case)
        if problem:
            raise CaseFileError(name, case.line, f"case {case.id}: {problem}")
        cases.append(case)
    return cases


CASE_SUFFIXES = (".yaml", ".yml")  # in any case: a.YAML is a case file too


def is_case_file(path: Path) -> bool:
    return path.suffix.lower() in CASE_SUFFIXES


def linked_directory(name: str) -> CaseFileError:
    return CaseFileError(name, None, "a symbolic link to a directory: the suite reads the case directory's own "
                                     "folders only (a link may lead outside it, or back into it); link the case "
                                     "files themselves, or copy them")


def unreadable_directory(name: str, error: OSError) -> CaseFileError:
    return CaseFileError(name, None, f"directory cannot be read: {error.strerror or error}; its case files were not "
                                     "run")


def scan(cases_dir: Path, root_dir: Path | None = None) -> tuple[list[Path], dict[Path, CaseFileError]]:
    """The case files under cases_dir (a name ending .yaml or .yml, in any case; a link to a file is read
    through), in path order, and what cannot be: a directory that cannot be listed, a link to a directory.
    A case file that cannot be read (not a regular file, no permission) is named when it is (load_file)."""
    root_dir = root_dir or cases_dir.parent
    files: list[Path] = []
    problems: dict[Path, CaseFileError] = {}

    def unreadable(error: OSError) -> None:
        path = Path(error.filename)
        problems[path] = unreadable_directory(display_name(path, root_dir), error)

    for folder, dirs, names in os.walk(cases_dir, onerror=unreadable):
        here = Path(folder)
        for d in dirs:
            if (here / d).is_symlink():
                problems[here / d] = linked_directory(display_name(here / d, root_dir))
        files += [here / n for n in names if is_case_file(here / n)]
    return sorted(files), problems


def case_files(cases_dir: Path) -> list[Path]:
    return scan(cases_dir)[0]


def load_all(cases_dir: Path, root_dir: Path | None = None) -> tuple[dict[Path, list[Case]],
                                                                      dict[Path, CaseFileError]]:
    """All case files under cases_dir: the cases of each good file, and the error of each bad one.

    A case id used twice is an error in the later file (by path order), naming both places.
    """
    root_dir = root_dir or cases_dir.parent
    loaded: dict[Path, list[Case]] = {}
    errors: dict[Path, CaseFileError] = {}
    first: dict[str, Case] = {}
    paths, problems = scan(cases_dir, root_dir)
    errors.update(problems)
    for path in paths:
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


__all__ = ["GENERATED", "GROUPS", "Case", "CaseFileError", "as_yaml_dims", "case_files", "check_expectation",
           "dims_from_yaml", "display_name", "is_case_file", "linked_directory", "load_all", "load_file", "scan",
           "unreadable_directory"]
