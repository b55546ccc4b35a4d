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
    """What a computed shape is Shape of: zeros of the target's shape."""
    return np.zeros(tuple(int(d) for d in np.asarray(request.target_shape).reshape(-1)), np.uint8)


def expand_batch_model(requests: list[Request], opset: int, output_rank: bool = False) -> Any:
    """One model holding an independent Expand per request, in order: inputs ``data`` (unless an initializer),
    ``shape`` (for shape ``input``) or ``shape_of`` (for ``computed``), output ``output``, each suffixed with the
    request's position after the first."""
    from onnx import helper, numpy_helper

    nodes, inputs, outputs, initializers = [], [], [], []
    for i, request in enumerate(requests):
        suffix = str(i) if i else ""
        data, shape_name, out = f"data{suffix}", f"shape{suffix}", f"output{suffix}"
        elem = tensor_type(request.data.dtype)
        if request.path.get("data", "input") == "initializer":
            initializers.append(initializer(data_array(request), data))
        else:
            inputs.append(helper.make_tensor_value_info(data, elem, list(request.input_shape)))
        shape = np.asarray(request.target_shape)
        given = request.path["shape"]
        if given == "input":
            inputs.append(helper.make_tensor_value_info(shape_name, tensor_type(shape.dtype), list(shape.shape)))
        elif given == "computed":
            source = f"shape_of{suffix}"
            inputs.append(helper.make_tensor_value_info(source, onnx_type("UINT8"), [int(d) for d in shape]))
            if shape.dtype == np.int64:
                nodes.append(helper.make_node("Shape", [source], [shape_name]))
            else:  # Shape gives int64: a shape of another integer type is a Cast of it
                nodes.append(helper.make_node("Shape", [source], [f"{shape_name}_i64"]))
                nodes.append(helper.make_node("Cast", [f"{shape_name}_i64"], [shape_name], to=tensor_type(shape.dtype)))
        else:
            initializers.append(numpy_helper.from_array(shape, shape_name))
        dims = [f"{out}_{d}" for d in range(max(len(request.input_shape), shape.size))] if output_rank else None
        nodes.append(helper.make_node("Expand", [data, shape_name], [out]))
        outputs.append(helper.make_tensor_value_info(out, elem, dims))
    graph = helper.make_graph(nodes, "expand", inputs, outputs, initializers)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=IR_VERSION,
                             producer_name="broadcast-conformance")


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
            feeds[f"data{suffix}"] = request.data.astype(object) if request.data.dtype.kind == "U" else request.data
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
    """Strings come back as object arrays: as the fixed-width strings they went in as (a non-string output is
    left alone, for the judge to see)."""
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
