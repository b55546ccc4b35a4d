"""OpenVINO: opset1 and opset3 Broadcast, built with the real `openvino` package, run on the CPU plugin.

Its path axes: ``opset`` (1 or 3: the opset the Broadcast node is built from) and ``target_shape``, which takes
different code paths in OpenVINO:
``Constant``   target_shape and axes_mapping are Constants: the output shape is inferred when the node is built;
``Parameter``  they are Parameters fed at inference: the node's shape is dynamic and resolved at run time.
The data is always a Parameter, so the CPU plugin's Broadcast kernel runs (a Constant would be folded).

Compiling is most of a check's cost (about 25 ms), so ``run_many`` puts the Broadcast nodes of several checks
side by side in one model, each with its own Parameters and output, and compiles that once; a single check's
compiled model is kept per signature (a ``param`` model serves every check with the same data shape and
input lengths). A shared model that fails to compile or run is never a verdict: each check is run alone.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

import numpy as np

from conformance.backends.base import Backend, Outcome, Request
from conformance.data import DTYPES
from conformance.run.paths import Axis, Path

COMPILED_CACHE_SIZE = 64
STRING_UNSUPPORTED = ("OpenVINO's CPU plugin takes no string tensors: compile_model fails with 'CPU plugin does not "
                      "support string for use with oneDNN' (src/plugins/intel_cpu/src/dnnl_extension_utils.cpp)")


def declared(partial_shape: Any) -> tuple[int | None, ...] | None:
    """An ov.PartialShape as a tuple, None for each dynamic dimension; None for a dynamic rank."""
    if partial_shape.rank.is_dynamic:
        return None
    return tuple(d.get_length() if d.is_static else None for d in partial_shape)


# Element types whose numpy arrays (ml_dtypes) OpenVINO's Python API does not take as they are: they are fed
# as raw bytes in an ov.Tensor of the type, and read back from the output tensor's bytes (4-bit types packed two
# to a byte, the first element in the low nibble).
RAW_TYPES = {"bfloat16": "bf16", "float8_e4m3fn": "f8e4m3", "float8_e5m2": "f8e5m2", "int4": "i4", "uint4": "u4"}


@cache
def cpu_capabilities() -> tuple[str, ...]:
    """The CPU plugin's OPTIMIZATION_CAPABILITIES as ``cpu:<name>``: ``cpu:bf16`` where it runs bfloat16 natively
    (AVX512-BF16 or AMX), which changes some results (ov-cpu-bf16-multiply-flushes-subnormals). A fact of the
    machine: asked once per process, whichever OpenVINO backend asks."""
    import openvino

    try:
        return tuple(f"cpu:{c.lower()}" for c in openvino.Core().get_property("CPU", "OPTIMIZATION_CAPABILITIES"))
    except RuntimeError:
        return ()


def element_type(dtype: np.dtype) -> Any:
    import openvino

    raw = RAW_TYPES.get(dtype.name)
    return getattr(openvino.Type, raw) if raw else dtype


def to_tensor(array: np.ndarray) -> Any:
    """What to feed for an input: the array itself, or an ov.Tensor holding its bytes."""
    import openvino

    raw = RAW_TYPES.get(array.dtype.name)
    if raw is None:
        return array
    tensor = openvino.Tensor(getattr(openvino.Type, raw), openvino.Shape(list(array.shape)))
    target = tensor.data.reshape(-1).view(np.uint8)  # 1-D first: a 0-d array cannot change its item size
    nibbles = np.ascontiguousarray(array).reshape(-1).view(np.uint8) & 0xF
    if raw in ("i4", "u4"):
        nibbles = np.append(nibbles, np.uint8(0)) if nibbles.size % 2 else nibbles
        target[:] = nibbles[0::2] | (nibbles[1::2] << 4)
    else:
        target[:] = np.ascontiguousarray(array).reshape(-1).view(np.uint8)
    return tensor


def from_tensor(tensor: Any, dtype: np.dtype) -> np.ndarray:
    """An output tensor as our own numpy array; in the element type the check expects when the tensor has
    that type (else in the tensor's own type, which the judge then reports as a wrong element type)."""
    shape = tuple(tensor.shape)
    raw = RAW_TYPES.get(dtype.name)
    if raw is None or tensor.element_type != element_type(dtype):
        return np.array(tensor.data, copy=True)
    data = np.array(tensor.data, copy=True).reshape(-1).view(np.uint8)
    if raw in ("i4", "u4"):
        nibbles = np.empty(data.size * 2, np.uint8)
        nibbles[0::2], nibbles[1::2] = data & 0xF, data >> 4
        nibbles = nibbles[: int(np.prod(shape, dtype=np.int64))]
        if raw == "i4":
            return np.where(nibbles >= 8, nibbles.astype(np.int16) - 16, nibbles).astype(dtype).reshape(shape)
        return nibbles.astype(dtype).reshape(shape)
    return data.view(dtype).reshape(shape)


def infer(compiled: Any, feeds: list[np.ndarray], dtypes: list[np.dtype]) -> list[np.ndarray]:
    """Run a compiled model once in a fresh infer request: every output, copied out of OpenVINO's buffers."""
    request = compiled.create_infer_request()
    request.infer([to_tensor(f) for f in feeds])
    return [from_tensor(request.get_output_tensor(k), dtype) for k, dtype in enumerate(dtypes)]


def infer_one(compiled: Any, feeds: list[np.ndarray], shape: tuple[int | None, ...] | None) -> Outcome:
    """A one-output model's Outcome; a rejection is stage ``infer``."""
    try:
        (output,) = infer(compiled, feeds, [feeds[0].dtype])
    except RuntimeError as e:
        return Outcome(error=str(e), stage="infer", declared_shape=shape)
    return Outcome(output=output, declared_shape=shape)


def compile_and_infer(core: Any, model: Any, feeds: list[np.ndarray],
                      shape: tuple[int | None, ...] | None) -> Outcome:
    """Compile on the CPU plugin and run once; a rejection names the stage it came from."""
    try:
        compiled = core.compile_model(model, "CPU")
    except RuntimeError as e:
        return Outcome(error=str(e), stage="compile", declared_shape=shape)
    return infer_one(compiled, feeds, shape)


def compile_and_infer_many(core: Any, model: Any, feeds: list[np.ndarray],
                           dtypes: list[np.dtype]) -> list[np.ndarray] | None:
    """Every output of a model of several independent parts; None if compiling or running failed."""
    try:
        return infer(core.compile_model(model, "CPU"), feeds, dtypes)
    except RuntimeError:
        return None


@dataclass
class Graph:
    """One check's Broadcast node, its Parameters and what to feed them, and the shape it declares."""

    output: Any
    params: list[Any]
    feeds: list[np.ndarray]
    shape: tuple[int | None, ...] | None


class OpenVINOBackend(Backend):
    name = "openvino"
    package = "openvino"
    axes = (Axis("opset", ("1", "3"), {"1": "opset1", "3": "opset3"},
                 "the opset the Broadcast node is built from: Broadcast-1 or Broadcast-3"),
            Axis("target_shape", ("Constant", "Parameter"), {"Constant": "const", "Parameter": "param"},
                 "target_shape and axes_mapping as Constants (the output shape inferred when the node is built) "
                 "or as Parameters fed at run time"))
    dtypes = frozenset(DTYPES) - {"string"}
    unsupported = {"string": STRING_UNSUPPORTED}
    preload = ("openvino", "conformance.backends.openvino_libraries")

    def __init__(self) -> None:
        self.compiled: OrderedDict[tuple[Any, ...], Any] = OrderedDict()  # signature -> compiled model

    @cached_property
    def core(self) -> Any:
        import openvino

        return openvino.Core()

    def hardware(self) -> tuple[str, ...]:
        return cpu_capabilities()

    def op_version(self, path: Path, op: str = "broadcast") -> int | None:
        return int(dict(path)["opset"])

    def fed_at_run_time(self, path: Path) -> bool:
        return dict(path)["target_shape"] == "Parameter"

    def graph(self, request: Request, prefix: str = "") -> Graph | Outcome:
        """The check's node and inputs; or the rejection at build time."""
        import openvino
        import openvino.opset1
        import openvino.opset3
        from openvino.utils.node_factory import NodeFactory

        opset_name = f"opset{request.path['opset']}"
        opset = openvino.opset1 if opset_name == "opset1" else openvino.opset3
        as_param = request.path["target_shape"] == "Parameter"
        # -1: a dimension unknown until run time (a case's "?")
        data = opset.parameter([-1 if d is None else d for d in request.input_shape],
                               element_type(request.data.dtype), name=f"{prefix}data")
        params, feeds = [data], [request.data]

        def shape_input(values: np.ndarray, name: str) -> Any:
            if not as_param:
                # openvino.op.Constant, not opset.constant(): the latter refuses an empty array, and an
                # empty target_shape or axes_mapping is valid (a scalar output, a scalar input).
                return openvino.op.Constant(values)
            node = opset.parameter(values.shape, values.dtype, name=f"{prefix}{name}")
            params.append(node)
            feeds.append(values)
            return node

        try:
            target = shape_input(request.target_shape, "target_shape")
            axes = None if request.axes_mapping is None else shape_input(request.axes_mapping, "axes_mapping")
            # The NodeFactory, not opset.broadcast(): the Python helper silently drops axes_mapping outside
            # explicit mode, which would hide how OpenVINO treats a third input there.
            inputs = [data, target] + ([] if axes is None else [axes])
            node = NodeFactory(opset_name).create("Broadcast", inputs, {"mode": request.mode})
            shape = declared(node.get_output_partial_shape(0))
        except RuntimeError as e:
            return Outcome(error=str(e), stage="build")
        return Graph(node.output(0), params, feeds, shape)

    def declare(self, request: Request) -> Outcome:
        built = self.graph(request)
        return built if isinstance(built, Outcome) else Outcome(declared_shape=built.shape)

    @staticmethod
    def signature(request: Request) -> tuple[Any, ...]:
        """What the compiled model depends on: with Parameters for the shape inputs, their lengths only."""
        as_param = request.path["target_shape"] == "Parameter"

        def shape_input(values: np.ndarray | None) -> Any:
            if values is None:
                return None
            return (values.dtype.name, values.shape) if as_param else (values.dtype.name, values.tobytes())

        # dtype names, not .str: every ml_dtypes type of one byte is '<V1'
        return (tuple(request.path.items()), request.mode, request.data.dtype.name, request.input_shape,
                shape_input(request.target_shape), shape_input(request.axes_mapping))

    def run(self, request: Request) -> Outcome:
        import openvino

        built = self.graph(request)
        if isinstance(built, Outcome):
            return built
        key = self.signature(request)
        compiled = self.compiled.get(key)
        if compiled is None:
            try:
                compiled = self.core.compile_model(openvino.Model([built.output], built.params, "broadcast"), "CPU")
            except RuntimeError as e:
                return Outcome(error=str(e), stage="compile", declared_shape=built.shape)
            self.compiled[key] = compiled
            if len(self.compiled) > COMPILED_CACHE_SIZE:
                self.compiled.popitem(last=False)
        else:
            self.compiled.move_to_end(key)
        return infer_one(compiled, built.feeds, built.shape)

    def run_many(self, requests: list[Request]) -> list[Outcome]:
        import openvino

        outcomes: list[Outcome | None] = [None] * len(requests)
        graphs: list[tuple[int, Graph]] = []
        for i, request in enumerate(requests):
            built = self.graph(request, prefix=f"check{i}_")
            if isinstance(built, Outcome):
                outcomes[i] = built  # rejected when built: that is this check's own result
            else:
                graphs.append((i, built))
        if graphs:
            model = openvino.Model([g.output for _, g in graphs], [p for _, g in graphs for p in g.params], "batch")
            results = compile_and_infer_many(self.core, model, [f for _, g in graphs for f in g.feeds],
                                             [g.feeds[0].dtype for _, g in graphs])
            for k, (i, g) in enumerate(graphs):
                outcomes[i] = (self.run(requests[i]) if results is None
                               else Outcome(output=results[k], declared_shape=g.shape))
        return [o for o in outcomes if o is not None]
