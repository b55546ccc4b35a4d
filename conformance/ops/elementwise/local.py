"""Elementwise ops on our own implementation: local_broadcast stretches the operands to their common shape
(local_broadcast/elementwise.py), then numpy computes the function on operands of one shape."""

from __future__ import annotations

from typing import Any

import numpy as np


def run(request: Any) -> Any:
    from conformance.backends.base import Outcome
    from conformance.ops.elementwise.functions import FUNCTIONS
    from local_broadcast.elementwise import ElementwiseError, broadcast_operands, common_shape

    function = FUNCTIONS[request.path["op"]]
    auto_broadcast = request.attrs["auto_broadcast"]
    direction = function.direction
    try:
        if request.shape_only:
            shapes = list(request.input_shapes.values())
            return Outcome(declared_shape=common_shape(shapes, auto_broadcast, direction, function.name))
        operands = broadcast_operands(list(request.inputs.values()), auto_broadcast, direction, function.name)
    except ElementwiseError as e:
        return Outcome(error=str(e), stage="validate", rule=e.rule)
    return Outcome(output=np.asarray(function.compute(*operands)))  # a 0-d result is a numpy scalar
