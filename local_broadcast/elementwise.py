"""Broadcasting the operands of an elementwise operation against each other (spec 003, "Broadcast Rules For
Elementwise Operations"): the n-operand rule, then each operand stretched by this package's own Broadcast-3
(numpy mode) to the common shape.

Rule names are those of reference/elementwise.py (``none_shapes_differ``, ``numpy_dim``, ``one_directional``);
the code is this package's own: the common shape is folded one operand at a time, from the right.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from local_broadcast.ops import broadcast_v3

RULES: dict[str, str] = {
    "none_shapes_differ": "with auto_broadcast none every input shape must be the same",
    "numpy_dim": "right-aligned dimensions must be equal, or 1",
    "one_directional": "the later inputs must broadcast to the first input's shape, without growing it",
}


class ElementwiseError(ValueError):
    """An input breaks a rule; ``rule`` is a key of RULES. The message reads ``"Add(numpy): right-aligned
    dimensions must be equal, or 1 [numpy_dim]; got ..."``."""

    def __init__(self, op: str, rule: str, detail: str) -> None:
        self.op, self.rule, self.detail = op, rule, detail
        super().__init__(f"{op}: {RULES[rule]} [{rule}]; got {detail}")

    def __reduce__(self) -> tuple[type[ElementwiseError], tuple[str, str, str]]:
        return type(self), (self.op, self.rule, self.detail)


def _fold(op: str, left: tuple[int, ...], right: tuple[int, ...], shapes: str) -> tuple[int, ...]:
    """The common shape of two shapes, read from their last axes."""
    out: list[int] = []
    for k in range(1, max(len(left), len(right)) + 1):
        a = left[-k] if k <= len(left) else 1
        b = right[-k] if k <= len(right) else 1
        if a != b and a != 1 and b != 1:
            raise ElementwiseError(op, "numpy_dim", f"{a} against {b}, {k} from the right, of {shapes}")
        out.append(b if a == 1 else a)
    return tuple(reversed(out))


def common_shape(shapes: Sequence[Sequence[int]], auto_broadcast: str = "numpy",
                 direction: str = "multidirectional", op: str = "elementwise") -> tuple[int, ...]:
    """The output shape of an elementwise op on operands of these shapes; ElementwiseError on a broken rule."""
    where = f"{op}({auto_broadcast})"
    given = [tuple(int(d) for d in s) for s in shapes]
    shown = "shapes " + ", ".join(str(s) for s in given)
    if auto_broadcast == "none":
        if len(set(given)) > 1:
            raise ElementwiseError(where, "none_shapes_differ", shown)
        return given[0]
    if auto_broadcast != "numpy":
        raise ValueError(f"{where}: auto_broadcast must be numpy or none")
    shape = given[0]
    for other in given[1:]:
        shape = _fold(where, shape, other, shown)
    if direction == "unidirectional" and shape != given[0]:
        raise ElementwiseError(where, "one_directional", f"the first input would become {shape}, of {shown}")
    return shape


def broadcast_operands(operands: Sequence[ArrayLike], auto_broadcast: str = "numpy",
                       direction: str = "multidirectional", op: str = "elementwise") -> list[np.ndarray]:
    """Each operand as a read-only view of the common shape (stride 0 along its stretched axes)."""
    arrays = [np.asarray(a) for a in operands]
    shape = common_shape([a.shape for a in arrays], auto_broadcast, direction, op)
    return [broadcast_v3(a, list(shape), mode="numpy", copy=False) for a in arrays]
