"""What an operation under test provides: everything about it that the stages of a check need, in one object.

The harness (cases, plans, the judge, known differences, the report) never looks inside an op's parameters: it
asks the op. A new op is a package with a module-level ``OP = Op(...)`` and case files naming it (``op: <name>``
for a built-in op, or the op package's module path, e.g. ``op: tests.toy_op``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

Shape = tuple[int | None, ...]


class RuleError(ValueError):
    """An input breaks a rule of the op's spec; ``rule`` is one of the op's ``rules``."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(message)


@dataclass(frozen=True)
class Op:
    name: str  # as case files name it
    title: str  # what the report calls it
    # The case-file keys particular to this op: JSON Schema properties, and those a case must give.
    schema: Mapping[str, Any]
    required: tuple[str, ...]
    rules: Mapping[str, str]  # rule name -> what it says; a rejection names one of them
    parse: Callable[[Mapping[str, Any]], Any]  # a case's op keys (valid by ``schema``) -> its params
    to_json: Callable[[Any], dict[str, Any]]  # params -> the case record's "params" (JSON)
    from_json: Callable[[Mapping[str, Any]], Any]
    summary: Callable[[Any], str]  # params in one line, as a person reads them
    # The outcome the spec prescribes: (output shape, None), or (None, the rule broken); never raises
    outcome: Callable[[Any], tuple[Shape | None, str | None]]
    problems: Callable[[Any, bool], str | None]  # (params, valid) -> what a schema cannot say is wrong, or None
    data_shapes: Callable[[Any], dict[str, Shape]]  # the data inputs (filled with conformance.data values)
    # The integer inputs that say the shapes (None: not given), in the integer type a check sweeps
    shape_inputs: Callable[[Any, np.dtype], dict[str, np.ndarray | None]]
    attributes: Callable[[Any], dict[str, Any]]
    # The reference output of a valid case, given its data inputs and the op version a path runs (or None)
    expected: Callable[[Any, Mapping[str, np.ndarray], int | None], np.ndarray]
    # the op versions a case applies to (() for an op of one version); elementwise: the function names it runs
    versions: Callable[[Any], tuple[Any, ...]]
    label: Callable[[Any], str]  # the op's name at a version, for messages: "Broadcast-3"
    # Named properties of params, for known differences: name -> (predicate, description)
    traits: Mapping[str, tuple[Callable[[Any], bool], str]] = field(default_factory=dict)
    # Our own implementation: (request) -> Outcome, by the local backend's "op" path value it serves
    local: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    local_versions: Mapping[str, Any] = field(default_factory=dict)  # that value -> the op version it runs
    # the local path values that run a case's params: value -> None, or why it does not apply
    local_paths: Callable[[Any], dict[str, str | None]] = lambda params: {}
    # hypothesis strategy of raw op keys (as a case file gives them), for the generated checks' index-th example
    # (an op may stratify its draws by the index; None: any example); or None
    strategy: Callable[[int | None], Any] | None = None
    spec_ref: Callable[[Any], str] = lambda params: ""  # the spec section a generated case is judged by
    details: Callable[[Mapping[str, Any]], list[tuple[str, str]]] = lambda params: []  # report rows of params
    fields: tuple[str, ...] = ()  # params' fields a known difference may match on (``match: {mode: ...}``)
    # An op whose versions are functions fed values of their own (conformance/ops/elementwise/): the element types a
    # check of a version sweeps, (params, valid, version) -> types; why a version takes no such type,
    # (params, version, dtype) -> reason or None; and its inputs, (params, dtype, salt, version) -> by name.
    # None: the harness's sweep (conformance/data.py), every type, conformance.data.make_data.
    sweep: Callable[[Any, bool, Any], tuple[str, ...]] | None = None
    type_reason: Callable[[Any, Any, str], str | None] = lambda params, version, dtype: None
    make_inputs: Callable[[Any, str, str, Any], dict[str, np.ndarray]] | None = None

    def traits_of(self, params: Any) -> list[str]:
        return [name for name, (holds, _) in self.traits.items() if holds(params)]

    def has_trait(self, name: str, params: Any) -> bool:
        return name in self.traits and self.traits[name][0](params)
