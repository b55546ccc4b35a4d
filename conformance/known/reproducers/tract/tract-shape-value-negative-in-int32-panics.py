"""tract-shape-value-negative-in-int32-panics (conformance/known/tract.yaml)

An Expand shape initializer with a value that tract reads as negative (-1, or 2**31 cut to int32) facing no data
dimension: typing the model panics in ShapeFact::compute_concrete (core/src/model/fact.rs: "assertion failed: ...
d >= 0") inside tract's C API, where a panic cannot unwind, and the process aborts. Run in a child process.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import os
import subprocess
import sys
import tempfile

try:
    import tract  # noqa: F401
    from onnx import TensorProto, helper, numpy_helper, save
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

import numpy as np

CHILD = """
import sys, tract
model = tract.onnx().load(sys.argv[1])
try:
    print("declared", model.into_model().output_fact(0).dump())
except tract.TractError as e:
    print("refused:", " ".join(str(e).split())[:150])
"""
print("tract", tract.version())
bug = False
with tempfile.TemporaryDirectory() as d:
    for data, shape, spec in (((3,), [-1, 3], "rejected: a negative target_shape value"),
                              ((1,), [2**31, 0], "(2147483648, 0)")):
        g = helper.make_graph([helper.make_node("Expand", ["x", "shape"], ["y"])], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(data))],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(np.array(shape, np.int64), "shape")])
        path = os.path.join(d, "m.onnx")
        save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=7), path)
        child = subprocess.run([sys.executable, "-c", CHILD, path], capture_output=True, text=True,
                               env={**os.environ, "RUST_BACKTRACE": "0", "RUST_LIB_BACKTRACE": "0"})
        aborted = child.returncode < 0
        bug = bug or aborted
        got = f"the process died (signal {-child.returncode})" if aborted else child.stdout.strip()
        print(f"Expand-13, data {data}, shape initializer {shape}: {got}; spec: {spec}")
print("the bug shows: tract aborts the process" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
