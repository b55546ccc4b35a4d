"""ONNX Expand models as the ONNX backends run them (conformance/backends/onnx_backend.py): one Expand node per
check along its path (``shape`` an initializer, a graph input or computed by ``Shape``; ``data`` a graph input or an
initializer), several independent ones in one model for checks that share it; their feeds, the shapes ONNX shape
inference gives them, and the model written to a file."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np

from conformance.backends.base import Outcome, Request

# onnx >= 1.23 writes IR version 14 by default, which older runtimes refuse; IR 7 is enough for opset 13.
IR_VERSION = 7
ONNX_ELEMENT_TYPES = {"bfloat16": "BFLOAT16"}  # numpy types helper.np_dtype_to_tensor_dtype may not know
# A computed shape is Shape of a graph input fed with zeros of the target's shape: at most this many elements (bytes).
FEED_LIMIT = 2**24


def expand_model(request: Request, opset: int, shape_as_input: bool | None = None, output_rank: bool = False) -> Any:
    """The Expand model of a request (its path says how the shape and the data are given; ``shape_as_input``,
    if given, overrides an ``initializer``/``input`` path). ``output_rank``: give the output its rank, with
    symbolic dimensions, as onnx.checker requires of a graph output (without it the output's shape is left
    unknown)."""
    if shape_as_input is not None and request.path.get("shape") in ("initializer", "input", None):
        request = replace(request, path={**request.path, "shape": "input" if shape_as_input else "initializer"})
    return expand_batch_model([request], opset, output_rank)


def data_array(request: Request) -> np.ndarray:
    """The data as the model holds it: for a shape-only check (fed nothing) zeros of the declared shape; strings
    as the object arrays ONNX takes."""
    data = request.data
    if request.shape_only and data.shape != request.input_shape and None not in request.input_shape:
        data = np.zeros(tuple(int(d) for d in request.input_shape), data.dtype)  # type: ignore[arg-type]
    return data.astype(object) if data.dtype.kind == "U" else data


def shape_source(request: Request) -> np.ndarray:
    """What a computed shape is Shape of: zeros of the target's shape; for the Add context x itself, zeros of the
    data's type (-0.0 for floats: -0.0 + v is v bit for bit, -0.0 + -0.0 included)."""
    shape = tuple(int(d) for d in np.asarray(request.target_shape).reshape(-1))
    if context(request) != "Add":
        return np.zeros(shape, np.uint8)
    return np.full(shape, -0.0 if request.data.dtype.kind == "f" or request.data.dtype.name == "bfloat16" else 0,
                   request.data.dtype)


def context(request: Request) -> str:
    return request.path.get("context", "alone")


def reversed_axes(array: np.ndarray) -> np.ndarray:
    """The data as the Transpose context feeds it: its axes in reverse order (the model transposes it back)."""
    return np.array(np.transpose(array), order="C")  # (np.ascontiguousarray would make a scalar 1-D)


def rank_of_output(request: Request) -> int:
    """The rank of Expand's output: the longer of the data's rank and the shape's length."""
    return max(len(request.input_shape), int(np.asarray(request.target_shape).size))


def expand_batch_model(requests: list[Request], opset: int, with_rank: bool = False) -> Any:
    """One model holding an independent Expand per request, in order: inputs ``data`` (unless an initializer;
    ``data_t`` for the Transpose context), ``shape`` (for shape ``input``) or ``shape_of`` (for ``computed``; x of
    the Add context), output ``output``, each suffixed with the request's position after the first. The context
    (path axis ``context``): the Expand alone; Add(x, Expand(data, Shape(x))); or the data fed with its axes
    reversed and transposed back before the Expand, the output transposed after it (``as_requested`` transposes
    it back)."""
    from onnx import helper, numpy_helper

    nodes, inputs, outputs, initializers = [], [], [], []
    for i, request in enumerate(requests):
        suffix = str(i) if i else ""
        data, shape_name, out = f"data{suffix}", f"shape{suffix}", f"output{suffix}"
        elem = tensor_type(request.data.dtype)
        around = context(request)
        stored = f"{data}_t" if around == "Transpose" else data  # the data as the graph holds it
        if request.path.get("data", "input") == "initializer":
            held = data_array(request)
            initializers.append(initializer(reversed_axes(held) if around == "Transpose" else held, stored))
        else:
            held_dims = list(request.input_shape)
            inputs.append(helper.make_tensor_value_info(stored, elem,
                                                        held_dims[::-1] if around == "Transpose" else held_dims))
        if around == "Transpose":  # back to the data's own layout before the Expand
            nodes.append(transpose(stored, data, len(request.input_shape)))
        shape = np.asarray(request.target_shape)
        given = request.path["shape"]
        if given == "input":
            inputs.append(helper.make_tensor_value_info(shape_name, tensor_type(shape.dtype), list(shape.shape)))
        elif given == "computed":
            source = f"shape_of{suffix}"
            source_type = elem if around == "Add" else onnx_type("UINT8")  # the Add context: Shape of x
            inputs.append(helper.make_tensor_value_info(source, source_type, [int(d) for d in shape]))
            if shape.dtype == np.int64:
                nodes.append(helper.make_node("Shape", [source], [shape_name]))
            else:  # Shape gives int64: a shape of another integer type is a Cast of it
                nodes.append(helper.make_node("Shape", [source], [f"{shape_name}_i64"]))
                nodes.append(helper.make_node("Cast", [f"{shape_name}_i64"], [shape_name], to=tensor_type(shape.dtype)))
        else:
            initializers.append(numpy_helper.from_array(shape, shape_name))
        dims = [f"{out}_{d}" for d in range(max(len(request.input_shape), shape.size))] if with_rank else None
        expanded = out if around == "alone" else f"{out}_expand"
        nodes.append(helper.make_node("Expand", [data, shape_name], [expanded]))
        if around == "Add":  # Add(x, Expand(data, Shape(x))), x fed zeros: the sum is the broadcast
            nodes.append(helper.make_node("Add", [f"shape_of{suffix}", expanded], [out]))
        elif around == "Transpose":  # the output transposed after the Expand (and back by the harness)
            nodes.append(transpose(expanded, out, rank_of_output(request)))
        outputs.append(helper.make_tensor_value_info(out, elem, dims))
    graph = helper.make_graph(nodes, "expand", inputs, outputs, initializers)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=IR_VERSION,
                             producer_name="broadcast-conformance")


def transpose(source: str, result: str, rank: int) -> Any:
    """A Transpose reversing the axes, its perm given as exporters write it (none for a scalar: ONNX cannot hold an
    empty perm, and the default reverses)."""
    from onnx import helper

    if rank == 0:
        return helper.make_node("Transpose", [source], [result])
    return helper.make_node("Transpose", [source], [result], perm=list(range(rank))[::-1])


def initializer(array: np.ndarray, name: str) -> Any:
    """A TensorProto of the array's bytes; bfloat16 (ml_dtypes) by hand, which onnx before 1.17 cannot convert."""
    from onnx import helper, numpy_helper

    if array.dtype.name == "bfloat16":
        return helper.make_tensor(name, tensor_type(array.dtype), list(array.shape),
                                  np.ascontiguousarray(array).view(np.uint16).tobytes(), raw=True)
    return numpy_helper.from_array(array, name)


def output_dtypes(model: Any) -> list[np.dtype]:
    """The numpy type of each graph output, in order (strings: object)."""
    import ml_dtypes
    import onnx
    from onnx import helper

    dtypes = []
    for output in model.graph.output:
        elem = output.type.tensor_type.elem_type
        if elem == onnx.TensorProto.BFLOAT16:
            dtypes.append(np.dtype(ml_dtypes.bfloat16))
        elif elem == onnx.TensorProto.STRING:
            dtypes.append(np.dtype(object))
        else:
            dtypes.append(np.dtype(helper.tensor_dtype_to_np_dtype(elem)))
    return dtypes


def onnx_type(name: str) -> int:
    import onnx

    return int(getattr(onnx.TensorProto, name))


def tensor_type(dtype: np.dtype) -> int:
    import onnx
    from onnx import helper

    if dtype.kind in "UO":
        return onnx.TensorProto.STRING
    if dtype.name in ONNX_ELEMENT_TYPES:
        return getattr(onnx.TensorProto, ONNX_ELEMENT_TYPES[dtype.name])
    return helper.np_dtype_to_tensor_dtype(dtype)


def batch_feeds(requests: list[Request]) -> dict[str, np.ndarray]:
    """Inputs by name; strings as the object arrays ONNX runtimes take."""
    feeds = {}
    for i, request in enumerate(requests):
        suffix = str(i) if i else ""
        if request.path.get("data", "input") != "initializer":
            data = request.data.astype(object) if request.data.dtype.kind == "U" else request.data
            if context(request) == "Transpose":
                feeds[f"data{suffix}_t"] = reversed_axes(data)
            else:
                feeds[f"data{suffix}"] = data
        if request.path["shape"] == "input":
            feeds[f"shape{suffix}"] = np.asarray(request.target_shape)
        elif request.path["shape"] == "computed":
            feeds[f"shape_of{suffix}"] = shape_source(request)
    return feeds


def inferred_shapes(model: Any) -> list[tuple[int | None, ...] | None]:
    """The shape ONNX shape inference gives each output, None for unknown dimensions or rank."""
    import onnx

    try:
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    except Exception:  # shape inference refusing the model is not the backend's verdict
        return [None] * len(model.graph.output)
    shapes: list[tuple[int | None, ...] | None] = []
    for output in inferred.graph.output:
        tensor = output.type.tensor_type
        shapes.append(tuple(d.dim_value if d.HasField("dim_value") else None for d in tensor.shape.dim)
                      if tensor.HasField("shape") else None)
    return shapes


def inferred_shape(model: Any) -> tuple[int | None, ...] | None:
    """The output shape ONNX shape inference gives, None for unknown dimensions or rank."""
    return inferred_shapes(model)[0]


def as_requested(outcome: Outcome, request: Request) -> Outcome:
    """The outcome as the request asked for it: the Transpose context's output (and declared shape) transposed
    back; strings, which come back as object arrays, as the fixed-width strings they went in as (a non-string
    output is left alone, for the judge to see)."""
    if context(request) == "Transpose":
        declared = outcome.declared_shape
        outcome = replace(outcome, output=None if outcome.output is None else np.transpose(outcome.output),
                          declared_shape=None if declared is None else tuple(declared)[::-1])
    out = outcome.output
    if out is None or request.data.dtype.kind != "U" or out.dtype != object:
        return outcome
    if not all(isinstance(x, str) for x in out.reshape(-1).tolist()):
        return outcome
    return replace(outcome, output=out.astype(request.data.dtype))


def computed_shape_why_not(target: Any) -> str | None:
    """Why a target cannot be the shape of a tensor the suite feeds (for ``shape: computed``), or None."""
    values = np.asarray(target, dtype=object)
    if values.ndim != 1:
        return (f"a computed shape is Shape of a tensor, always 1-D; this target_shape has {values.ndim} "
                "dimensions")
    dims = [int(d) for d in values.tolist()]
    if any(d < 0 for d in dims):
        return "a computed shape is Shape of a tensor, and no tensor has a negative dimension"
    if math.prod(max(d, 1) for d in dims) >= 2**63 or math.prod(dims) > FEED_LIMIT:
        return (f"a computed shape is Shape of a graph input of that shape, fed with zeros: {math.prod(dims)} "
                f"elements, more than the suite feeds ({FEED_LIMIT})")
    return None


def saved(model: Any, directory: str) -> str:
    """The model written to a file in ``directory`` (for a path whose runtime reads the model from a file)."""
    import os

    import onnx

    name = os.path.join(directory, "expand.onnx")
    onnx.save(model, name)
    return name
