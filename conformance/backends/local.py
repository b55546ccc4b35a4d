"""Our own implementation, `local_broadcast`, as a backend: also the model for a user's plug-in."""

from __future__ import annotations

import numpy as np

from conformance.backends.base import Backend, Outcome, Request
from conformance.cases import Case
from conformance.data import DTYPES


class LocalBackend(Backend):
    name = "local"
    package = "broadcast-conformance"
    # v0 is nGraph Broadcast(arg, shape, broadcast_axes); expand is ONNX Expand (bidirectional only).
    variants = {"v1": 1, "v3": 3, "v0": 0, "expand": 3}
    dtypes = frozenset(DTYPES)
    preload = ("local_broadcast",)

    def variants_for(self, case: Case) -> dict[str, str | None]:
        variants = super().variants_for(case)
        if case.mode != "bidirectional" or case.axes_mapping is not None:
            variants.pop("expand", None)
        return variants

    def run(self, request: Request) -> Outcome:
        import local_broadcast

        try:
            if request.variant == "v0":
                # nGraph lists the output axes that are added: the complement of axes_mapping.
                mapped = set(np.asarray(request.axes_mapping).tolist())
                added = [i for i in range(len(request.target_shape)) if i not in mapped]
                output = local_broadcast.broadcast_v0(request.data, request.target_shape.tolist(), added)
            elif request.variant == "expand":
                output = local_broadcast.expand(request.data, request.target_shape)
            else:
                op = local_broadcast.broadcast_v1 if request.variant == "v1" else local_broadcast.broadcast_v3
                output = op(request.data, request.target_shape, request.axes_mapping, request.mode)
        except local_broadcast.BroadcastError as e:
            return Outcome(error=str(e), stage="validate", rule=e.rule)
        return Outcome(output=output)

    def declare(self, request: Request) -> Outcome:
        import local_broadcast

        mode = "bidirectional" if request.variant == "expand" else request.mode
        op = {"v1": "Broadcast-1", "expand": "Expand"}.get(request.variant, "Broadcast-3")
        try:
            shape = local_broadcast.declared_shape(request.input_shape, request.target_shape, request.axes_mapping,
                                                 mode, op=op)
        except local_broadcast.BroadcastError as e:
            return Outcome(error=str(e), stage="validate", rule=e.rule)
        return Outcome(declared_shape=tuple(shape))
