"""PyTorch: Broadcast-3's numpy and bidirectional modes through torch's own broadcasting calls, on the CPU.

Numpy mode is ``torch.broadcast_to(data, target_shape)`` or ``data.expand(target_shape)`` (path axis ``call``);
bidirectional mode the same call of ``torch.broadcast_shapes(data.shape, target_shape)``. Torch has no call that is
the explicit rule (its broadcasts align trailing dimensions, numpy's rule), so explicit mode is not applicable: a
reshape and an expand built by us would test our adapter, not torch. The shape inputs are given as a user writes
them, Python ints (jax.py ``as_python``): what torch does with a -1, a shape of another rank or a value beyond int64 is
torch's own reading.

Path axis ``execution``: eager (the default); ``aot_eager``, ``torch.compile`` with the aot_eager backend (dynamo
traces the call on fake tensors, through torch's Python shape rules, torch/_refs, and AOTAutograd's graph is run by
the eager kernels: ~0.05 s a check); ``inductor``, ``torch.compile``'s default backend, which writes and compiles
(gcc) a C++ kernel for each shape and element type: ~1 s a check here, 3 s for a worker's first, so a default run
takes it for the spec's own examples only (``--paths all``: every case). A compiled call copies the broadcast into a
contiguous tensor inside the compiled function: an output that aliases the input (a broadcast is a view of it) is
returned by inductor as that view, with no kernel generated, so the copy is where its code runs (an eager check
copies the stride-0 view after the call). A shape-only check (an output beyond the output budget) runs the call on a
tensor of the "meta" device, which has a shape and no storage, eagerly or traced by torch.compile (aot_eager: the
shapes inductor would compile are those of this same trace); so does a compiled check whose output might exceed the
budget, before its copy is run, so that an accepted invalid input with a huge output is not taken for a failed
allocation.

Element types: torch has no strings, and its 4-bit ``torch.int4``/``torch.uint4`` are shell dtypes without kernels
(not applicable). bfloat16 and float8 data, which numpy holds only through ml_dtypes, cross into torch and back as
their bits (an integer tensor of the same width, ``Tensor.view(dtype)``), so no value is converted on the way.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from conformance.backends.base import Backend, Outcome, Request
from conformance.backends.jax import as_python
from conformance.cases import Case
from conformance.data import DTYPES
from conformance.run.paths import Axis, Path

CALL = Axis("call", ("broadcast_to", "expand"), {},
            "the function called: torch.broadcast_to(data, shape) (the default) or the method data.expand(shape)",
            default="broadcast_to")
EXECUTION = Axis("execution", ("eager", "aot_eager", "inductor"), {"aot_eager": "aot"},
                 "eager (the default); torch.compile with the aot_eager backend (traced on fake tensors, run by the "
                 "eager kernels); torch.compile with inductor (a C++ kernel compiled per shape and type: the spec's "
                 "examples only in a default run)", default="eager")
COMPILED = {"aot_eager", "inductor"}
# Element types numpy holds through ml_dtypes: torch's type, and the integer type of the same width their bits cross in
BITS = {"bf16": ("bfloat16", np.int16), "f8e4m3": ("float8_e4m3fn", np.uint8), "f8e5m2": ("float8_e5m2", np.uint8)}
NAMES = {np.dtype(t): name for name, t in DTYPES.items() if name != "string"}


def broadcast_call(request: Request) -> Callable[[Any], Any]:
    """The torch call of the request's mode and path, as a function of the data tensor (the shape its constant)."""
    import torch

    target = as_python(request.target_shape)
    expand = request.path.get("call") == "expand"

    def call(data: Any, shape: Any) -> Any:
        return data.expand(shape) if expand else torch.broadcast_to(data, shape)

    if request.mode == "numpy":
        return lambda data: call(data, target)
    return lambda data: call(data, torch.broadcast_shapes(data.shape, target))


def torch_dtype(dtype: np.dtype) -> Any:
    """The torch element type of a numpy one."""
    import torch

    name = NAMES[np.dtype(dtype)]
    return getattr(torch, BITS[name][0]) if name in BITS else torch.from_numpy(np.empty(0, dtype)).dtype


def to_torch(data: np.ndarray) -> Any:
    """The numpy data as a torch tensor of the same type and bits (a copy: torch.from_numpy shares the memory)."""
    import torch

    name = NAMES[data.dtype]
    if name in BITS:
        torch_type, bits = BITS[name]
        return torch.from_numpy(np.array(data).view(bits)).view(getattr(torch, torch_type))
    return torch.from_numpy(np.array(data))


def to_numpy(tensor: Any, dtype: np.dtype) -> np.ndarray:
    """A torch tensor back in numpy, contiguous, bit for bit (``dtype``: the numpy type it stands for)."""
    tensor = tensor.contiguous()
    name = NAMES.get(np.dtype(dtype))
    if name in BITS:
        import torch

        bits = BITS[name][1]
        return tensor.view(getattr(torch, np.dtype(bits).name)).numpy().view(dtype).copy()
    return tensor.numpy().copy()


def compiled(fn: Callable[[Any], Any], execution: str) -> Callable[[Any], Any]:
    """``fn`` under torch.compile with the path's backend, a fresh compilation: dynamo's caches (keyed by the code
    object, the same for every check) are cleared first, so that no check runs a graph another one compiled, and
    dynamo's limit of 8 recompilations of one function is never met."""
    import torch

    torch._dynamo.reset()
    return torch.compile(fn, backend=execution, fullgraph=True, dynamic=False)


class TorchBackend(Backend):
    name = "torch"
    package = "torch"
    axes = (CALL, EXECUTION)
    dtypes = frozenset(DTYPES) - {"string", "i4", "u4"}
    unsupported = {
        "string": "torch tensors hold numbers and booleans only: there is no string element type",
        "i4": "torch.int4 is a shell dtype without kernels (copying an int4 tensor raises 'copy_kernel not "
              "implemented'; https://docs.pytorch.org/docs/stable/tensor_attributes.html): torch has no 4-bit "
              "values of its own",
        "u4": "torch.uint4 is a shell dtype without kernels (copying a uint4 tensor raises 'copy_kernel not "
              "implemented'; https://docs.pytorch.org/docs/stable/tensor_attributes.html): torch has no 4-bit "
              "values of its own",
    }
    preload = ("torch", "torch._dynamo", "torch._inductor", "conformance.backends.torch")

    def unavailable(self) -> str | None:
        reason = super().unavailable()
        if reason is not None:
            return f"{reason} (pip install torch==2.13.0 'broadcast-conformance[torch]': README, the torch extra)"
        try:
            import torch  # noqa: F401
        except ImportError as e:
            return f"torch cannot be imported: {e}"
        return None

    def op_version(self, path: Path, op: str = "broadcast") -> int | None:
        return 3  # numpy and bidirectional: Broadcast-3's modes

    def chooses_paths(self) -> bool:
        return True  # inductor's paths are the spec's examples' only, on every group's choice (paths_for)

    def paths_for(self, case: Case, every: bool = False) -> dict[Path, str | None]:
        if case.op == "broadcast":
            params = case.params
            if params.mode == "explicit":
                return {(): "torch has no broadcast with an axes mapping: torch.broadcast_to and Tensor.expand align "
                            "trailing dimensions (numpy's rule), and a reshape before them would be our adapter's "
                            "explicit rule, not torch's"}
            if params.mode not in ("numpy", "bidirectional"):
                return {(): f"torch has no broadcast of mode {params.mode!r}"}
            if params.axes_mapping is not None:
                return {(): f"torch's {params.mode}-mode calls (broadcast_to, expand) have no axes_mapping argument"}
            if case.dynamic:
                return {(): "torch runs a call on a tensor of concrete shape: a data dimension unknown until run "
                            "time cannot be given to it"}
        paths = super().paths_for(case, every)
        if every or case.group == "spec_example":
            return paths
        return {path: why for path, why in paths.items() if dict(path).get("execution") != "inductor"}

    def run(self, request: Request) -> Outcome:
        call = broadcast_call(request)
        execution = request.path.get("execution", "eager")
        try:
            data = to_torch(request.data)
        except RuntimeError as e:  # torch refuses a tensor of the data's shape (torch-numel-beyond-int64-rejected)
            return Outcome(error=_message(e), stage="build")
        if execution in COMPILED and _may_exceed(request):
            # The compiled function copies its output: the shape it would have comes first, from the same trace on
            # the meta device, so that an accepted invalid input is not taken for a failed allocation
            declared = self.declare(request)
            if declared.error is not None or _beyond(declared.declared_shape, request, data.element_size()):
                return declared
        try:
            # compiled: the copy inside the compiled function, where inductor's own code does it
            run = compiled(lambda d: call(d).contiguous(), execution) if execution in COMPILED else call
            result = run(data)
        except Exception as e:  # torch's RuntimeError/TypeError for a shape it refuses; dynamo's, wrapping it
            return Outcome(error=_message(e), stage="trace" if execution in COMPILED else "validate")
        shape = tuple(result.shape)
        if _beyond(shape, request, result.element_size()):
            return Outcome(declared_shape=shape)
        return Outcome(output=to_numpy(result, request.data.dtype), declared_shape=shape)

    def run_many(self, requests: list[Request]) -> list[Outcome]:
        """A compiled path: one compiled function computing every request's broadcast (each its own argument and
        output), compiled once (inductor's C++ compile is the cost of a check); if it cannot be traced (one request is
        refused), the harness runs each alone."""
        if not requests or any(r.path.get("execution", "eager") not in COMPILED or r.path != requests[0].path
                               for r in requests):
            return [self.run(request) for request in requests]
        calls = [broadcast_call(request) for request in requests]
        results = compiled(lambda *data: tuple(call(d).contiguous() for call, d in zip(calls, data, strict=True)),
                           requests[0].path["execution"])(*(to_torch(request.data) for request in requests))
        return [Outcome(output=to_numpy(r, request.data.dtype), declared_shape=tuple(r.shape))
                for r, request in zip(results, requests, strict=True)]

    def declare(self, request: Request) -> Outcome:
        import torch

        execution = request.path.get("execution", "eager")
        dims = [d for d in request.input_shape if d is not None]
        if len(dims) < len(request.input_shape):
            return Outcome()  # a dimension unknown until run time: such cases are not applicable (paths_for)
        try:
            data = torch.empty(tuple(dims), dtype=torch_dtype(request.data.dtype), device="meta")
        except RuntimeError as e:  # torch refuses a tensor of the data's shape (torch-numel-beyond-int64-rejected)
            return Outcome(error=_message(e), stage="build")
        call = broadcast_call(request)
        try:
            # compiled: the trace that decides the shapes, without inductor's code generation (nothing runs on meta)
            shape = (compiled(call, "aot_eager") if execution in COMPILED else call)(data).shape
        except Exception as e:
            return Outcome(error=_message(e), stage="trace" if execution in COMPILED else "validate")
        return Outcome(declared_shape=tuple(int(d) for d in shape))


def _may_exceed(request: Request) -> bool:
    """The output might be larger than the output budget: the product of the data's dimensions and the target_shape's
    values (as magnitudes) bounds it."""
    values = [abs(int(v)) for v in np.asarray(request.target_shape).reshape(-1).tolist()] + list(request.data.shape)
    return (request.max_output_bytes is not None and
            math.prod(max(v, 1) for v in values) * request.data.dtype.itemsize > request.max_output_bytes)


def _beyond(shape: tuple[int | None, ...] | None, request: Request, item_size: int) -> bool:
    """A shape whose tensor numpy cannot hold (a negative dimension: torch-expand-negative-size-beside-zero) or larger
    than any right output (the input is invalid: a valid one this large is a shape-only check, never run): the check
    gets the shape alone, the output never copied."""
    shape = tuple(d or 0 for d in shape or ())
    return min(shape, default=0) < 0 or (request.max_output_bytes is not None and
                                         math.prod(shape) * item_size > request.max_output_bytes)


def _message(e: Exception) -> str:
    """The refusal as torch says it: its type and first lines (dynamo's errors add pages of hints after them)."""
    return f"{type(e).__name__}: " + "\n".join(str(e).splitlines()[:3])
