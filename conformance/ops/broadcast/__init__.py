"""Broadcast: OpenVINO Broadcast-1 and Broadcast-3, nGraph Broadcast(arg, shape, broadcast_axes) and ONNX Expand
(the bidirectional rule). Everything particular to it: its case keys, the reference's outcome and output,
traits of its inputs, the generated checks' strategy, the report's details and our own implementation."""

from __future__ import annotations

from typing import Any

import reference
from conformance.ops.base import Op
from conformance.ops.broadcast import local, params, traits

# the spec's text of each mode's rule, named in the generated checks' ids and the report
SPEC_REF = {"numpy": "000_ece0cbba5cb063a0.txt#Detailed description",
            "explicit": "000_ece0cbba5cb063a0.txt#Detailed description",
            "bidirectional": "003_38ca088f58e9a6c7.txt#Rules (Bidirectional broadcast)"}

SCHEMA: dict[str, Any] = {
    "properties": {
        "mode": {"enum": list(reference.MODES)},
        "versions": {
            "description": "Op versions the case applies to: 0 = nGraph Broadcast(arg, shape, broadcast_axes), "
                           "1 = Broadcast-1, 3 = Broadcast-3 (and ONNX Expand for bidirectional). Default: [1, 3] "
                           "for numpy and explicit, [3] for bidirectional.",
            "type": "array", "minItems": 1, "uniqueItems": True, "items": {"enum": [0, 1, 3]}},
        "data_shape": {"type": "array", "items": {"$ref": "#/$defs/partial_dim"}, "maxItems": 16},
        "target_shape": {"$ref": "#/$defs/shape_input"},
        "axes_mapping": {"$ref": "#/$defs/shape_input"},
    },
    "$defs": {
        "int64": {"type": "integer", "minimum": -9223372036854775808, "maximum": 9223372036854775807},
        "shape_input": {
            "description": "target_shape or axes_mapping: a list of integers (the 1-D tensor the spec requires; [] "
                           "is empty), nested lists (rank 2 and more) or a single integer (rank 0), the last two to "
                           "test the rule that the input is 1-D. Its element type is int64 unless the case sweeps "
                           "shape_dtypes.",
            "oneOf": [{"$ref": "#/$defs/int64"}, {"$ref": "#/$defs/int_tensor"}]},
        "int_tensor": {
            "description": "A tensor of integers: a list (1-D) or nested lists (to test the rule that the input "
                           "is 1-D).",
            "type": "array", "maxItems": 64,  # numpy's largest rank (conformance/cases/schema.py MAX_RANK)
            "items": {"oneOf": [{"$ref": "#/$defs/int64"}, {"$ref": "#/$defs/int_tensor"}]}},
    },
}


def _spec_ref(p: params.BroadcastParams) -> str:
    return SPEC_REF[p.mode]


def _strategy(index: int | None = None) -> Any:
    """The generated checks' hypothesis strategy for the index-th example (by strata: conformance/ops/broadcast/
    strategy.py), imported when asked for: a worker process, which only runs checks, never imports hypothesis
    (~210 ms in each fresh worker that confirms a failing check)."""
    from conformance.ops.broadcast import strategy

    return strategy.inputs(index)


OP = Op(
    name="broadcast", title="Broadcast", schema=SCHEMA, required=("mode", "data_shape", "target_shape"),
    rules=reference.RULES, parse=params.parse, to_json=params.to_json, from_json=params.from_json,
    summary=params.summary, outcome=params.outcome, problems=params.problems, data_shapes=params.data_shapes,
    shape_inputs=params.shape_inputs, attributes=params.attributes, expected=params.expected,
    versions=lambda p: p.versions, label=params.op_name, traits=traits.TRAITS,
    local={"v1": local.run, "v3": local.run, "v0": local.run, "expand": local.run},
    local_versions=local.VERSIONS, local_paths=local.applies, strategy=_strategy, spec_ref=_spec_ref,
    details=params.details,
    fields=("mode",),
)
