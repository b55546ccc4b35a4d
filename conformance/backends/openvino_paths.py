"""The OpenVINO backend's path axes, and where each value applies (conformance/backends/openvino.py runs them,
conformance/backends/openvino_graph.py builds them).

A Broadcast in a real model takes more code paths than a Broadcast between Parameters: its data may be a
Constant the compiler folds, or have dimensions only known at run time; its target_shape may be computed
(ShapeOf of another tensor); an elementwise op may follow it, a layout change surround it; the model may come
from an IR file. Each is a value of an axis:

``opset``         1, 3: the opset the Broadcast node is built from;
``target_shape``  Constant (the output shape inferred when built), Parameter (fed at run time), ShapeOf (of an
                  extra Parameter with a dynamic dimension per target value, fed a tensor of the target's shape:
                  computed at run time, as in a model whose shapes come from its input);
``data``          Parameter (static dims), Dynamic (every dimension dynamic: the model compiled once and run on
                  the case's data, on another data shape, then on the case's data again: the last is checked),
                  Constant (the data an ov Constant, folded while compiling), Folded (the data a Constant and the
                  model passed through openvino's own ConstantFolding before compile_model);
``axes_mapping``  "as target_shape" (a Constant with a Constant or ShapeOf target, a Parameter with a Parameter
                  target), or Constant / Parameter where that differs;
``context``       alone; BitwiseXor (followed by XOR with a constant K, undone on the output by XOR with K:
                  integers and booleans); Add (the pattern Add(x, Broadcast(data, ShapeOf(x))) of real models, x
                  fed zeros, -0.0 for floats, so the sum is the broadcast bit for bit); Transpose (the data fed
                  in reversed axis order and transposed back before the Broadcast, its output transposed after
                  it and back on the output: a layout change around the node);
``source``        python (the model built with the Python API), IR (saved with openvino.save_model,
                  compress_to_fp16=False, and read back with Core.read_model);
``threads``       default (the CPU plugin's choice), 1 (INFERENCE_NUM_THREADS 1: one stream of one thread, whose
                  synchronous inference drops its errors; conformance/backends/openvino_threads.py).

A value equal to its axis's default is left out of check ids, so the four paths of opset x target_shape
Constant / Parameter keep their ids. Not every path applies to every case (``applicable``): the values of data,
axes_mapping, context, source and threads are varied one at a time from their defaults, with opset 3 only (opset 1
where a case does not run Broadcast-3). A valid case is swept over every element type, so each of its paths costs a
sweep: it takes each value where VALID_TARGETS says (and the IR round trip with Constant data); an invalid case (run
on one element type) takes every target_shape kind, and each data value with each context and with one thread. data
Constant / Folded take small data only (and no 4-bit type: FOLDED_4BIT); Folded needs every input constant; a
context applies where some swept element type can take it, and Transpose also on a valid input whose data or output
has a lone 0 that the reversal moves, where TransposeToReshape gets it wrong (lone_zero_transposed); IR is read with
a Constant target_shape (whose values it holds); one thread takes the spec's examples (with a Constant and a
Parameter target); ShapeOf needs a target some tensor can have; a repeated axis
is not applicable where OpenVINO's own evaluate() computes the broadcast (REPEATED_AXIS).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from conformance.backends.openvino_threads import THREADS
from conformance.data import FLOATS, INTEGERS
from conformance.run.paths import Axis, Path

DEFAULT_AXES = "as target_shape"
OPSET = Axis("opset", ("1", "3"), {"1": "opset1", "3": "opset3"},
             "the opset the Broadcast node is built from: Broadcast-1 or Broadcast-3")
TARGET = Axis("target_shape", ("Constant", "Parameter", "ShapeOf"),
              {"Constant": "const", "Parameter": "param", "ShapeOf": "shapeof"},
              "target_shape as a Constant (the output shape inferred when the node is built), a Parameter fed at "
              "run time, or ShapeOf of an extra Parameter with dynamic dimensions fed a tensor of the target's shape",
              swept=("Constant", "Parameter"))
DATA = Axis("data", ("Parameter", "Dynamic", "Constant", "Folded"),
            {"Dynamic": "ddyn", "Constant": "dconst", "Folded": "dfold"},
            "the data as a Parameter of static shape; of dynamic dimensions (one compiled model run on the case's "
            "data, another shape, and the case's data again); an ov Constant folded while compiling; a Constant "
            "folded by openvino's ConstantFolding pass before compiling", default="Parameter")
AXES_MAPPING = Axis("axes_mapping", (DEFAULT_AXES, "Constant", "Parameter"),
                    {"Constant": "amconst", "Parameter": "amparam"},
                    "explicit mode: axes_mapping as target_shape is (a Constant with a ShapeOf target), or a "
                    "Constant / Parameter where that differs", default=DEFAULT_AXES)
CONTEXT = Axis("context", ("alone", "BitwiseXor", "Add", "Transpose"),
               {"BitwiseXor": "xor", "Add": "add", "Transpose": "transpose"},
               "the Broadcast alone; followed by BitwiseXor with a constant (undone on the output); as y in "
               "Add(x, Broadcast(y, ShapeOf(x))) with x zeros; between Transposes of its data and its output",
               default="alone")
SOURCE = Axis("source", ("python", "IR"), {"IR": "ir"},
              "the model as built with the Python API, or saved as IR (compress_to_fp16=False) and read back",
              default="python")
AXES = (OPSET, TARGET, DATA, AXES_MAPPING, CONTEXT, SOURCE, THREADS)
SECONDARY = ("data", "axes_mapping", "context", "source", "threads")  # varied one at a time from their defaults
DEFAULTS = {a.name: a.default for a in AXES}
# A valid case is swept over every element type, so each path costs a sweep: there, each value of a secondary
# axis is run with the target_shape kinds where it takes another code path than its neighbours (an invalid
# case, run on one type, takes every kind). Dynamic data with a static target (the CPU node's dynamic shapes;
# with a computed target too it gave the same verdicts); a Constant run with a run-time target (folded with a
# Constant one, as the Folded path's pass folds it: the same verdicts but where zero-size data takes another road,
# so only there). The contexts (BitwiseXor after a run-time target, whose node declares its data's shape; Add with
# ShapeOf, its pattern; Transposes around a static node) and the IR round trip (of Constant data: the IR holds the
# values) gave the verdicts of the bare node on valid inputs, and a check that fails costs a fresh worker: the
# spec's own examples (every mode, both opsets, every type) keep them there (SAMPLED); the invalid inputs, whose
# checks the passes that remove a Broadcast get wrong, take them everywhere; and the Transposes go around each valid
# input whose Transpose TransposeToReshape rewrites wrongly (lone_zero_transposed).
VALID_TARGETS = {("data", "Dynamic"): {"Constant"}, ("data", "Constant"): {"Constant", "Parameter"},
                 ("data", "Folded"): {"Constant"}, ("axes_mapping", "Constant"): {"Parameter"},
                 ("axes_mapping", "Parameter"): {"Constant"}, ("context", "BitwiseXor"): {"Parameter"},
                 ("context", "Transpose"): {"Constant"}, ("context", "Add"): {"ShapeOf"},
                 ("source", "IR"): {"Constant"}, ("threads", "1"): {"Constant", "Parameter"}}
SAMPLED = "spec_example"


def valid_path(case: Any, p: dict[str, str], changed: list[str]) -> bool:
    """Whether a valid case takes the path (see VALID_TARGETS)."""
    if not changed:
        return True
    if changed == ["data", "source"]:  # the IR round trip of Constant data
        return case.group == SAMPLED and p["data"] == "Constant" and p["target_shape"] == "Constant"
    if len(changed) > 1 or p["target_shape"] not in VALID_TARGETS[(changed[0], p[changed[0]])]:
        return False
    if changed == ["source"]:
        return False  # IR: with Constant data (above)
    if changed == ["threads"]:
        return case.group == SAMPLED
    if p["context"] != "alone":
        return case.group == SAMPLED or p["context"] == "Transpose" and lone_zero_transposed(case)
    if p["data"] == "Constant" and p["target_shape"] == "Constant":
        return 0 in case.params.data_shape
    return True

SMALL_DATA = 1024  # elements: a Constant of the data, folded at compile time
SMALL_OUTPUT = 1 << 16  # elements: what folding computes while compiling
SHAPEOF_ELEMENTS = 1 << 24  # elements of the tensor fed for ShapeOf: a bigger target is no shape to feed
XOR_TYPES = INTEGERS | {"bool"}
CONTEXT_REASONS = {
    "BitwiseXor": "BitwiseXor takes integers and booleans only: a float's bits cannot be XORed with a constant "
                  "in an OpenVINO graph, and no other elementwise op on floats is undone exactly",
    "Add-bool": "Add is arithmetic: OpenVINO's Add takes no booleans",
    "Add-f8": "the CPU plugin's Add has no f8 kernel (a bare f8 Add is rejected at infer), so Add(x, Broadcast(...)) "
              "cannot run; the Broadcast alone takes f8",
}


def axes_kind(path: dict[str, str]) -> str:
    """What axes_mapping is on a path: Constant or Parameter."""
    value = path.get("axes_mapping", DEFAULT_AXES)
    if value != DEFAULT_AXES:
        return value
    return "Parameter" if path["target_shape"] == "Parameter" else "Constant"


def _flat(values: Any) -> list[int] | None:
    """The values of a 1-D list of ints, else None."""
    try:
        array = np.asarray(values if values is not None else [], dtype=object)
        return [int(v) for v in array.tolist()] if array.ndim == 1 else None
    except (TypeError, ValueError):
        return None


def shapeof_reason(case: Any) -> str | None:
    """Why a case's target_shape cannot be the shape of a tensor (the ShapeOf path), or None."""
    target = _flat(case.params.target_shape)
    if target is None:
        return "target_shape is not 1-D: no tensor has it as its shape, so ShapeOf cannot compute it"
    if any(t < 0 for t in target):
        return "a negative target_shape value is no tensor's dimension, so ShapeOf cannot compute it"
    if math.prod(max(t, 1) for t in target) > SHAPEOF_ELEMENTS:
        return (f"a tensor of shape {target} holds more than {SHAPEOF_ELEMENTS} elements (counting a 0 as 1, as numpy "
                "does before it allocates): too big to feed the input whose ShapeOf is the target_shape")
    return None


def output_rank(case: Any) -> int | None:
    """The rank the node declares for the case's output (None where it cannot tell)."""
    target = _flat(case.params.target_shape)
    if target is None:
        return None
    rank = len(case.params.data_shape)
    return max(len(target), rank) if case.params.mode == "bidirectional" else len(target)


# A Transpose of a static tensor whose one dimension other than 1 is a 0 that the order moves ((1, 0) with order
# [1, 0]) is rewritten by TransposeToReshape as a Reshape that reads the 0 as "copy the input's dimension" (a 1): the
# known difference ov-transpose-to-reshape-zero-dim-read-as-copy, which the Transpose context shows on such data or
# outputs. The default run takes the context there for every valid input (a few edge cases, on u8 and f32), as it
# takes it for the spec's examples; the other valid inputs with an empty tensor meet between Transposes the bare
# node's zero-size bugs, or EliminateBroadcast where the output is the data's shape (a right output). (The default
# run once left every valid input with an empty tensor out of the context, EMPTY_TRANSPOSE: redundant, as valid inputs
# took contexts on the spec's examples only, none of which is empty; the bug above went unseen.)


def _lone_zero_moved(shape: Any) -> bool:
    dims = [d for d in shape or () if d is not None]
    if len(dims) < 2 or len(dims) != len(shape):
        return False
    others = [i for i, d in enumerate(dims) if d != 1]
    return len(others) == 1 and dims[others[0]] == 0 and others[0] != len(dims) - 1 - others[0]


def lone_zero_transposed(case: Any) -> bool:
    """The data or the expected output has one dimension other than 1, a 0, that reversing the axes moves."""
    return _lone_zero_moved(case.params.data_shape) or _lone_zero_moved(case.expect_shape)


def small_enough(case: Any) -> bool:
    """The data may be a Constant: small, all dimensions known, and a small output to fold."""
    shape = case.params.data_shape
    if None in shape or math.prod(shape) > SMALL_DATA:
        return False
    return case.expect_shape is None or None in case.expect_shape or math.prod(case.expect_shape) <= SMALL_OUTPUT


FOLDED_4BIT = (
    "OpenVINO folds a Broadcast of a 4-bit Constant (i4, u4: two elements to a byte) by copying one byte per element "
    "(BroadcastBase::evaluate_broadcast passes element_type().size(), 1, to ov::reference::broadcast), so it writes "
    "twice the output buffer: values are wrong, and whether the process then dies depends on the heap around the "
    "buffer, not on the input: no verdict of such a check would be reproducible (https://github.com/openvinotoolkit/"
    "openvino/blob/2621ca6c1d6881ae5461ab319b1076fcd956985e/src/core/src/op/util/broadcast_base.cpp#L310-L325)")


def data_reason(data: str, dtype: str) -> str | None:
    """Why a data value cannot give a reproducible verdict for an element type."""
    return FOLDED_4BIT if data in ("Constant", "Folded") and dtype in ("i4", "u4") else None


def context_types(context: str) -> frozenset[str] | None:
    """The element types a context takes (None: every type the backend takes)."""
    if context == "BitwiseXor":
        return frozenset(XOR_TYPES)
    if context == "Add":
        return frozenset(INTEGERS | FLOATS) - {"f8e4m3", "f8e5m2"}
    return None


def context_reason(context: str, dtype: str) -> str | None:
    takes = context_types(context)
    if takes is None or dtype in takes:
        return None
    if context == "Add":
        return CONTEXT_REASONS["Add-bool" if dtype == "bool" else "Add-f8"]
    return CONTEXT_REASONS[context]


def applicable(case: Any, path: Path, sweep: tuple[str, ...], every: bool = False) -> tuple[bool, str | None]:
    """Whether a path is one of the case's (else it is left out), and if so why it is not applicable (or None).
    ``sweep``: the element types the case is run on. ``every`` (``--paths all``): every path that can exist, without
    the default run's policy (secondary axes one at a time, on the target kinds of VALID_TARGETS, opset 3 only)."""
    p = dict(path)
    params = case.params
    data, target, context = p["data"], p["target_shape"], p["context"]
    changed = [axis for axis in SECONDARY if p[axis] != DEFAULTS[axis]]
    if not every and case.valid and not valid_path(case, p, changed):
        return False, None
    if not every and not case.valid and len(changed) > 1 and (set(changed) not in ({"data", "context"},
                                                                                  {"data", "threads"}) or
                                                             data == "Folded"):
        return False, None
    if not every and p["opset"] != "3" and 3 in params.versions and (changed or target == "ShapeOf"):
        return False, None  # opset 3 only, unless the case does not run Broadcast-3
    if data == "Dynamic" and (len(params.data_shape) == 0 or case.dynamic):
        return False, None  # a scalar has no dimension to make dynamic; a "?" case already has
    if data in ("Constant", "Folded") and not small_enough(case):
        return False, None
    if data == "Folded" and (target != "Constant" or axes_kind(p) != "Constant"):
        return False, None  # nothing to fold before compiling: an input is fed at run time
    if p["axes_mapping"] != DEFAULT_AXES:
        if params.mode != "explicit" or params.axes_mapping is None:
            return False, None
        if p["axes_mapping"] == axes_kind({**p, "axes_mapping": DEFAULT_AXES}):
            return False, None  # the same as "as target_shape"
        if target == "ShapeOf":
            return False, None  # both fed at run time: what the Parameter target with its Parameter axes runs
    if context != "alone":
        takes = context_types(context)
        if takes is not None and not set(sweep) & takes:
            return False, None
        if (context == "Add") != (target == "ShapeOf") or context == "Add" and params.mode != "numpy":
            return False, None  # the pattern: a numpy Broadcast to ShapeOf(x); the other contexts take the others
        if context == "Transpose" and len(params.data_shape) < 2 and (output_rank(case) or 0) < 2:
            return False, None  # nothing to transpose
    if p["source"] == "IR" and target != "Constant":
        return False, None  # the IR holds the target's values only when they are a Constant
    if target == "ShapeOf":
        return True, shapeof_reason(case)
    if duplicate_axes(case) and evaluated_by_reference(p):
        return True, REPEATED_AXIS
    return True, None


# Where OpenVINO's own BroadcastBase::evaluate() computes the broadcast instead of the CPU Broadcast node: folded
# Constant data, and a static node whose axes_mapping comes at run time (the CPU plugin's "Reference" node).
REPEATED_AXIS = (
    "a repeated axis in axes_mapping, which OpenVINO never rejects (known difference ov-explicit-duplicate-axes-"
    "mapping), reaches BroadcastBase::evaluate() here, whose get_broadcast_axes_none() erases each mapped axis from "
    "a vector of the output's axes (std::vector::erase past its end for the repeat): undefined behaviour, seen to "
    "accept, reject, crash or hang depending on the shapes, so no verdict of such a check would be reproducible")


def evaluated_by_reference(path: dict[str, str]) -> bool:
    return path["data"] == "Folded" or path["target_shape"] == "Constant" and (
        path["data"] == "Constant" or axes_kind(path) == "Parameter")


def duplicate_axes(case: Any) -> bool:
    axes = _flat(case.params.axes_mapping)
    return axes is not None and len(set(axes)) < len(axes)
