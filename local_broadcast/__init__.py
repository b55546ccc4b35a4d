"""local_broadcast: a second, independent implementation of Broadcast, checked against ``reference``.

Validation (shapes.py) is separate from the copy (kernel.py), so the kernel can be made faster, or take an
``out=`` array, without touching any rule. It never imports ``reference``: agreeing with it is what the
tests check.
"""

from __future__ import annotations

from local_broadcast.errors import RULES, BroadcastError
from local_broadcast.ops import broadcast_v0, broadcast_v1, broadcast_v3, expand
from local_broadcast.shapes import output_shape

__all__ = [
    "RULES",
    "BroadcastError",
    "broadcast_v0",
    "broadcast_v1",
    "broadcast_v3",
    "expand",
    "output_shape",
]
