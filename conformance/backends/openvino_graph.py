"""Building one check's Broadcast on its path (conformance/backends/openvino_paths.py says what each axis value
means), and the model of one or several checks: folded before compiling, or saved as IR and read back.

A context's expectation is the reference output itself: the graph's output is context(Broadcast(...)), and the
adapter undoes the context on what comes back before the judge sees it, exactly (a BitwiseXor with K is undone
by XOR with K in numpy; a Transpose of the output by transposing it back; the Add is of zeros, -0.0 for floats,
whose sum with any value is that value bit for bit), so no op but the Broadcast decides a value.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from conformance.backends.base import Request
from conformance.backends.openvino_paths import axes_kind

# K of the BitwiseXor context: alternating bits, at most 31 of them, so that K itself is a value of every integer
# type and of int32 (the CPU plugin computes 64-bit integers in int32: a wider K would be cut like the data)
XOR_PATTERN = 0x5A5A_5A5A


@dataclass
class Graph:
    """One check's graph: its output (after the context), Parameters and what to feed them (by tensor name), the
    feeds of a second data shape (data Dynamic), the shape the Broadcast node declares, and how to undo the
    context on the output."""

    output: Any
    params: list[Any]
    feeds: dict[str, Any]
    shape: tuple[int | None, ...] | None
    dtype: np.dtype
    node: Any  # the Broadcast node
    again: dict[str, Any] | None = None  # another data shape to run on before the checked run (data Dynamic)
    finish: Callable[[np.ndarray], np.ndarray] = field(default=lambda out: out)


def declared(partial_shape: Any) -> tuple[int | None, ...] | None:
    """An ov.PartialShape as a tuple, None for each dynamic dimension; None for a dynamic rank."""
    if partial_shape.rank.is_dynamic:
        return None
    return tuple(d.get_length() if d.is_static else None for d in partial_shape)


def xor_constant(dtype: np.dtype) -> np.ndarray:
    """K of the BitwiseXor context: alternating bits within the type (True for booleans)."""
    if dtype == np.bool_:
        return np.array(True)
    bits = 4 if dtype.name in ("int4", "uint4") else dtype.itemsize * 8
    k = XOR_PATTERN & ((1 << (min(bits, 32) - 1)) - 1)  # positive in signed types too
    return np.array(k, np.int64).astype(dtype)


def undo_xor(out: np.ndarray, k: np.ndarray) -> np.ndarray:
    if out.dtype.name in ("int4", "uint4"):  # ml_dtypes' 4-bit types have no bitwise operators
        wide = np.int8 if out.dtype.name == "int4" else np.uint8
        return (out.astype(wide) ^ k.astype(wide)).astype(out.dtype)
    return np.bitwise_xor(out, k.astype(out.dtype))


def reversed_axes(rank: int) -> np.ndarray:
    return np.arange(rank - 1, -1, -1, dtype=np.int64)


def zeros_for_add(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """x of the Add context: 0, or -0.0 for floats (-0.0 + v is v bit for bit, -0.0 + -0.0 included)."""
    return np.full(shape, -0.0 if dtype.kind == "f" or dtype.name in ("bfloat16",) else 0, dtype)


def second_shape(request: Request) -> tuple[int, ...] | None:
    """The data Dynamic path's other data shape: each dimension that is not 1 made 1 (a valid broadcast wherever the
    case's is). None where it would be the same shape, or where an input has a 0 (an empty output from non-empty
    data takes other code: the check should not depend on it)."""
    shape = request.data.shape
    target = np.asarray(request.target_shape).reshape(-1)
    if all(d == 1 for d in shape) or 0 in shape or (target.size and not target.all()):
        return None
    return tuple(1 for _ in shape)


def build(request: Request, element_type: Callable[[np.dtype], Any], to_tensor: Callable[[np.ndarray], Any],
          prefix: str = "", data_values: np.ndarray | None = None) -> Graph:
    """The check's graph on its path; RuntimeError where OpenVINO rejects it when it is built. ``data_values``:
    the values of a Constant data input where the request carries none (a shape-only check)."""
    import openvino
    import openvino.opset1
    import openvino.opset3
    import openvino.opset13
    from openvino.utils.node_factory import NodeFactory

    path = request.path
    opset_name = f"opset{path['opset']}"
    data_kind, target_kind = path.get("data", "Parameter"), path["target_shape"]
    context = path.get("context", "alone")
    dtype = request.data.dtype
    et = element_type(dtype)
    params: list[Any] = []
    feeds: dict[str, Any] = {}

    def parameter(shape: Any, element: Any, name: str) -> Any:
        node = openvino.opset3.parameter(shape, element, name=f"{prefix}{name}")
        node.output(0).get_tensor().set_names({f"{prefix}{name}"})
        params.append(node)
        return node

    def constant(values: np.ndarray) -> Any:
        # openvino.op.Constant, not opset.constant(): the latter refuses an empty array, and an empty
        # target_shape or axes_mapping is valid (a scalar output, a scalar input).
        fed = to_tensor(np.array(values, order="C"))  # not np.ascontiguousarray: it makes a scalar 1-D
        return openvino.op.Constant(fed, shared_memory=False) if isinstance(fed, openvino.Tensor) \
            else openvino.op.Constant(fed)

    # the data, in reversed axis order where a Transpose brings it back (context Transpose)
    rank = len(request.input_shape)
    flip_data = context == "Transpose" and rank >= 2
    layout: Callable[[np.ndarray], np.ndarray] = (lambda a: np.ascontiguousarray(a.transpose())) if flip_data \
        else (lambda a: a)
    dims = [-1 if d is None else d for d in request.input_shape]
    if data_kind in ("Constant", "Folded"):
        values = request.data if data_values is None else data_values
        data = constant(layout(values))
    else:
        data = parameter([-1] * rank if data_kind == "Dynamic" else (dims[::-1] if flip_data else dims), et, "data")
        feeds[f"{prefix}data"] = to_tensor(layout(request.data))
    if flip_data:
        data = openvino.opset3.transpose(data, openvino.op.Constant(reversed_axes(rank)))

    x = None
    if target_kind == "ShapeOf":
        target_values = np.asarray(request.target_shape)
        x_type = dtype if context == "Add" else np.dtype(np.uint8)
        x = parameter([-1] * target_values.size, element_type(x_type), "x")
        x_shape = tuple(int(t) for t in target_values.tolist())
        if not request.shape_only:  # a shape-only check runs nothing: its target may be far too big to feed
            feeds[f"{prefix}x"] = to_tensor(zeros_for_add(x_shape, x_type) if context == "Add"
                                            else np.zeros(x_shape, np.uint8))
        target = openvino.opset3.shape_of(x, "i64")
        if target_values.dtype != np.int64:
            target = openvino.opset1.convert(target, target_values.dtype)
    elif target_kind == "Parameter":
        target = parameter(request.target_shape.shape, request.target_shape.dtype, "target_shape")
        feeds[f"{prefix}target_shape"] = request.target_shape
    else:
        target = constant(request.target_shape)
    inputs = [data, target]
    if request.axes_mapping is not None:
        if axes_kind(dict(path)) == "Parameter":
            inputs.append(parameter(request.axes_mapping.shape, request.axes_mapping.dtype, "axes_mapping"))
            feeds[f"{prefix}axes_mapping"] = request.axes_mapping
        else:
            inputs.append(constant(request.axes_mapping))
    # The NodeFactory, not opset.broadcast(): the Python helper silently drops axes_mapping outside explicit mode,
    # which would hide how OpenVINO treats a third input there.
    node = NodeFactory(opset_name).create("Broadcast", inputs, {"mode": request.mode})
    node.set_friendly_name(f"{prefix}broadcast")
    shape = declared(node.get_output_partial_shape(0))
    output, finish = node.output(0), (lambda out: out)
    if context == "BitwiseXor":
        k = xor_constant(dtype)
        output = openvino.opset13.bitwise_xor(output, constant(k.astype(dtype))).output(0)
        finish = lambda out: undo_xor(out, k)  # noqa: E731
    elif context == "Add" and x is not None:
        output = openvino.opset3.add(x, output).output(0)
    elif context == "Transpose" and shape is not None and len(shape) >= 2:
        output = openvino.opset3.transpose(output, openvino.op.Constant(reversed_axes(len(shape)))).output(0)
        finish = lambda out: np.ascontiguousarray(out.transpose())  # noqa: E731
    again = None
    other = second_shape(request) if data_kind == "Dynamic" else None
    if other is not None:
        again = {**feeds, f"{prefix}data": to_tensor(layout(np.ascontiguousarray(request.data[tuple(
            slice(0, 1) for _ in other)])))}
    return Graph(output, params, feeds, shape, dtype, node, again, finish)


def constant_folding() -> Any:
    try:
        from openvino.passes import ConstantFolding, Manager
    except ImportError:  # the module's older place
        from openvino._pyopenvino.passes import ConstantFolding, Manager
    manager = Manager()
    manager.register_pass(ConstantFolding())
    return manager


def model_of(graphs: list[Graph], folded: bool, source: str, core: Any, name: str = "broadcast") -> Any:
    """One model of the graphs' outputs: passed through ConstantFolding first (data Folded), saved as IR and read
    back (source IR); the declared shapes then come from the Broadcast nodes of the model read back."""
    import openvino

    model = openvino.Model([g.output for g in graphs], [p for g in graphs for p in g.params], name)
    if folded:
        constant_folding().run_passes(model)
    if source == "IR":
        with tempfile.TemporaryDirectory(prefix="ov-ir-") as tmp:
            xml = os.path.join(tmp, "model.xml")
            openvino.save_model(model, xml, compress_to_fp16=False)
            model = core.read_model(xml)
            nodes = {op.get_friendly_name(): op for op in model.get_ops()}
            for g in graphs:
                read = nodes.get(g.node.get_friendly_name())
                if read is not None:
                    g.shape = declared(read.get_output_partial_shape(0))
    return model


def run_compiled(compiled: Any, graphs: list[Graph], from_tensor: Callable[[Any, np.dtype], np.ndarray]
                 ) -> list[np.ndarray]:
    """Run a compiled model in a fresh infer request, each output copied out and its context undone. With a data
    Dynamic input: run on the case's data, then on the second shape (whatever it gives), then on the case's data
    again, in the same request; the last run is the outcome."""
    request = compiled.create_infer_request()
    feeds = {k: v for g in graphs for k, v in g.feeds.items()}
    request.infer(feeds)
    if any(g.again is not None for g in graphs):
        with contextlib.suppress(RuntimeError):  # the other shape's own outcome is not this check's
            request.infer({**feeds, **{k: v for g in graphs if g.again for k, v in g.again.items()}})
        request.infer(feeds)
    return [g.finish(from_tensor(request.get_output_tensor(k), g.dtype)) for k, g in enumerate(graphs)]
