"""An elementwise case's own keys: the input shapes, auto_broadcast, the direction and the functions it runs, and
what the reference says of them.

A case is a broadcast of its input shapes; the functions it runs are its "versions" (``Op.versions``): each
backend path runs one of them (``Backend.op_version``), and the reference computes that one."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance.ops.base import Shape
from conformance.ops.elementwise import functions, values
from reference import elementwise as reference

# The element types a rejection is checked on: one a function takes (the broadcast rule does not depend on it)
REJECT_TYPES = 1


@dataclass(frozen=True)
class ElementwiseParams:
    shapes: tuple[tuple[int, ...], ...]
    auto_broadcast: str = "numpy"
    direction: str = "multidirectional"
    functions: tuple[str, ...] | None = None  # None: every function of the shapes' count and the direction


def parse(raw: Mapping[str, Any]) -> ElementwiseParams:
    listed = raw.get("functions")
    return ElementwiseParams(shapes=tuple(tuple(s) for s in raw["shapes"]),
                             auto_broadcast=raw.get("auto_broadcast", "numpy"),
                             direction=raw.get("direction", "multidirectional"),
                             functions=None if listed is None else tuple(listed))


def to_json(p: ElementwiseParams) -> dict[str, Any]:
    return {"shapes": [list(s) for s in p.shapes], "auto_broadcast": p.auto_broadcast, "direction": p.direction,
            "functions": None if p.functions is None else list(p.functions)}


def from_json(raw: Mapping[str, Any]) -> ElementwiseParams:
    return parse({k: v for k, v in raw.items() if v is not None})


def show(shape: tuple[int, ...]) -> str:
    return f"({shape[0]},)" if len(shape) == 1 else f"({', '.join(map(str, shape))})"


def summary(p: ElementwiseParams) -> str:
    way = "" if p.direction == "multidirectional" else f" {p.direction}"
    return f"{p.auto_broadcast}{way}, shapes {', '.join(show(s) for s in p.shapes)}"


def outcome(p: ElementwiseParams) -> tuple[Shape | None, str | None]:
    try:
        return reference.output_shape(p.shapes, p.auto_broadcast, p.direction), None
    except reference.ElementwiseRuleError as e:
        return None, e.rule


def versions(p: ElementwiseParams) -> tuple[str, ...]:
    """The functions the case runs."""
    fitting = functions.applicable(len(p.shapes), p.direction, len(p.shapes[0]))
    return fitting if p.functions is None else tuple(f for f in p.functions if f in fitting)


def problems(p: ElementwiseParams, valid: bool) -> str | None:
    for name in p.functions or ():
        f = functions.FUNCTIONS[name]
        if len(p.shapes) not in f.arities:
            return f"functions: {name} takes {' or '.join(map(str, f.arities))} inputs, the case gives {len(p.shapes)}"
        if f.direction != p.direction:
            return f"functions: {name} is {f.direction}, the case is {p.direction}"
        if f.first_rank is not None and len(p.shapes[0]) != f.first_rank:
            return f"functions: {name} takes a first input of rank {f.first_rank}, the case gives {len(p.shapes[0])}"
    if not versions(p):
        return f"no function takes {len(p.shapes)} inputs broadcast {p.direction}ly"
    return None


def data_shapes(p: ElementwiseParams) -> dict[str, Shape]:
    return {f"input{k}": shape for k, shape in enumerate(p.shapes)}


def sweep(p: ElementwiseParams, valid: bool, version: Any) -> tuple[str, ...]:
    """The element types a function is fed: its own (functions.py); a rejection, its first."""
    types = functions.FUNCTIONS[version].dtypes if version in functions.FUNCTIONS else ("f32",)
    return types if valid else types[:REJECT_TYPES]


def type_reason(p: ElementwiseParams, version: Any, dtype: str) -> str | None:
    f = functions.FUNCTIONS.get(version)
    if f is not None and dtype not in f.dtypes:
        return f"the suite feeds {f.name} {', '.join(f.dtypes)} only (where its results are exact)"
    return None


def make_inputs(p: ElementwiseParams, dtype: str, salt: str, version: Any) -> dict[str, np.ndarray]:
    f = functions.FUNCTIONS[version]
    return values.inputs(f.values, f.name, data_shapes(p), dtype, salt)  # type: ignore[arg-type]


def expected(p: ElementwiseParams, data: Mapping[str, np.ndarray], version: Any) -> np.ndarray:
    f = functions.FUNCTIONS[version]
    return reference.elementwise(f.compute, list(data.values()), p.auto_broadcast, p.direction)


def label(version: Any) -> str:
    return f"elementwise {version}" if version else "elementwise"


def details(raw: Mapping[str, Any]) -> list[tuple[str, str]]:
    rows = [("shapes", str(raw.get("shapes"))), ("auto_broadcast", str(raw.get("auto_broadcast")))]
    if raw.get("direction") not in (None, "multidirectional"):
        rows.append(("direction", str(raw["direction"])))
    if raw.get("functions"):
        rows.append(("functions", str(raw["functions"])))
    return rows
