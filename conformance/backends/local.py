"""Our own implementations as a backend: for each op, what its package gives to run locally (``Op.local``;
Broadcast's is local_broadcast). Also the model for a user's plug-in."""

from __future__ import annotations

from conformance import ops
from conformance.backends.base import Backend, Outcome, Request
from conformance.cases import Case
from conformance.data import DTYPES
from conformance.run.paths import Axis, Path, every_path


class LocalBackend(Backend):
    name = "local"
    package = "broadcast-conformance"
    # Broadcast's: v1 Broadcast-1, v3 Broadcast-3, v0 nGraph Broadcast(arg, shape, broadcast_axes), expand ONNX
    # Expand (bidirectional only); another op's are the keys of its Op.local.
    axes = (Axis("op", ("v1", "v3", "v0", "expand"),
                 help="which op's rules our implementation applies: Broadcast-1, Broadcast-3, nGraph Broadcast "
                      "(v0) or ONNX Expand (another op: its own values)"),)
    dtypes = frozenset(DTYPES)
    preload = ("local_broadcast", "conformance.backends.local")

    def paths_for(self, case: Case) -> dict[Path, str | None]:
        op = ops.get(case.op)
        if not op.local:
            return {(): f"op {case.op} has no local implementation"}
        others = [a for a in self.path_axes() if a.name != "op"]  # a subclass's further axes, as data
        return {(("op", value), *rest): why for value, why in op.local_paths(case.params).items()
                for rest in every_path(others)}

    def op_version(self, path: Path, op: str = ops.DEFAULT) -> int | None:
        return ops.get(op).local_versions.get(dict(path)["op"])

    def run(self, request: Request) -> Outcome:
        outcome: Outcome = ops.get(request.op).local[request.path["op"]](request)
        return outcome

    def declare(self, request: Request) -> Outcome:
        return self.run(request)
