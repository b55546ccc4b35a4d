"""The generated checks' inputs for Broadcast: a valid broadcast in any mode, often with one defect.

An input is drawn as a valid broadcast (an output shape, then data and target_shape that broadcast to it), and
then, often, given one defect: a changed dimension, a negative target value, or an axes_mapping that is
shifted, reversed, repeated, too short, too long or given in the wrong mode. The reference says what the spec
prescribes for the result, valid or which rule it breaks, so a drawn input needs no expectation of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

MAX_RANK = 6
DIMS = (0, 1, 1, 2, 3, 4)  # 1 twice: it is the dimension every rule treats apart
DEFECTS = (None, None, None, "dim", "dim", "short_target", "negative", "axes_shift", "axes_reverse", "axes_repeat",
           "axes_drop", "axes_extra", "axes_in_numpy", "axes_missing")
@st.composite
def inputs(draw: Callable[..., Any]) -> dict[str, Any]:
    """mode, data_shape, target_shape and axes_mapping (None outside explicit mode, unless a defect adds it)."""
    mode = draw(st.sampled_from(("numpy", "explicit", "bidirectional")))
    rank = draw(st.integers(0, MAX_RANK))
    out = draw(st.lists(st.sampled_from(DIMS), min_size=rank, max_size=rank))
    axes = None
    if mode == "numpy":
        data_rank = draw(st.integers(0, rank))
        data = [draw(st.sampled_from((d, 1))) for d in out[rank - data_rank:]]
        target = list(out)
    elif mode == "explicit":
        axes = sorted(draw(st.sets(st.integers(0, rank - 1), max_size=rank))) if rank else []
        data = [draw(st.sampled_from((out[a], 1))) for a in axes]
        target = list(out)
    else:  # each side a right-aligned part of the output, each dimension the output's or 1
        data = [draw(st.sampled_from((d, 1))) for d in out[rank - draw(st.integers(0, rank)):]]
        target = [draw(st.sampled_from((d, 1))) for d in out[rank - draw(st.integers(0, rank)):]]
    defect = draw(st.sampled_from(DEFECTS))
    if defect == "dim" and (data or target):  # a dimension that no longer matches (unless it faces a 1)
        side = data if data and (not target or draw(st.booleans())) else target
        axis = draw(st.integers(0, len(side) - 1))
        side[axis] = draw(st.sampled_from([d for d in (0, 2, 3, 5) if d != side[axis]]))
    elif defect == "short_target" and target:
        target = target[1:]
    elif defect == "negative" and target:
        target[draw(st.integers(0, len(target) - 1))] = draw(st.sampled_from((-1, -2)))
    elif mode == "explicit" and axes:
        if defect == "axes_shift":
            axes = [a + 1 for a in axes]
        elif defect == "axes_reverse" and len(axes) > 1:
            axes = axes[::-1]
        elif defect == "axes_repeat":
            axes = axes + axes[-1:]
            data = data + [1]
        elif defect == "axes_drop":
            axes = axes[:-1]
        elif defect == "axes_extra":
            axes = axes + [rank]
        elif defect == "axes_missing":
            axes = None
    elif defect == "axes_in_numpy" and mode != "explicit":
        axes = list(range(len(data)))
    return {"mode": mode, "data_shape": data, "target_shape": target, "axes_mapping": axes}
