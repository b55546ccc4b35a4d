"""Reference broadcasting of elementwise operations: the output shape of two or more operands, shape rules one
per ``if``, and the op computed by numpy on the operands already broadcast to it.

Spec file (../shared/spec/): 003_38ca088f58e9a6c7.txt, "Broadcast Rules For Elementwise Operations", rules of
"Numpy broadcast" 1-5. Three readings the spec's text leaves to the op using the rules, taken from the ops' own
specs:

* ``auto_broadcast: none`` (OpenVINO's elementwise ops): no broadcasting at all, the shapes must be equal;
* multidirectional (every operand stretches to the others: Add, Select, ONNX Where and the variadic ops);
* unidirectional (ONNX's word; OpenVINO PRelu's slope, ONNX PRelu's slope, Gemm's C): the operands after the
  first are stretched to the first's shape, which never grows.

Each rejection raises ElementwiseRuleError whose ``rule`` is one of RULES; case files name the same rule in
``expect: {reject: RULE}``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

AUTO_BROADCAST = ("numpy", "none")
DIRECTIONS = ("multidirectional", "unidirectional")

RULES = {
    "none_shapes_differ": "with auto_broadcast none the input shapes are equal",
    "numpy_dim": "right-aligned dimensions of the inputs are equal, or 1",
    "one_directional": "the later inputs broadcast to the first input's shape, which does not grow",
}


class ElementwiseRuleError(ValueError):
    """An input breaks a rule; ``rule`` is the key in RULES."""

    def __init__(self, op: str, rule: str, detail: str) -> None:
        self.op = op
        self.rule = rule
        super().__init__(f"{op}: {RULES[rule]} [{rule}]; got {detail}")


def _show(shapes: Sequence[tuple[int, ...]]) -> str:
    return "shapes " + ", ".join(str(list(s)) for s in shapes)


def output_shape(shapes: Sequence[Sequence[int]], auto_broadcast: str = "numpy",
                 direction: str = "multidirectional", op: str = "elementwise") -> tuple[int, ...]:
    """The output shape of an elementwise op on operands of these shapes, or ElementwiseRuleError."""
    op = f"{op}({auto_broadcast})"
    shapes = [tuple(int(d) for d in s) for s in shapes]
    if auto_broadcast == "none":
        if any(s != shapes[0] for s in shapes):
            raise ElementwiseRuleError(op, "none_shapes_differ", _show(shapes))
        return shapes[0]
    rank = max(len(s) for s in shapes)  # rule 2: the smaller ones are prepended with 1s ...
    padded = [(1,) * (rank - len(s)) + s for s in shapes]  # ... so rule 1 compares right-aligned dimensions
    result = []
    for axis, dims in enumerate(zip(*padded, strict=True)):
        sizes = {d for d in dims if d != 1}  # rule 3: all equal, or 1; rule 4: a 1 is stretched
        if len(sizes) > 1:
            raise ElementwiseRuleError(op, "numpy_dim", f"dimensions {list(dims)} on axis {axis} of the aligned "
                                       f"rank-{rank} shapes ({_show(shapes)})")
        result.append(sizes.pop() if sizes else 1)
    # rule 5: every operand of rank 0 gives rank 0
    if direction == "unidirectional" and tuple(result) != shapes[0]:
        raise ElementwiseRuleError(op, "one_directional", f"the first input would grow to {result} "
                                   f"({_show(shapes)})")
    return tuple(result)


def elementwise(function: Callable[..., np.ndarray], inputs: Sequence[np.ndarray], auto_broadcast: str = "numpy",
                direction: str = "multidirectional") -> np.ndarray:
    """``function`` (numpy's, elementwise on arrays of one shape) on the inputs broadcast to the output shape."""
    shape = output_shape([a.shape for a in inputs], auto_broadcast, direction)
    return np.asarray(function(*(np.broadcast_to(a, shape) for a in inputs)))
