"""A second op, used only by tests: Tile (each data axis repeated ``repeats[i]`` times), to show that an op is a
package of its own plus YAML (``op: tests.toy_op``), run through the ``local`` backend and the report with no
change to the harness."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance.ops.base import Op, Shape

RULES = {"repeats_length": "repeats has one entry per data axis",
         "repeats_negative": "repeats values are non-negative"}


@dataclass(frozen=True)
class TileParams:
    data_shape: tuple[int, ...]
    repeats: tuple[int, ...]


def parse(raw: Mapping[str, Any]) -> TileParams:
    return TileParams(tuple(raw["data_shape"]), tuple(raw["repeats"]))


def outcome(p: TileParams) -> tuple[Shape | None, str | None]:
    if len(p.repeats) != len(p.data_shape):
        return None, "repeats_length"
    if any(r < 0 for r in p.repeats):
        return None, "repeats_negative"
    return tuple(d * r for d, r in zip(p.data_shape, p.repeats, strict=True)), None


def run_locally(request: Any) -> Any:
    from conformance.backends import Outcome

    data, repeats = request.inputs["data"], request.inputs["repeats"]
    shape, rule = outcome(TileParams(tuple(request.input_shapes["data"]), tuple(repeats.tolist())))
    if rule is not None:
        return Outcome(error=f"Tile: {RULES[rule]}", stage="validate", rule=rule)
    return Outcome(declared_shape=shape) if request.shape_only else Outcome(output=np.tile(data, repeats))


OP = Op(
    name="tests.toy_op", title="Tile (a test op)",
    schema={"properties": {"data_shape": {"type": "array", "items": {"$ref": "#/$defs/dim"}},
                           "repeats": {"type": "array", "items": {"type": "integer"}}}},
    required=("data_shape", "repeats"), rules=RULES, parse=parse,
    to_json=lambda p: {"data_shape": list(p.data_shape), "repeats": list(p.repeats)},
    from_json=parse, summary=lambda p: f"data {p.data_shape}, repeats {list(p.repeats)}", outcome=outcome,
    problems=lambda p, valid: None, data_shapes=lambda p: {"data": p.data_shape},
    shape_inputs=lambda p, t: {"repeats": np.asarray(p.repeats, dtype=t)}, attributes=lambda p: {},
    expected=lambda p, data, version: np.tile(data["data"], p.repeats), versions=lambda p: (),
    label=lambda version: "Tile", traits={"repeats_zero": (lambda p: 0 in p.repeats, "a repeat count is 0")},
    local={"tile": run_locally}, local_paths=lambda p: {"tile": None},
    details=lambda raw: [("data_shape", str(raw.get("data_shape"))), ("repeats", str(raw.get("repeats")))],
)
