"""JAX: Broadcast-3 through jax's own broadcasting functions, on the CPU.

Each mode is the jax function that is that rule: numpy mode ``jnp.broadcast_to(data, target_shape)``; explicit mode
``lax.broadcast_in_dim(data, target_shape, broadcast_dimensions=axes_mapping)`` (jax's own reference of it,
jax/_src/lax_reference.py, is the explicit rule: each operand axis goes to the output axis it names, a dimension
of 1 stretched); bidirectional mode ``jnp.broadcast_to(data, jnp.broadcast_shapes(data.shape, target_shape))``. The
shape inputs are given as a user writes them, Python tuples of ints (``as_python``), so what jax does with a shape of
another rank, a negative value or a value beyond int64 is jax's own reading.

Path axes: ``execution``, the call run eagerly on a jax array (op by op, the default) or inside ``jax.jit`` (the data
an argument of the jitted function, the shapes static: Python values of the traced function, as jax requires of a
shape); ``x64``, jax's 64-bit mode (``jax_enable_x64``) on, the default here, or off, jax's own default, where
64-bit inputs become 32-bit ones. A shape-only check (an output beyond the output budget) asks ``jax.eval_shape``,
which traces the call and allocates nothing. Jax has no string arrays, and traces with concrete shapes only (a
data dimension unknown until run time cannot be written: such cases are not applicable).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from conformance.backends.base import Backend, Outcome, Request
from conformance.backends.cpu_features import cpu_flags
from conformance.cases import Case
from conformance.data import DTYPES
from conformance.run.paths import Axis, Path

EXECUTION = Axis("execution", ("eager", "jit"), {"jit": "jit"},
                 "the call run eagerly, op by op (the default), or inside jax.jit with the data as the jitted "
                 "function's argument and the shapes static", default="eager")
X64 = Axis("x64", ("on", "off"), {"off": "x32"},
           "jax's 64-bit mode (jax_enable_x64) on (the default here), or off as jax installs it: 64-bit inputs are "
           "then made 32-bit", default="on")


def broadcast_call(request: Request) -> Callable[[Any], Any]:
    """The jax call of the request's mode, as a function of the data (the shapes are its constants)."""
    import jax.numpy as jnp
    from jax import lax

    target, mode = as_python(request.target_shape), request.mode
    if mode == "numpy":
        return lambda data: jnp.broadcast_to(data, target)
    if mode == "explicit":
        axes = as_python(request.axes_mapping)
        return lambda data: lax.broadcast_in_dim(data, target, axes)
    return lambda data: jnp.broadcast_to(data, jnp.broadcast_shapes(data.shape, target))


def as_python(values: np.ndarray | None) -> Any:
    """A shape input as a user writes it in Python: a tuple of ints (nested for a shape input of rank 2 or more, an
    int for a scalar); jax's functions take Python sequences as shapes (lax.broadcast_in_dim compares a numpy shape
    with ``==`` and fails on the array, an error of ours, not jax's reading of the values)."""
    if values is None:
        return None
    listed = np.asarray(values).tolist()

    def tupled(v: Any) -> Any:
        return tuple(tupled(x) for x in v) if isinstance(v, list) else v

    return tupled(listed)


@contextmanager
def x64_mode(path: dict[str, str] | Any) -> Iterator[None]:
    """jax's 64-bit mode as the path says, for the calls inside (jax.enable_x64 is a context of its own)."""
    import jax

    with jax.enable_x64(path.get("x64", "on") == "on"):
        yield


class JaxBackend(Backend):
    name = "jax"
    package = "jax"
    axes = (EXECUTION, X64)
    dtypes = frozenset(DTYPES) - {"string"}
    unsupported = {"string": "jax arrays hold numbers and booleans only: there is no string element type"}
    # jaxlib.mlir.dialects.mhlo: imported when the first call is lowered (~20 modules), else in every fresh worker
    preload = ("jax", "jax.numpy", "jax.lax", "jaxlib.mlir.dialects.mhlo", "jaxlib.mlir.dialects.builtin",
               "conformance.backends.jax")

    def unavailable(self) -> str | None:
        reason = super().unavailable()
        if reason is not None:
            return f"{reason} (pip install 'broadcast-conformance[jax]')"
        try:
            import jax  # noqa: F401
            import jaxlib  # noqa: F401
        except ImportError as e:  # jax without a jaxlib, or one that does not load here
            return f"jax cannot be imported: {e}"
        return None

    def hardware(self) -> tuple[str, ...]:
        """``cpu:avx512_bf16`` where the CPU has AVX512-BF16 (its conversion to bfloat16 flushes subnormals:
        jax-cpu-bf16-broadcast-flushes-subnormals), from Linux's /proc/cpuinfo; elsewhere nothing is known."""
        return cpu_flags(("avx512_bf16",))

    def op_version(self, path: Path, op: str = "broadcast") -> int | None:
        return 3  # numpy, explicit and bidirectional: Broadcast-3's modes

    def paths_for(self, case: Case, every: bool = False) -> dict[Path, str | None]:
        if case.op == "broadcast":
            params = case.params
            if params.mode not in ("numpy", "explicit", "bidirectional"):
                return {(): f"jax has no broadcast of mode {params.mode!r}"}
            if params.mode != "explicit" and params.axes_mapping is not None:
                return {(): f"jax's {params.mode}-mode call (jnp.broadcast_to) has no axes_mapping argument"}
            if params.mode == "explicit" and params.axes_mapping is None:
                return {(): "lax.broadcast_in_dim requires broadcast_dimensions: a call without them cannot be "
                            "written"}
            if case.dynamic:
                return {(): "jax traces with concrete shapes: a data dimension unknown until run time cannot be "
                            "given to jnp.broadcast_to or lax.broadcast_in_dim"}
        return super().paths_for(case, every)

    def run(self, request: Request) -> Outcome:
        import jax
        import jax.numpy as jnp

        call = broadcast_call(request)
        jitted = request.path.get("execution") == "jit"
        with x64_mode(request.path):
            try:
                # eager: on a jax array, as jax code holds its data (lax.broadcast_in_dim takes a shortcut for one,
                # jax-broadcast-in-dim-empty-dimensions-returns-operand); jit: the numpy array is the argument
                result = jax.jit(call)(request.data) if jitted else call(jnp.asarray(request.data))
                output = np.array(result, copy=True)
            except Exception as e:  # jax's TypeError/ValueError for a shape it refuses, or whatever XLA raises
                return Outcome(error=f"{type(e).__name__}: {e}", stage="trace" if jitted else "validate")
        return Outcome(output=output, declared_shape=tuple(result.shape))

    def run_many(self, requests: list[Request]) -> list[Outcome]:
        """The jit path: one jitted function computing every request's broadcast (each its own argument and output),
        compiled once; if it cannot be traced (one request is refused), the harness runs each alone."""
        if not requests or any(r.path.get("execution") != "jit" or r.path != requests[0].path for r in requests):
            return [self.run(request) for request in requests]
        import jax

        calls = [broadcast_call(request) for request in requests]
        with x64_mode(requests[0].path):
            results = jax.jit(lambda *data: tuple(call(d) for call, d in zip(calls, data, strict=True)))(
                *(request.data for request in requests))
            return [Outcome(output=np.array(r, copy=True), declared_shape=tuple(r.shape)) for r in results]

    def declare(self, request: Request) -> Outcome:
        import jax

        data = jax.ShapeDtypeStruct(tuple(int(d) for d in request.input_shape), request.data.dtype)
        with x64_mode(request.path):
            try:
                shape = jax.eval_shape(broadcast_call(request), data).shape
            except Exception as e:
                return Outcome(error=f"{type(e).__name__}: {e}", stage="trace")
        return Outcome(declared_shape=tuple(int(d) for d in shape))
