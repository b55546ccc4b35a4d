"""The copy kernel: fill a fresh output with the data, given a validated Plan. No rule is checked here.

Broadcast only moves data, so the kernel copies bytes and never computes: ``data * ones`` would turn
-0.0 + 0 into 0.0, quieten signalling NaNs and refuse bool, str and object data.
"""

from __future__ import annotations

import numpy as np

from local_broadcast.shapes import Plan


def replicate(data: np.ndarray, plan: Plan) -> np.ndarray:
    """A new C-contiguous, writeable array of data's exact dtype and of shape plan.shape.

    data gets a length-1 axis at each of plan.new_axes, which lines each of its axes up with the output
    axis it feeds; np.copyto then copies it along those axes and repeats it along every length-1 axis.
    """
    # Inserting length-1 axes never needs a copy, so this is a view whatever data's strides are.
    aligned = np.expand_dims(data, plan.new_axes)
    # np.empty rather than empty_like: data may be a strided or Fortran-ordered view, the output is C order.
    out = np.empty(plan.shape, dtype=data.dtype)
    # casting="no": the dtypes are identical by construction, and any conversion would be a bug.
    np.copyto(out, aligned, casting="no")
    return out
