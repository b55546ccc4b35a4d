"""local_broadcast: a second, independent implementation of Broadcast, checked against ``reference``.

Validation (shapes.py) is separate from the copy, so the copy is fast without touching any rule: ops.py
takes ``out=`` (written in place) or ``copy=False`` (a read-only zero-copy view); kernel.py replays a
per-shape Recipe of long contiguous copies (layout.py), and takes large fresh outputs from memory the
caller has dropped (pool.py). adjoint.py is the gradient: the output's summed over the broadcast axes.
The package never imports ``reference``: agreeing with it is what the tests check.
"""

from __future__ import annotations

from local_broadcast.adjoint import broadcast_adjoint, broadcast_v0_adjoint
from local_broadcast.errors import RULES, BroadcastError
from local_broadcast.ops import broadcast_v0, broadcast_v1, broadcast_v3, expand
from local_broadcast.shapes import declared_shape, output_shape

__all__ = [
    "RULES",
    "BroadcastError",
    "broadcast_adjoint",
    "broadcast_v0_adjoint",
    "broadcast_v0",
    "broadcast_v1",
    "broadcast_v3",
    "expand",
    "declared_shape",
    "output_shape",
]
