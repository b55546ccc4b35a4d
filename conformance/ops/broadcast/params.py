"""A Broadcast case's own keys: mode, op versions, data_shape, target_shape and axes_mapping, and what the
reference says of them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

import reference
from conformance.ops.base import Shape

DEFAULT_VERSIONS = {"numpy": (1, 3), "explicit": (1, 3), "bidirectional": (3,)}
OP_NAMES = {0: "nGraph Broadcast", 1: "Broadcast-1", 3: "Broadcast-3"}


@dataclass(frozen=True)
class BroadcastParams:
    mode: str
    versions: tuple[int, ...]
    data_shape: Shape  # None: a dimension unknown when the graph is built ("?")
    target_shape: Any  # a list of ints, or nested lists where a case tests the 1-D rule
    axes_mapping: Any = None


def dims_from_yaml(dims: list[Any]) -> Shape:
    return tuple(None if d == "?" else d for d in dims)


def as_yaml_dims(dims: Shape) -> list[int | str]:
    return ["?" if d is None else d for d in dims]


def show_dims(dims: Shape) -> str:
    shown = ", ".join("?" if d is None else str(d) for d in dims)
    return f"({shown},)" if len(dims) == 1 else f"({shown})"


def parse(raw: Mapping[str, Any]) -> BroadcastParams:
    mode = raw["mode"]
    return BroadcastParams(mode=mode, versions=tuple(raw.get("versions", DEFAULT_VERSIONS[mode])),
                           data_shape=dims_from_yaml(raw["data_shape"]), target_shape=raw["target_shape"],
                           axes_mapping=raw.get("axes_mapping"))


def to_json(p: BroadcastParams) -> dict[str, Any]:
    return {"mode": p.mode, "versions": list(p.versions), "data_shape": as_yaml_dims(p.data_shape),
            "target_shape": p.target_shape, "axes_mapping": p.axes_mapping}


def from_json(raw: Mapping[str, Any]) -> BroadcastParams:
    return parse({k: v for k, v in raw.items() if v is not None or k != "axes_mapping"})


def summary(p: BroadcastParams) -> str:
    axes = f", axes_mapping {p.axes_mapping}" if p.axes_mapping is not None else ""
    return f"{p.mode}, data {show_dims(p.data_shape)}, target_shape {p.target_shape}{axes}"


def outcome(p: BroadcastParams) -> tuple[Shape | None, str | None]:
    try:
        return tuple(reference.output_shape(p.data_shape, p.target_shape, p.axes_mapping, p.mode)), None
    except reference.BroadcastRuleError as e:
        return None, e.rule


def problems(p: BroadcastParams, valid: bool) -> str | None:
    """Rules of a Broadcast case that a schema cannot say."""
    if p.mode == "bidirectional" and set(p.versions) - {3}:
        return "versions: Broadcast-1 and nGraph Broadcast have no bidirectional mode; use [3]"
    if 0 in p.versions and (p.mode != "explicit" or not valid):
        return "versions: 0 (nGraph Broadcast) applies to valid explicit-mode cases only"
    for name in ("target_shape", "axes_mapping"):
        try:
            np.asarray(getattr(p, name) or [], dtype=np.int64)
        except ValueError:
            return f"{name}: nested lists of unequal lengths are no tensor; give one list per row, all equally long"
    return None


def data_shapes(p: BroadcastParams) -> dict[str, Shape]:
    return {"data": p.data_shape}


def shape_inputs(p: BroadcastParams, shape_type: np.dtype) -> dict[str, np.ndarray | None]:
    return {"target_shape": np.asarray(p.target_shape, dtype=shape_type),
            "axes_mapping": None if p.axes_mapping is None else np.asarray(p.axes_mapping, dtype=shape_type)}


def attributes(p: BroadcastParams) -> dict[str, Any]:
    return {"mode": p.mode}


def expected(p: BroadcastParams, data: Mapping[str, np.ndarray], version: int | None) -> np.ndarray:
    """The reference output of a valid case, for the op version a path runs."""
    if version == 0:
        mapped = set(p.axes_mapping or [])
        added = [i for i in range(len(p.target_shape)) if i not in mapped]
        return reference.broadcast_v0(data["data"], p.target_shape, added)
    return reference.broadcast(data["data"], p.target_shape, p.axes_mapping, p.mode)


def op_name(version: int | None) -> str:
    return OP_NAMES.get(version, "Broadcast") if version is not None else "Broadcast"


def details(raw: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The report's rows for a case's params (as its record holds them)."""
    rows = [("mode", str(raw.get("mode"))), ("data_shape", str(raw.get("data_shape"))),
            ("target_shape", str(raw.get("target_shape")))]
    if raw.get("axes_mapping") is not None:
        rows.append(("axes_mapping", str(raw["axes_mapping"])))
    return rows
