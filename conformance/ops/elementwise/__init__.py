"""Elementwise operations that broadcast their inputs against each other, judged by the rules of spec 003
("Broadcast Rules For Elementwise Operations"): Add, Select, PRelu... (functions.py). A case gives two or three
input shapes, ``auto_broadcast`` (numpy, or none: equal shapes only), the direction (multidirectional, or
unidirectional: the later inputs stretch to the first, as PRelu's slope) and the functions it runs (default:
every function of that many inputs and that direction); the reference is reference/elementwise.py.

Rules (``expect: {reject: ...}``): ``none_shapes_differ`` (auto_broadcast none with unequal shapes),
``numpy_dim`` (right-aligned dimensions neither equal nor 1, on any axis), ``one_directional`` (an input after
the first would make the first grow: PRelu's slope larger than data)."""

from __future__ import annotations

from typing import Any

from conformance.ops.base import Op
from conformance.ops.elementwise import functions, local, params, traits
from reference import elementwise as reference

SPEC_REF = "003_38ca088f58e9a6c7.txt#Rules"

SCHEMA: dict[str, Any] = {
    "properties": {
        "shapes": {"description": "The input shapes, in the op's input order (Select: condition, then, else; "
                                  "PRelu: data, slope).",
                   "type": "array", "minItems": 2, "maxItems": 3,
                   "items": {"type": "array", "items": {"$ref": "#/$defs/dim"}, "maxItems": 16}},
        "auto_broadcast": {"enum": list(reference.AUTO_BROADCAST),
                           "description": "numpy (spec 003's rules) or none (the shapes must be equal). Default: "
                                          "numpy."},
        "direction": {"enum": list(reference.DIRECTIONS),
                      "description": "multidirectional (every input stretches; the default) or unidirectional "
                                     "(the later inputs stretch to the first: PRelu's slope)."},
        "functions": {"type": "array", "minItems": 1, "uniqueItems": True,
                      "items": {"enum": list(functions.FUNCTIONS)},
                      "description": "The functions to run. Default: every function that takes that many inputs "
                                     "in that direction."},
    },
}

OP = Op(
    name="elementwise", title="Elementwise", schema=SCHEMA, required=("shapes",), rules=reference.RULES,
    parse=params.parse, to_json=params.to_json, from_json=params.from_json, summary=params.summary,
    outcome=params.outcome, problems=params.problems, data_shapes=params.data_shapes,
    shape_inputs=lambda p, t: {}, attributes=lambda p: {"auto_broadcast": p.auto_broadcast},
    expected=params.expected, versions=params.versions, label=params.label, traits=traits.TRAITS,
    local={name: local.run for name in functions.FUNCTIONS}, local_versions={n: n for n in functions.FUNCTIONS},
    local_paths=lambda p: {name: None for name in params.versions(p)}, spec_ref=lambda p: SPEC_REF,
    details=params.details, fields=("auto_broadcast", "direction"),
    sweep=params.sweep, type_reason=params.type_reason, make_inputs=params.make_inputs,
)
