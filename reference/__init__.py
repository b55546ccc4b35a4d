"""The oracle: Broadcast as the specifications in ../shared/spec/ define it, in plain numpy.

Every function here is meant to be read next to the spec text; speed is not a goal.
"""

from __future__ import annotations

from reference.broadcast import (
    MODES,
    RULES,
    BroadcastRuleError,
    broadcast,
    broadcast_adjoint,
    broadcast_bidirectional,
    broadcast_explicit,
    broadcast_numpy,
    broadcast_v0,
    broadcast_v0_adjoint,
    output_shape,
)

__all__ = [
    "MODES",
    "RULES",
    "BroadcastRuleError",
    "broadcast",
    "broadcast_adjoint",
    "broadcast_bidirectional",
    "broadcast_explicit",
    "broadcast_numpy",
    "broadcast_v0",
    "broadcast_v0_adjoint",
    "output_shape",
]
