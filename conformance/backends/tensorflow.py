"""TensorFlow: Broadcast-3 through TensorFlow's own broadcasting ops, on the CPU (the ``tensorflow-cpu`` wheel).

Each mode is the TensorFlow call that is that rule: numpy mode ``tf.broadcast_to(data, target_shape)`` (the op
BroadcastTo); bidirectional mode ``tf.broadcast_to(data, tf.broadcast_dynamic_shape(tf.shape(data), target_shape))``
(BroadcastArgs, TensorFlow's two-way broadcast of two shapes, gives the output shape). Explicit mode has no TensorFlow
op: BroadcastTo, BroadcastArgs and tf.broadcast_static_shape align shapes from the right only, and no public op takes an
axes mapping: XlaBroadcastHelper (tensorflow/compiler/tf2xla/python/xla.py, under XLA only) inserts dimensions of 1 into
the lower-rank operand of a binary op by ``broadcast_dims`` and leaves the broadcast to that op, and an explicit
broadcast built of it, or of reshape and broadcast_to, would test this adapter, not TensorFlow. The inputs are tensors
as a user makes them from numpy arrays (``tf.constant``), the shape of the case's integer type: BroadcastTo and
BroadcastArgs take int32 and int64 shapes only (their ``Tidx``/``T`` attributes), so another type is a rejection
TensorFlow owes (``shape_type_rule``).

Path axis ``execution``: ``eager``, the call run op by op on tensors (the default); ``function``, inside a
``tf.function`` whose input_signature gives the data its shape (``None`` where the case's data dimension is unknown
until run time) and target_shape the length ``None`` (a graph whose output rank inference cannot know);
``function_rank``, the same with target_shape's length in the signature; ``xla``, the ``function`` signature with
``jit_compile=True`` (XLA compiles it, target_shape a compile-time constant it reads from the argument's value). A
traced path declares the output shape its concrete function infers (``None`` where the graph cannot know it); a
shape-only check (an output beyond the budget, or data with unknown dimensions) traces the path's function and runs
nothing, and on the eager path traces the call with the shape a constant, as TensorFlow's shape function reads an eager
call's inputs.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import Any

import numpy as np

from conformance.backends.base import Backend, Outcome, Request
from conformance.backends.cpu_features import cpu_flags
from conformance.cases import Case
from conformance.data import DTYPES
from conformance.run.paths import Axis, Path

# TensorFlow's C++ logs (oneDNN notices, retracing warnings) on stderr, set before its first import; level 2 keeps
# its errors. No verdict reads them: a refusal is the exception TensorFlow raises.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

EXECUTION = Axis("execution", ("eager", "function", "function_rank", "xla"),
                 {"function": "fn", "function_rank": "fnrank", "xla": "xla"},
                 "the call run eagerly on tensors (the default), in a tf.function with target_shape of unknown "
                 "length, in one with its length known, or in a tf.function(jit_compile=True) compiled by XLA",
                 default="eager")
TRACED = ("function", "function_rank", "xla")
SHAPE_TYPES = ("i32", "i64")  # BroadcastTo's Tidx and BroadcastArgs' T


def broadcast(mode: str, data: Any, target: Any) -> Any:
    """The TensorFlow call of the mode on tensors (eager or symbolic alike)."""
    import tensorflow as tf

    if mode == "numpy":
        return tf.broadcast_to(data, target)
    # tf.shape's type follows target_shape's, which broadcast_dynamic_shape requires of its two shapes; a type
    # BroadcastArgs does not take is left for it to refuse
    out_type = target.dtype if target.dtype in (tf.int32, tf.int64) else tf.int64
    return tf.broadcast_to(data, tf.broadcast_dynamic_shape(tf.shape(data, out_type=out_type), target))


def specs(request: Request, execution: str) -> tuple[Any, Any]:
    """The input_signature of a traced path: the data's declared shape, target_shape's length known on
    ``function_rank`` only (every dimension of a shape input of another rank unknown likewise)."""
    import tensorflow as tf

    data = tf.TensorSpec(request.input_shape, tf.as_dtype(request.data.dtype))
    target = np.asarray(request.target_shape)
    dims = target.shape if execution == "function_rank" else (None,) * target.ndim
    return data, tf.TensorSpec(dims, tf.as_dtype(target.dtype))


def traced(request: Request, execution: str) -> Any:
    """The path's concrete function of (data, target_shape)."""
    import tensorflow as tf

    mode = request.mode
    function = tf.function(lambda data, target: broadcast(mode, data, target),
                           input_signature=specs(request, execution), jit_compile=execution == "xla", autograph=False,
                           reduce_retracing=False)
    return function.get_concrete_function()


def declared(tensor: Any) -> tuple[int | None, ...] | None:
    """A symbolic output's inferred shape (None: rank unknown)."""
    shape = tensor.shape
    return None if shape.rank is None else tuple(shape.as_list())


def as_numpy(tensor: Any, dtype: np.dtype) -> np.ndarray:
    """An output as the suite's array: TensorFlow's strings are bytes, the suite's str (encoded as UTF-8 on the way
    in by tf.constant)."""
    values = np.asarray(tensor.numpy())  # a 0-d string tensor gives a bare bytes object
    if dtype.kind == "U":
        return np.array([v.decode("utf-8") for v in values.reshape(-1)], dtype=dtype).reshape(values.shape)
    return np.array(values, copy=True)


class TensorflowBackend(Backend):
    name = "tensorflow"
    package = "tensorflow-cpu"
    axes = (EXECUTION,)
    dtypes = frozenset(DTYPES)
    preload = ("tensorflow", "conformance.backends.tensorflow")

    def version(self) -> str | None:
        from importlib import metadata

        for distribution in ("tensorflow-cpu", "tensorflow"):  # either wheel is TensorFlow
            try:
                return metadata.version(distribution)
            except metadata.PackageNotFoundError:
                continue
        return None

    def hardware(self) -> tuple[str, ...]:
        """``cpu:avx512_bf16`` where the CPU has AVX512-BF16, whose conversion XLA's bf16 copies may go through
        (tf-xla-cpu-bf16-broadcast-flushes-subnormals)."""
        return cpu_flags(("avx512_bf16",))

    def unavailable(self) -> str | None:
        if self.version() is None:
            return "package 'tensorflow-cpu' is not installed (pip install 'broadcast-conformance[tensorflow]')"
        try:
            import tensorflow  # noqa: F401
        except ImportError as e:  # a wheel whose native library does not load here
            return f"tensorflow cannot be imported: {e}"
        return None

    def op_version(self, path: Path, op: str = "broadcast") -> int | None:
        return 3  # numpy and bidirectional: Broadcast-3's modes

    def fed_at_run_time(self, path: Path) -> bool:
        return dict(path).get("execution") in TRACED

    def shape_type_rule(self, path: Path, shape_dtype: str) -> str | None:
        if shape_dtype not in SHAPE_TYPES:
            return "tf_shape_int32_int64 (BroadcastTo's and BroadcastArgs' shapes are int32 or int64 only)"
        return None

    def paths_for(self, case: Case, every: bool = False) -> dict[Path, str | None]:
        if case.op == "broadcast":
            params = case.params
            if params.mode == "explicit":
                return {(): "TensorFlow has no explicit broadcast: BroadcastTo and BroadcastArgs align shapes from "
                            "the right; the one op with an axes mapping, XLA's XlaBroadcastHelper (tf2xla's xla.py, "
                            "not tf.*), only reshapes an operand of a binary op"}
            if params.mode not in ("numpy", "bidirectional"):
                return {(): f"TensorFlow has no broadcast of mode {params.mode!r}"}
            if params.axes_mapping is not None:
                return {(): f"TensorFlow's {params.mode}-mode call (tf.broadcast_to) has no axes_mapping argument"}
        paths = super().paths_for(case, every)
        if case.dynamic:
            paths = {p: reason or ("an eager tensor has every dimension known: data with a dimension unknown until "
                                   "run time is a traced function's" if dict(p).get("execution") == "eager" else None)
                     for p, reason in paths.items()}
        return paths

    def why_not(self, case: Case, path: Path, dtype: str) -> str | None:
        reason = super().why_not(case, path, dtype)
        if reason is None and dtype in ("i4", "u4") and dict(path).get("execution") == "xla" and case.valid and \
                case.expect_shape is not None and None not in case.expect_shape and math.prod(case.expect_shape) == 1:
            return ("under XLA a 4-bit output of one element is a packed byte whose other nibble is the output "
                    "buffer's old content: its bytes are chance, no verdict (tf-xla-4-bit-data-read-as-packed, "
                    "conformance/known/tensorflow.yaml, records the longer outputs, which are wrong)")
        return reason

    def run(self, request: Request) -> Outcome:
        import tensorflow as tf

        execution = request.path.get("execution", "eager")
        try:
            data, target = tf.constant(request.data), tf.constant(request.target_shape)
        except Exception as e:  # noqa: BLE001 -- a value tf.constant cannot take is TensorFlow's refusal
            return Outcome(error=f"{type(e).__name__}: {e}", stage="build")
        if execution == "eager":
            try:
                result = broadcast(request.mode, data, target)
            except Exception as e:  # noqa: BLE001 -- InvalidArgumentError, TypeError, ValueError: its refusal
                return Outcome(error=f"{type(e).__name__}: {e}", stage="validate")
            return Outcome(output=as_numpy(result, request.data.dtype), declared_shape=tuple(result.shape))
        try:
            function = traced(request, execution)
        except Exception as e:  # noqa: BLE001 -- the op's shape function or type check, while tracing
            return Outcome(error=f"{type(e).__name__}: {e}", stage="compile")
        shape = declared(function.structured_outputs)
        try:
            result = function(data, target)
        except Exception as e:  # noqa: BLE001 -- the kernel (or XLA's compile, at the first call) refuses it
            return Outcome(error=f"{type(e).__name__}: {e}", stage="infer", declared_shape=shape)
        return Outcome(output=as_numpy(result, request.data.dtype), declared_shape=shape)

    def declare(self, request: Request) -> Outcome:
        import tensorflow as tf

        execution = request.path.get("execution", "eager")
        try:
            if execution == "eager":  # the shape a Const node: what the op's shape function reads of an eager call
                values, mode = request.target_shape, request.mode
                data = tf.TensorSpec(request.input_shape, tf.as_dtype(request.data.dtype))
                function: Callable[..., Any] = tf.function(lambda d: broadcast(mode, d, tf.constant(values)),
                                                           input_signature=(data,), autograph=False)
                output = function.get_concrete_function().structured_outputs
            else:
                output = traced(request, execution).structured_outputs
        except Exception as e:  # noqa: BLE001 -- the op's shape function refuses it while tracing
            return Outcome(error=f"{type(e).__name__}: {e}", stage="compile")
        return Outcome(declared_shape=declared(output))
