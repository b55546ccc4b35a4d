"""Broadcast on our own implementation, local_broadcast: what the ``local`` backend runs, by its "op" path value."""

from __future__ import annotations

from typing import Any

import numpy as np

# local path value -> (local_broadcast function, the op name its errors use, the Broadcast version it runs)
# v0 is nGraph Broadcast(arg, shape, broadcast_axes); expand is ONNX Expand (bidirectional only).
VERSIONS: dict[str, int] = {"v1": 1, "v3": 3, "v0": 0, "expand": 3}
DECLARED_AS = {"v1": "Broadcast-1", "expand": "Expand", "v0": "Broadcast-3", "v3": "Broadcast-3"}


def run(request: Any) -> Any:
    import local_broadcast
    from conformance.backends.base import Outcome

    variant = request.path["op"]
    data, target, axes = request.inputs["data"], request.inputs["target_shape"], request.inputs["axes_mapping"]
    try:
        if request.shape_only:
            mode = "bidirectional" if variant == "expand" else request.attrs["mode"]
            shape = local_broadcast.declared_shape(request.input_shapes["data"], target, axes, mode,
                                                   op=DECLARED_AS[variant])
            return Outcome(declared_shape=tuple(shape))
        if variant == "v0":
            # nGraph lists the output axes that are added: the complement of axes_mapping.
            mapped = set(np.asarray(axes).tolist())
            added = [i for i in range(len(target)) if i not in mapped]
            output = local_broadcast.broadcast_v0(data, target.tolist(), added)
        elif variant == "expand":
            output = local_broadcast.expand(data, target)
        else:
            op = local_broadcast.broadcast_v1 if variant == "v1" else local_broadcast.broadcast_v3
            output = op(data, target, axes, request.attrs["mode"])
    except local_broadcast.BroadcastError as e:
        return Outcome(error=str(e), stage="validate", rule=e.rule)
    return Outcome(output=output)


def applies(params: Any) -> dict[str, str | None]:
    """The local path values that run a case: by its op versions; Expand for bidirectional cases without
    axes_mapping."""
    values: dict[str, str | None] = {v: None for v, version in VERSIONS.items() if version in params.versions}
    if params.mode != "bidirectional" or params.axes_mapping is not None:
        values.pop("expand", None)
    return values
