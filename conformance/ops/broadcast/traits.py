"""Named properties of a Broadcast case's inputs, so that a known difference can say for which inputs it happens.

A known difference names the conditions of the bug it records (conformance/known/); ``inputs: [trait, ...]``
are the conditions on the case's params, for named and generated cases alike. Each predicate takes the case's
BroadcastParams (mode, versions, data_shape, target_shape, axes_mapping), never raises, and answers False where
it cannot tell (a dimension unknown until run time). They are kept by role in modules of their own (shapes,
axes_mapping, integer widths, runtimes' roads, the values a check feeds), merged in below.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conformance.ops.broadcast.axes_traits import AXES_TRAITS
from conformance.ops.broadcast.params import BroadcastParams as Case
from conformance.ops.broadcast.road_traits import ROAD_TRAITS
from conformance.ops.broadcast.shape_traits import SHAPE_TRAITS
from conformance.ops.broadcast.value_traits import VALUE_TRAITS
from conformance.ops.broadcast.width_traits import WIDTH_TRAITS

# Each trait by its role: what the shapes are, axes_mapping, integer widths, the roads particular runtimes take, the
# values a check feeds. A name is in one module only (tests/test_traits.py).
TRAITS: dict[str, tuple[Callable[[Case], bool], str]] = {
    **SHAPE_TRAITS, **AXES_TRAITS, **WIDTH_TRAITS, **ROAD_TRAITS, **VALUE_TRAITS,
}


def holds(trait: str, case: Case) -> bool:
    return TRAITS[trait][0](case)


def of(case: Case) -> list[str]:
    """Every trait of the case, in TRAITS order (shown with a generated failure)."""
    return [name for name in TRAITS if holds(name, case)]


def describe(traits: Any) -> str:
    return "; ".join(TRAITS[t][1] for t in traits if t in TRAITS)
