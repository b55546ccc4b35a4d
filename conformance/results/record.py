"""The records a results file is made of, typed: one definition of the layout, for the run that writes it, the
report that reads it and the tests that fake it. conformance/results/results.schema.json says the same in JSON
Schema (tests/test_results_records.py holds the two together).

Layout (``format`` = FORMAT)::

    {"format": FORMAT, "run": RunInfo, "runs": [RunInfo] (a merge of several files only),
     "backends": {name: BackendInfo}, "cases": {case id: CaseRecord}, "checks": [CheckRecord],
     "unmatched_known": [{"backend": str, "entry": {...}}], "known_on_other_paths": [{"backend", "entry"}],
     "collection_errors": [{"file", "line", "message"}]}

A check is case x backend x path x element type (dtype) x shape type (shape_dtype); its ``key``
(``<case id>[<part>]``, the id's last ``::`` segment) is what comparisons match on, so a file of format /1 (the
ids had another prefix) compares with one of format /2. Files of format /1 are read into the same records
(``Results.from_json``): op "broadcast", params from the case's flat keys, the path from the variant label.

Reading is lenient (a field missing gets its default, an unknown one is dropped): validation is the schema's
job, and the report shows whatever a file holds as untrusted text.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Self

FORMAT = "broadcast-conformance-results/2"
FORMAT_1 = "broadcast-conformance-results/1"  # before the redesign: read, never written
FORMATS = (FORMAT, FORMAT_1)

# How the outcome that decided a check was computed: in a model of its own or a shared one; an outcome that failed
# in a worker that had run other checks is computed again on a model of its own in a fresh worker (that counts).
MODELS = ("own", "shared", "own, fresh worker", "own, then fresh worker", "shared, then fresh worker",
          "shared, then own",  # format /1 and runs before fresh-worker confirmation
          "shared, also own")  # a passing shared check of the sample computed on a model of its own too, passing
# Where an implementation's rejection or failure came from (conformance.backends.Outcome.stage).
STAGES = ("build", "validate", "compile", "infer", "worker")


@functools.cache
def _names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def _pick(cls: type, data: Mapping[str, Any]) -> dict[str, Any]:
    """The keys of `data` that are fields of the dataclass `cls`."""
    names = _names(cls)
    return {k: v for k, v in data.items() if k in names}


class _Record:
    """A dataclass written as every field, and read from the fields a mapping gives (the others get their
    defaults; keys of no field are dropped)."""

    def to_json(self) -> dict[str, Any]:
        # Annotated as plain `type`: mypy does not see type[_Record] as Hashable (it checks the class's
        # __hash__ as an unbound method), which functools.cache asks of its arguments.
        cls: type = type(self)
        return {name: getattr(self, name) for name in _names(cls)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls(**_pick(cls, data))


def _as(cls: type[_Record], value: Any) -> Any:
    """`value` as a `cls` record: None stays None, a record stays itself, a mapping is read with from_json."""
    if value is None or isinstance(value, cls):
        return value
    if isinstance(value, dict) or isinstance(value, Mapping):  # noqa: SIM101  (dict first: the common case, fast)
        return cls.from_json(value)
    raise TypeError(f"{cls.__name__}: expected a mapping, got {type(value).__name__}")


@dataclass
class Expected(_Record):
    """What the reference says: an output (shape, and dtype for a check), or a rejection naming a rule."""

    shape: list[Any] | None = None
    dtype: str | None = None
    reject: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"reject": self.reject} if self.reject is not None else {"shape": self.shape, "dtype": self.dtype}


@dataclass
class Actual(_Record):
    """What the implementation did: its output's shape and dtype, the shape it declared before running, or its
    error, the stage it came from and the rule a rejection was judged to be about."""

    shape: list[Any] | None = None
    dtype: str | None = None
    declared_shape: list[Any] | None = None
    error: str | None = None
    stage: str | None = None
    rule: str | None = None


@dataclass
class FirstDiff(_Record):
    """The first output element that differs from the reference, and how many do (of how many)."""

    index: list[int] | None = None
    expected: str | None = None
    actual: str | None = None
    count: int | None = None
    size: int | None = None


@dataclass
class CheckRecord(_Record):
    """One check's result (results.json "checks"). Built by the run with keywords; only id, case and backend
    have no default. expected/actual/first_diff may be given as records or as their JSON mappings."""

    id: str  # <case file>::<case id>[<backend>-<path label>-<dtype>[-shape_<shape dtype>]]
    case: str
    backend: str
    op: str = "broadcast"
    backend_version: str | None = None
    path: dict[str, str] = field(default_factory=dict)  # axis name -> value, e.g. {"opset": "3", ...}
    variant: str = ""  # the path's label, e.g. "opset3-const"
    dtype: str = ""
    shape_dtype: str = ""
    verdict: str = "pass"  # one of conformance.verdicts.VERDICTS
    message: str | None = None
    expected: Expected | None = None
    actual: Actual | None = None
    first_diff: FirstDiff | None = None
    known: dict[str, Any] | None = None  # the known difference's entry (conformance.known), when one matched
    duration: float = 0.0  # seconds
    rerun: str = ""  # a shell command that runs this check again
    model: str | None = None  # one of MODELS, or None where no model was built
    # A failing check no known difference explains: the entries whose conditions all hold but one
    # (conformance.known.near), each {"id", "differs_in", "entry", "check", "verdict", "where"}; None: not asked
    looks_like: list[dict[str, Any]] | None = None

    def __post_init__(self) -> None:
        self.expected = _as(Expected, self.expected)
        self.actual = _as(Actual, self.actual)
        self.first_diff = _as(FirstDiff, self.first_diff)

    @property
    def key(self) -> str:
        """``<case id>[<part>]``: the id less its file prefix, the same in files of format /1 and /2."""
        return key_of(self.id)

    @property
    def column(self) -> str:
        """The report's column: backend@version, so runs of several versions sit side by side."""
        return f"{self.backend}@{self.backend_version}" if self.backend_version else self.backend

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        for name in ("expected", "actual", "first_diff"):
            out[name] = out[name].to_json() if out[name] is not None else None
        if out["looks_like"] is None:  # asked of failing checks only: the others' records stay as they were
            del out["looks_like"]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any], format: str = FORMAT) -> CheckRecord:
        if format == FORMAT_1:
            data = {**data, "op": "broadcast",
                    "path": path_from_v1_label(str(data.get("backend", "")), str(data.get("variant") or ""))}
        kept = _pick(cls, data)
        for name in ("expected", "actual", "first_diff"):
            if kept.get(name) is not None and not isinstance(kept[name], Mapping):
                kept[name] = None  # a malformed file: the report shows the rest of the check
            elif kept.get(name) == {}:
                kept[name] = None
        return cls(**kept)


def key_of(check_id: str) -> str:
    """A check id's last ``::`` segment (``<case id>[<part>]``), what comparisons across files match on."""
    head, bracket, tail = check_id.partition("[")
    return head.rsplit("::", 1)[-1] + bracket + tail


@dataclass
class CaseRecord(_Record):
    """A case as the results describe it (results.json "cases", keyed by case id)."""

    file: str | None = None  # relative to the rootdir
    line: int | None = None
    group: str | None = None  # spec_example, rule, interpretation, edge, upstream, found, generated
    op: str = "broadcast"  # a name conformance.ops.get resolves
    params: dict[str, Any] = field(default_factory=dict)  # the op's to_json(params)
    expect: Expected | None = None  # {"shape"} or {"reject": rule}
    spec_ref: str | None = None
    description: str | None = None
    source: str | None = None  # where an upstream case comes from
    upstream_error: str | None = None
    interpretation: str | None = None
    text: str | None = None  # the case as written in its file

    def __post_init__(self) -> None:
        self.expect = _as(Expected, self.expect)

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        expect = self.expect
        out["expect"] = None if expect is None else ({"reject": expect.reject} if expect.reject is not None
                                                     else {"shape": expect.shape})
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any], format: str = FORMAT) -> CaseRecord:
        if format == FORMAT_1:
            data = {**data, "op": "broadcast", "params": {k: data.get(k) for k in V1_PARAMS if k in data}}
        kept = _pick(cls, data)
        if kept.get("expect") is not None and not isinstance(kept["expect"], Mapping):
            kept["expect"] = None
        return cls(**kept)


V1_PARAMS = ("mode", "versions", "data_shape", "target_shape", "axes_mapping")  # a /1 case's flat broadcast keys


def path_from_v1_label(backend: str, label: str) -> dict[str, str]:
    """The path of a check in a file of format /1, which named it by its label only ("variant")."""
    if backend == "local":
        return {"op": label} if label else {}
    m = re.fullmatch(r"opset(\d+)-(const|param|init|input)", label)
    if m is None:
        return {}
    shape = {"const": "Constant", "param": "Parameter", "init": "initializer", "input": "input"}[m[2]]
    return {"opset": m[1], "target_shape" if m[2] in ("const", "param") else "shape": shape}


@dataclass
class RunInfo(_Record):
    """What a run was and ran on."""

    started: str | None = None  # ISO-8601
    finished: str | None = None
    complete: bool = False  # False: interrupted, or still running (a stream read midway)
    suite_commit: str | None = None
    python: str | None = None
    platform: str | None = None
    cpu: str | None = None
    argv: list[str] = field(default_factory=list)  # pytest's arguments
    wall_time: float | None = None  # seconds
    packages: dict[str, str] = field(default_factory=dict)  # name -> version
    command: str | None = None  # the command line that ran (e.g. python3 -m pytest conformance -n auto)
    # a run of part of the suite (options, -k, a node id left checks out): what it did not select is not "removed"
    part: bool | None = None

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        for optional in ("command", "part"):
            if out[optional] is None:  # a file written before the field, read and written again
                del out[optional]
        return out


@dataclass
class BackendInfo(_Record):
    """A backend as the run found it; `name` is set in a merge, whose backends are keyed by backend@version."""

    version: str | None = None
    available: bool | None = None
    reason: str | None = None  # why it is not available
    hardware: list[str] = field(default_factory=list)  # e.g. "cpu:bf16": known differences may depend on it
    name: str | None = None
    # where it ran: {"axis": "device", "values": {"CPU": None, "GPU": "absent here: ..."}} (Backend.targets)
    targets: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        for optional in ("hardware", "name", "targets"):
            if not out[optional]:
                del out[optional]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BackendInfo:
        kept = _pick(cls, data)
        kept["hardware"] = kept.get("hardware") or []
        kept["targets"] = kept.get("targets") or {}
        return cls(**kept)


@dataclass
class Results:
    """A results file's document: one run's, or several merged (then `runs` lists each)."""

    run: RunInfo = field(default_factory=RunInfo)
    backends: dict[str, BackendInfo] = field(default_factory=dict)
    cases: dict[str, CaseRecord] = field(default_factory=dict)
    checks: list[CheckRecord] = field(default_factory=list)
    unmatched_known: list[dict[str, Any]] = field(default_factory=list)
    known_on_other_paths: list[dict[str, str]] = field(default_factory=list)  # met only on paths not run
    collection_errors: list[dict[str, Any]] = field(default_factory=list)
    failed_items: list[dict[str, Any]] = field(default_factory=list)  # items that failed with no check recorded
    runs: list[RunInfo] = field(default_factory=list)
    format: str = FORMAT  # the format it was read from; to_json always writes FORMAT

    def __post_init__(self) -> None:
        self.run = _as(RunInfo, self.run)
        self.backends = {k: _as(BackendInfo, v) for k, v in self.backends.items()}
        self.cases = {k: _as(CaseRecord, v) for k, v in self.cases.items()}
        self.checks = [_as(CheckRecord, c) for c in self.checks]
        self.runs = [_as(RunInfo, r) for r in self.runs]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "run": self.run.to_json()}
        if self.runs:
            out["runs"] = [r.to_json() for r in self.runs]
        out |= {"backends": {k: b.to_json() for k, b in self.backends.items()},
                "cases": {k: c.to_json() for k, c in self.cases.items()},
                "checks": [c.to_json() for c in self.checks],
                "unmatched_known": list(self.unmatched_known), "known_on_other_paths": list(self.known_on_other_paths),
                "collection_errors": list(self.collection_errors)}
        if self.failed_items:
            out["failed_items"] = list(self.failed_items)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Results:
        """A document of format /2 or /1; ValueError for any other format, or no document at all."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a results document is a JSON object, not {type(data).__name__}")
        format = data.get("format")
        if format not in FORMATS:
            raise ValueError(f"format={format!r}, but should be {FORMAT!r} (or {FORMAT_1!r})")
        if not isinstance(data.get("run"), Mapping) or not isinstance(data.get("checks"), list):
            raise ValueError("malformed results: no 'run' object or no 'checks' list")
        checks = data["checks"]
        if not all(isinstance(c, Mapping) and {"id", "case", "backend", "verdict"} <= c.keys() for c in checks):
            raise ValueError("malformed results: a check without its id, case, backend or verdict")
        return cls(run=RunInfo.from_json(data["run"]),
                   runs=[RunInfo.from_json(r) for r in data.get("runs") or [] if isinstance(r, Mapping)],
                   backends={str(k): BackendInfo.from_json(v) for k, v in (data.get("backends") or {}).items()
                             if isinstance(v, Mapping)},
                   cases={str(k): CaseRecord.from_json(v, format) for k, v in (data.get("cases") or {}).items()
                          if isinstance(v, Mapping)},
                   checks=[CheckRecord.from_json(c, format) for c in checks],
                   unmatched_known=list(data.get("unmatched_known") or []),
                   known_on_other_paths=list(data.get("known_on_other_paths") or []),
                   collection_errors=list(data.get("collection_errors") or []),
                   failed_items=list(data.get("failed_items") or []), format=format)
