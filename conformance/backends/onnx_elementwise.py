"""ONNX's elementwise ops (conformance/ops/elementwise/) for the ONNX backends that run them (onnxruntime,
onnx-reference): one node of opset 18 in a model of its own, run by the backend's ``run_model``.

Path axes (values are their own labels):

* ``function``: the suite's function;
* ``onnx_op``: the ONNX op that computes it (``add`` is Add with two inputs, and Sum, which is variadic);
* ``inputs``: ``input`` (graph inputs of static shape, fed at run time) or ``initializer`` (constants the runtime
  may fold).

ONNX's ops broadcast multidirectionally (PRelu's slope unidirectionally) and have no ``auto_broadcast`` attribute
since opset 7: a case of ``auto_broadcast: none`` does not apply. The declared shape is ONNX shape inference's.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from conformance.backends.base import Outcome, Request
from conformance.cases import Case
from conformance.run.paths import Path

OPSET = 18  # BitwiseAnd/Or/Xor are opset 18
# the suite's function -> the ONNX ops computing it, each with the input counts it takes here
ONNX_OPS: dict[str, dict[str, tuple[int, ...]]] = {
    "add": {"Add": (2,), "Sum": (2, 3)}, "subtract": {"Sub": (2,)}, "multiply": {"Mul": (2,)},
    "maximum": {"Max": (2, 3)}, "minimum": {"Min": (2, 3)}, "equal": {"Equal": (2,)}, "less": {"Less": (2,)},
    "logical_and": {"And": (2,)}, "logical_or": {"Or": (2,)}, "logical_xor": {"Xor": (2,)},
    "bitwise_and": {"BitwiseAnd": (2,)}, "bitwise_or": {"BitwiseOr": (2,)}, "bitwise_xor": {"BitwiseXor": (2,)},
    "select": {"Where": (3,)}, "prelu": {"PRelu": (2,)}, "mean": {"Mean": (2,)},
    "bitshift_left": {"BitShift": (2,)}, "bitshift_right": {"BitShift": (2,)}, "gemm_c": {"Gemm": (2,)},
}
SHIFTS = {"bitshift_left": "LEFT", "bitshift_right": "RIGHT"}
# ONNX type constraints narrower than the types the suite feeds the function
NO_TYPE = {("Sum", "i32"): "ONNX Sum (opsets 8-13) takes float types only",
           ("BitwiseAnd", "bool"): "ONNX BitwiseAnd takes integer types only",
           ("BitwiseOr", "bool"): "ONNX BitwiseOr takes integer types only",
           ("BitwiseXor", "bool"): "ONNX BitwiseXor takes integer types only"}
INPUTS = ("input", "initializer")


def paths_for(case: Case) -> dict[Path, str | None]:
    p = case.params
    found: dict[Path, str | None] = {}
    for function in case.spec.versions(p):
        for onnx_op, arities in ONNX_OPS.get(function, {}).items():
            if len(p.shapes) not in arities:
                continue
            why = None if p.auto_broadcast == "numpy" else \
                f"ONNX {onnx_op} has no auto_broadcast attribute: it always broadcasts (since opset 7)"
            for inputs in INPUTS:
                found[(("function", function), ("onnx_op", onnx_op), ("inputs", inputs))] = why
    return found


def why_not(path: Path, dtype: str) -> str | None:
    return NO_TYPE.get((dict(path)["onnx_op"], dtype))


def named(outcome: Outcome, request: Request) -> Outcome:
    """A rejection's message, prefixed by the ONNX op that gave it: the reference evaluator's are numpy's own, which
    name no op, and the rejection tables tell an elementwise op's from Expand's by it."""
    if outcome.error is None:
        return outcome
    return replace(outcome, error=f"ONNX {request.path['onnx_op']}: {outcome.error}")


def model(request: Request) -> tuple[Any, dict[str, np.ndarray]]:
    """The check's ONNX model and its feeds, by name."""
    from onnx import helper, numpy_helper

    arrays = {name: np.asarray(a) for name, a in request.inputs.items() if a is not None}
    constant = request.path["inputs"] == "initializer"
    inputs = [helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(a.dtype), list(a.shape))
              for name, a in arrays.items()] if not constant else []
    initializers = [numpy_helper.from_array(a, name) for name, a in arrays.items()] if constant else []
    op = request.path["onnx_op"]
    comparison = op in ("Equal", "Less", "And", "Or", "Xor")
    last = list(arrays.values())[-1]
    out_type = helper.np_dtype_to_tensor_dtype(np.dtype(np.bool_) if comparison else last.dtype)
    names = list(arrays)
    attributes = {"direction": SHIFTS[request.path["function"]]} if op == "BitShift" else {}
    if op == "Gemm":  # Gemm(A, B, C) with B the identity: A @ B is A, whose shape C is stretched to
        a = arrays[names[0]]
        identity = np.eye(a.shape[1], dtype=a.dtype)
        initializers.append(numpy_helper.from_array(identity, "identity"))
        names = [names[0], "identity", names[1]]
    node = helper.make_node(op, names, ["output"], **attributes)
    graph = helper.make_graph([node], "elementwise", inputs, [helper.make_tensor_value_info("output", out_type, None)],
                              initializer=initializers)
    built = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    built.ir_version = 8  # readable by every supported onnxruntime
    return built, ({} if constant else arrays)
