"""Hypothesis strategies shared by the property tests of the local implementation and of the adjoint."""

from __future__ import annotations

from hypothesis import strategies as st

DIMS = st.integers(0, 4)


def valid_target(draw: st.DrawFn, mode: str, data_shape: tuple[int, ...], prefix: list[int]
                 ) -> tuple[list[int], list[int] | None]:
    """A target_shape (and axes_mapping in explicit mode) that data_shape broadcasts to in ``mode``, with the
    dimensions of ``prefix`` (or as many new axes in explicit mode) added; any other mode is drawn as numpy's
    one-directional rule with some trailing axes kept, as bidirectional is."""
    if mode == "explicit":
        rank = len(data_shape) + len(prefix)
        axes = sorted(draw(st.permutations(range(rank)))[:len(data_shape)])
        target = [draw(DIMS) for _ in range(rank)]
        for d, a in zip(data_shape, axes, strict=True):
            target[a] = d if d != 1 else draw(DIMS)
        return target, axes
    keep = len(data_shape) if mode == "numpy" else draw(st.integers(0, len(data_shape)))
    tail = [d if d != 1 else draw(DIMS) for d in data_shape[len(data_shape) - keep:]]
    if mode == "bidirectional":
        tail = [draw(st.sampled_from([t, 1])) for t in tail]
    return prefix + tail, None
