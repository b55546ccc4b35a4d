"""The JSON Schema of a case file, made from the code's own lists: the groups, element types and integer types
here and in conformance/data.py, and each op's keys and rule names (conformance/ops/). A case is checked
against the schema of the op it names; case.schema.json, the file editors read, holds the built-in ops and is
written by ``python3 -m conformance schema`` (a test checks that the committed file is up to date)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from conformance import ops
from conformance.data import DTYPES, INTEGERS

SCHEMA_PATH = Path(__file__).with_name("case.schema.json")
# Where a case comes from; the report groups and rates by this, in this order. "generated" is no case file's.
GROUPS = ("spec_example", "rule", "interpretation", "edge", "upstream", "found", "generated")
GENERATED = "generated"
FILE_GROUPS = tuple(g for g in GROUPS if g != GENERATED)
# numpy holds at most 64 dimensions: neither the reference nor the harness could make a tensor of higher rank
MAX_RANK = 64
SHAPE_TYPES = tuple(t for t in DTYPES if t in INTEGERS and t not in ("i4", "u4"))

DEFS: dict[str, Any] = {
    "dim": {"type": "integer", "minimum": 0, "maximum": 9223372036854775807},
    "partial_dim": {
        "description": "A dimension, or \"?\": unknown when the graph is built. A case with one checks only the "
                       "shape each backend declares without running.",
        "if": {"type": "string"}, "then": {"const": "?"}, "else": {"$ref": "#/$defs/dim"}},
    "dtype": {"enum": list(DTYPES)},
}

COMMON: dict[str, Any] = {
    # (?!.*\n): "$" also matches before a final newline, so "name\n" would pass "^[a-z0-9_]+$" alone
    "id": {"type": "string", "pattern": "^(?!.*\\n)[a-z0-9_]+$", "maxLength": 100,
           "description": "Unique over all case files: the pytest node id and the report row."},
    "op": {"type": "string", "description": "The operation: a built-in op (broadcast, the default) or the module "
                                            "path of an op package."},
    "description": {"type": "string"},
    "spec_ref": {"type": "string", "pattern": "^[0-9]{3}_[0-9a-f]{16}\\.txt(#.+)?$",
                 "description": "Spec file in shared/spec and section, e.g. 003_38ca088f58e9a6c7.txt#Examples"},
    "dtypes": {"type": "array", "minItems": 1, "uniqueItems": True, "items": {"$ref": "#/$defs/dtype"},
               "description": "Element types to sweep. Default: every type for valid cases of the groups "
                              "spec_example, rule and interpretation; u8 and f32 for valid upstream, edge and found "
                              "cases; f32 for rejections and cases with \"?\" dimensions."},
    "source": {"type": "string", "description": "Upstream repository and test this case mirrors."},
    "shape_dtypes": {"type": "array", "minItems": 1, "uniqueItems": True, "items": {"enum": list(SHAPE_TYPES)},
                     "description": "Integer types of the shape inputs to sweep (T_SHAPE: any integer type). "
                                    "Default: [i64]. ONNX takes int64 only: other types are expected to be rejected "
                                    "there."},
    "upstream_error": {"type": "string",
                       "description": "For a case mirroring an upstream negative test: the error substring that "
                                      "test expects."},
    "interpretation": {"type": "string", "minLength": 10,
                       "description": "The spec is silent here: the reading the suite takes, and why."},
}
COMMON_REQUIRED = ("id", "expect", "spec_ref")


def file_schema() -> dict[str, Any]:
    """A case file's outline: the cases themselves are checked by case_schema(op)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
        "additionalProperties": False, "required": ["group", "cases"],
        "properties": {
            "description": {"type": "string", "description": "What the cases of this file have in common."},
            "group": {"description": "Where the cases come from; the report groups and rates them by this.",
                      "enum": list(FILE_GROUPS)},
            "cases": {"type": "array", "minItems": 1, "items": {"type": "object"}}}}


def _expect(op: ops.Op) -> dict[str, Any]:
    return {"description": "The outcome the spec prescribes: an output shape, or a rejection naming the rule "
                           "broken.",
            "oneOf": [{"type": "object", "additionalProperties": False, "required": ["shape"],
                       "properties": {"shape": {"type": "array", "items": {"$ref": "#/$defs/partial_dim"},
                                                "maxItems": MAX_RANK}}},
                      {"type": "object", "additionalProperties": False, "required": ["reject"],
                       "properties": {"reject": {"enum": list(op.rules)}}}]}


def case_definition(op: ops.Op) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False,
            "required": [*COMMON_REQUIRED[:1], *op.required, *COMMON_REQUIRED[1:]],
            "properties": {**COMMON, **op.schema["properties"], "expect": _expect(op)}}


def _strict_integer(_: Any, instance: Any) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


# JSON Schema counts 3.0 as an integer; a case file means 3 or it made a mistake (YAML reads 3.0 as a float, which
# the harness would then hand to the runtimes): an integer is written as one.
StrictValidator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _strict_integer))


@cache
def case_validator(op_name: str) -> Any:
    op = ops.get(op_name)
    return StrictValidator({"$defs": {**DEFS, **op.schema.get("$defs", {})}, **case_definition(op)})


@cache
def file_validator() -> Any:
    return StrictValidator(file_schema())


def editor_schema() -> dict[str, Any]:
    """One schema for editors: the file outline, and each case checked against its op's definition."""
    schema = file_schema()
    defs = dict(DEFS)
    choices = []
    for name in ops.BUILTIN:
        op = ops.get(name)
        defs.update(op.schema.get("$defs", {}))
        defs[f"case_{name}"] = case_definition(op)
        names = {"const": name} if name != ops.DEFAULT else {"enum": [name]}
        when = {"properties": {"op": names}} if name != ops.DEFAULT else \
            {"anyOf": [{"not": {"required": ["op"]}}, {"properties": {"op": names}}]}
        choices.append({"if": when, "then": {"$ref": f"#/$defs/case_{name}"}})
    schema["properties"]["cases"]["items"] = {"type": "object", "allOf": choices}
    return {"$schema": schema.pop("$schema"), "$id": "https://broadcast-conformance/case.schema.json",
            "title": "Conformance case file",
            "description": "One YAML file per spec section or concern. Editors check a file against this schema "
                           "through the first-line comment `# yaml-language-server: "
                           "$schema=../conformance/cases/case.schema.json`. Written by `python3 -m conformance "
                           "schema` from the code's lists.",
            **schema, "$defs": defs}


def editor_schema_text() -> str:
    return json.dumps(editor_schema(), indent=1, ensure_ascii=False) + "\n"
