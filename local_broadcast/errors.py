"""The one exception local_broadcast raises for inputs that break a rule of the spec.

Rule names are the keys of ``reference.RULES`` plus ``bidirectional_not_in_v1``; case files and the
agreement tests compare ``.rule``, never the message text.
"""

from __future__ import annotations

# Each rule as the requirement the input failed, phrased "X must ..." so the message reads as a fix.
RULES: dict[str, str] = {
    "unknown_mode": "mode must be one that the op defines",
    "bidirectional_not_in_v1": "mode must be numpy or explicit (bidirectional is new in Broadcast-3)",
    "target_shape_not_1d": "target_shape must be a 1-D tensor",
    "target_shape_negative": "target_shape values must be non-negative",
    "axes_mapping_unexpected": "axes_mapping must be given in explicit mode only",
    "axes_mapping_missing": "axes_mapping must be given in explicit mode",
    "axes_mapping_not_1d": "axes_mapping must be a 1-D tensor",
    "explicit_length": "axes_mapping must have one entry per data axis",
    "explicit_negative": "axes_mapping values must be non-negative",
    "explicit_range": "axes_mapping values must be less than the target rank",
    "explicit_unsorted": "axes_mapping must be sorted",
    "explicit_duplicate": "axes_mapping must not repeat an axis",
    "explicit_dim": "each data dimension must equal its mapped target dimension, or be 1",
    "numpy_rank": "target rank must be at least the data rank",
    "numpy_dim": "each right-aligned data dimension must equal the target dimension, or be 1",
    "bidirectional_dim": "right-aligned dimensions must be equal, or one of them must be 1",
    "v0_axes_range": "broadcast_axes must be output axes, in [0, output rank)",
    "v0_shape": "shape with broadcast_axes removed must equal the arg shape",
}


class BroadcastError(ValueError):
    """An input breaks a rule of the Broadcast spec.

    Attributes: ``op`` ("Broadcast-1", "Broadcast-3", "Broadcast-0", "Expand"), ``mode`` (None where the op
    has no mode), ``rule`` (a key of RULES) and ``detail`` (the offending argument and its values).
    The message reads ``"Broadcast-3(explicit): axes_mapping must be sorted [explicit_unsorted]; got
    axes_mapping [2, 1]"``.
    """

    def __init__(self, op: str, rule: str, detail: str, mode: str | None = None) -> None:
        self.op = op
        self.rule = rule
        self.detail = detail
        self.mode = mode
        where = op if mode is None else f"{op}({mode})"
        super().__init__(f"{where}: {RULES[rule]} [{rule}]; got {detail}")

    def __reduce__(self) -> tuple[type[BroadcastError], tuple[str, str, str, str | None]]:
        # The runners use worker processes (the suite's, xdist), which pickle exceptions; the default reduce would
        # call __init__ with the message alone and fail.
        return type(self), (self.op, self.rule, self.detail, self.mode)
