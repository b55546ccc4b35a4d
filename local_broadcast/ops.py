"""The public operations: validate with shapes.plan*, then copy with kernel.replicate.

Spec files (/work/shared/spec/): 000 Broadcast-3, 001/002 Broadcast-1, 003 broadcast rules, 004 nGraph
Broadcast (v0). ONNX Expand (opsets 8 and 13) is the bidirectional rule.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from local_broadcast.kernel import replicate
from local_broadcast.shapes import plan, plan_v0


def broadcast_v3(data: ArrayLike, target_shape: object, axes_mapping: object = None,
                 mode: str = "numpy") -> np.ndarray:
    """OpenVINO Broadcast-3 in mode numpy, explicit or bidirectional; BroadcastError on a broken rule."""
    array = np.asarray(data)
    return replicate(array, plan(array.shape, target_shape, axes_mapping, mode, op="Broadcast-3"))


def broadcast_v1(data: ArrayLike, target_shape: object, axes_mapping: object = None,
                 mode: str = "numpy") -> np.ndarray:
    """OpenVINO Broadcast-1: numpy or explicit mode; bidirectional is rule bidirectional_not_in_v1."""
    array = np.asarray(data)
    return replicate(array, plan(array.shape, target_shape, axes_mapping, mode, op="Broadcast-1"))


def expand(data: ArrayLike, shape: object) -> np.ndarray:
    """ONNX Expand: bidirectional, so the output can be larger than ``shape`` (data (3, 1), shape [2, 1, 6]
    gives (2, 3, 6))."""
    array = np.asarray(data)
    return replicate(array, plan(array.shape, shape, None, "bidirectional", op="Expand"))


def broadcast_v0(arg: ArrayLike, shape: Sequence[int] | np.ndarray,
                 broadcast_axes: Sequence[int] | set[int] | np.ndarray) -> np.ndarray:
    """nGraph Broadcast(arg, shape, broadcast_axes): output[C] = arg[p(C)], p drops the broadcast_axes."""
    array = np.asarray(arg)
    return replicate(array, plan_v0(array.shape, shape, broadcast_axes))
