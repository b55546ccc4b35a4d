"""OpenVINO: opset1 and opset3 Broadcast, built with the real `openvino` package, run on the CPU plugin.

Its path axes are data (conformance/backends/openvino_paths.py: what each value means and where it applies;
conformance/backends/openvino_graph.py builds it): ``opset`` (1 or 3), ``target_shape`` (a Constant: the output
shape inferred when the node is built; a Parameter fed at run time; ShapeOf of another input, computed at run
time), and the ways a Broadcast sits in a real model: ``data`` (a Parameter of static or of dynamic shape, a
Constant folded while compiling or by openvino's ConstantFolding pass before), ``axes_mapping`` (where it
differs from target_shape), ``context`` (followed by BitwiseXor, inside Add(x, Broadcast(y, ShapeOf(x))),
between Transposes) and ``source`` (the Python API, or an IR file read back). The Broadcast node declares a
shape before running, which is checked too.

Compiling is most of a check's cost (about 25 ms), so ``run_many`` puts the Broadcast nodes of several checks
side by side in one model, each with its own Parameters and output, and compiles that once (one model for each
of: as built, folded before compiling, read back from IR); a single check's compiled model is kept per
signature (a ``param`` model serves every check with the same data shape and input lengths). A shared model
that fails to compile or run is never a verdict: each check is run alone.
"""

from __future__ import annotations

from collections import OrderedDict
from functools import cache, cached_property
from typing import Any

import numpy as np

from conformance.backends import openvino_elementwise as elementwise
from conformance.backends import openvino_paths as paths_mod
from conformance.backends import openvino_threads as threads
from conformance.backends.base import Backend, Outcome, Request
from conformance.backends.cpu_features import one_inference_thread
from conformance.backends.openvino_graph import Graph, build, declared, model_of, run_compiled
from conformance.cases import Case
from conformance.data import DTYPES
from conformance.run.paths import Axis, Path

__all__ = ["DEVICE", "STRING_UNSUPPORTED", "OpenVINOBackend", "compile_and_infer_many", "cpu_capabilities",
           "declared", "device_absent", "device_of", "element_type", "from_tensor", "infer", "to_tensor"]

COMPILED_CACHE_SIZE = 64
STRING_UNSUPPORTED = ("OpenVINO's CPU plugin takes no string tensors: compile_model fails with 'CPU plugin does not "
                      "support string for use with oneDNN' (src/plugins/intel_cpu/src/dnnl_extension_utils.cpp)")


# The device compile_model is given: the CPU plugin by default; --device adds others (a physical device, CPU, GPU,
# GPU.1, NPU, or a virtual one over some: AUTO, AUTO:GPU,CPU, HETERO:CPU, MULTI:GPU,CPU, BATCH:GPU).
DEVICE = Axis("device", ("CPU",), help="the OpenVINO device compile_model is given: CPU (the default); --device adds "
              "others (AUTO, HETERO:CPU, GPU, NPU...), not applicable where the machine has none", default="CPU")
VIRTUAL_DEVICES = frozenset({"AUTO", "HETERO", "MULTI", "BATCH"})  # plugins that run on the devices they name


def device_of(path: Any) -> str:
    return str(path.get("device", DEVICE.default)) if path else str(DEVICE.default)


def device_absent(device: str, available: list[str]) -> str | None:
    """Why a device cannot run here (a physical device it names is not among ``available``, openvino.Core()'s
    available_devices, where GPU stands for any of GPU.0, GPU.1...), or None."""
    name, _, under = device.partition(":")
    named = [d.split("(")[0].strip() for d in under.split(",") if d.strip()] if name in VIRTUAL_DEVICES else [device]
    if name in VIRTUAL_DEVICES - {"AUTO"} and not named:
        return f"OpenVINO device {device!r}: {name} runs on the devices it names ({name}:GPU,CPU, say)"
    if not named and not available:
        return f"OpenVINO device {device!r}: no device is available here to choose from"
    for wanted in named:
        if not any(d == wanted or d.split(".")[0] == wanted for d in available):
            return (f"OpenVINO device {wanted!r} is absent here: openvino.Core().available_devices is "
                    f"{', '.join(available) or 'empty'}")
    return None


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
        names = openvino.Core().get_property("CPU", "OPTIMIZATION_CAPABILITIES")
    except RuntimeError:
        names = []
    return (*(f"cpu:{c.lower()}" for c in names), *one_inference_thread())


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


def compile_and_infer_many(core: Any, model: Any, feeds: list[np.ndarray], dtypes: list[np.dtype],
                           device: str = "CPU", config: dict[str, Any] | None = None) -> list[np.ndarray] | None:
    """Every output of a model of several independent parts; None if compiling or running failed (where the plugin
    infers on one thread, also a failure its inference did not report)."""
    try:
        compiled = core.compile_model(model, device, config or {})
        outputs = infer(compiled, feeds, dtypes)
    except RuntimeError:
        return None
    return None if threads.unreported_error(compiled, [to_tensor(f) for f in feeds]) else outputs


class OpenVINOBackend(Backend):
    name = "openvino"
    package = "openvino"
    axes = paths_mod.AXES  # Broadcast's; an elementwise case's paths are openvino_elementwise.py's
    target = DEVICE
    ops = frozenset({"broadcast", "elementwise"})
    dtypes = frozenset(DTYPES) - {"string"}
    unsupported = {"string": STRING_UNSUPPORTED}
    preload = ("openvino", "conformance.backends.openvino_libraries", "conformance.backends.openvino")

    def __init__(self) -> None:
        self.compiled: OrderedDict[tuple[Any, ...], Any] = OrderedDict()  # signature -> compiled model

    @cached_property
    def core(self) -> Any:
        import openvino

        return openvino.Core()

    def hardware(self) -> tuple[str, ...]:
        return cpu_capabilities()

    def target_absent(self, value: str) -> str | None:
        return device_absent(value, list(self.core.available_devices))

    def op_version(self, path: Path, op: str = "broadcast") -> Any:
        if op == "elementwise":
            return dict(path)["function"]
        return int(dict(path)["opset"])

    def paths_for(self, case: Case, every: bool = False) -> dict[Path, str | None]:
        if case.op == "elementwise":
            return elementwise.paths_for(case)
        found = super().paths_for(case)
        if () in found:
            return found
        from conformance.run.plan import dtypes_for  # the harness's sweep (plan imports the backends)

        sweep = tuple(dtypes_for(case, None))
        chosen: dict[Path, str | None] = {}
        for path in found:  # in the axes' order
            applies, why = paths_mod.applicable(case, path, sweep, every)
            if applies:
                chosen[path] = why
        return chosen

    def fed_at_run_time(self, path: Path) -> bool:
        p = dict(path)
        if "function" in p:  # elementwise
            return p["shapes"] == "dynamic"
        return p["target_shape"] != "Constant" or p.get("data") == "Dynamic" or \
            p.get("axes_mapping") == "Parameter"

    def why_not(self, case: Case, path: Path, dtype: str) -> str | None:
        p = dict(path)
        if (why := threads.device_reason(p, device_of(p))) is not None:
            return why
        if case.op == "elementwise":
            return super().why_not(case, path, dtype)
        return paths_mod.context_reason(p.get("context", "alone"), dtype) or \
            paths_mod.data_reason(p.get("data", "Parameter"), dtype) or super().why_not(case, path, dtype)

    def graph(self, request: Request, prefix: str = "", data_values: np.ndarray | None = None) -> Graph | Outcome:
        """The check's graph; or the rejection at build time."""
        try:
            return build(request, element_type, to_tensor, prefix, data_values)
        except RuntimeError as e:
            return Outcome(error=str(e), stage="build")

    def declare(self, request: Request) -> Outcome:
        if request.op == "elementwise":
            return Outcome()  # elementwise cases are small: none is shape-only
        if request.path.get("data") == "Dynamic":
            return Outcome()  # every data dimension unknown until run time: nothing to declare
        values = None
        if request.path.get("data") in ("Constant", "Folded"):
            values = np.zeros(tuple(d or 0 for d in request.input_shape), request.data.dtype)
        built = self.graph(request, data_values=values)
        if isinstance(built, Outcome):
            return built
        if request.path.get("source") == "IR":
            try:
                model_of([built], False, "IR", self.core)
            except RuntimeError as e:
                return Outcome(error=str(e), stage="read", declared_shape=built.shape)
        return Outcome(declared_shape=built.shape)

    @staticmethod
    def signature(request: Request) -> tuple[Any, ...]:
        """What the compiled model depends on: the values of Constant inputs, the lengths of those fed at run time."""
        path = dict(request.path)

        def shape_input(values: np.ndarray | None, fed: bool) -> Any:
            if values is None:
                return None
            return (values.dtype.name, values.shape) if fed else (values.dtype.name, values.tobytes())

        data_const = path.get("data") in ("Constant", "Folded")
        # dtype names, not .str: every ml_dtypes type of one byte is '<V1'
        return (tuple(path.items()), request.mode, request.data.dtype.name, request.input_shape,
                request.data.tobytes() if data_const else None,
                shape_input(request.target_shape, path["target_shape"] != "Constant"),
                shape_input(request.axes_mapping, paths_mod.axes_kind(path) == "Parameter"))

    def compile(self, graphs: list[Graph], path: dict[str, str], name: str) -> Any:
        return self.core.compile_model(model_of(graphs, path.get("data") == "Folded", path.get("source", "python"),
                                                self.core, name), device_of(path), threads.config(path))

    def run(self, request: Request) -> Outcome:
        if request.op == "elementwise":
            return elementwise.run(self.core, request, device_of(request.path))
        built = self.graph(request)
        if isinstance(built, Outcome):
            return built
        key = self.signature(request)
        compiled = self.compiled.get(key)
        if compiled is None:
            try:
                compiled = self.compile([built], dict(request.path), "broadcast")
            except RuntimeError as e:
                return Outcome(error=str(e), stage="compile", declared_shape=built.shape)
            self.compiled[key] = compiled
            if len(self.compiled) > COMPILED_CACHE_SIZE:
                self.compiled.popitem(last=False)
        else:
            self.compiled.move_to_end(key)
        try:
            (output,) = run_compiled(compiled, [built], from_tensor)
        except RuntimeError as e:
            return Outcome(error=str(e), stage="infer", declared_shape=built.shape)
        return Outcome(output=output, declared_shape=built.shape,
                       unreported_error=threads.unreported_error(compiled, built.feeds))

    def run_many(self, requests: list[Request]) -> list[Outcome]:
        """One model for the checks of each kind of model (as built, folded before compiling, read from IR)."""
        if any(r.op == "elementwise" for r in requests):  # the harness batches the checks of one case
            if all(r.op == "elementwise" and device_of(r.path) == device_of(requests[0].path) and
                   threads.config(r.path) == threads.config(requests[0].path) for r in requests):
                return elementwise.run_many(self.core, requests, device_of(requests[0].path))
            return [self.run(r) for r in requests]
        outcomes: list[Outcome | None] = [None] * len(requests)
        groups: dict[tuple[bool, str, str, str], list[tuple[int, Graph]]] = {}
        for i, request in enumerate(requests):
            built = self.graph(request, prefix=f"check{i}_")
            if isinstance(built, Outcome):
                outcomes[i] = built  # rejected when built: that is this check's own result
            else:
                path = request.path
                groups.setdefault((path.get("data") == "Folded", path.get("source", "python"), device_of(path),
                                   path.get("threads", "default")), []).append((i, built))
        for (folded, source, device, thread_count), members in groups.items():
            graphs = [g for _, g in members]
            try:
                compiled = self.compile(graphs, {"data": "Folded" if folded else "", "source": source,
                                                 "device": device, "threads": thread_count}, "batch")
                results: list[np.ndarray] | None = run_compiled(compiled, graphs, from_tensor)
                if threads.unreported_error(compiled, {k: v for g in graphs for k, v in g.feeds.items()}):
                    results = None  # some check's run failed unreported: each runs alone, where it is found
            except RuntimeError:
                results = None
            for k, (i, g) in enumerate(members):
                outcomes[i] = (self.run(requests[i]) if results is None
                               else Outcome(output=results[k], declared_shape=g.shape))
        return [o for o in outcomes if o is not None]
