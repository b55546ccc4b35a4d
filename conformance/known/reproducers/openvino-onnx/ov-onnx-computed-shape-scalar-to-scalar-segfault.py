"""ov-onnx-computed-shape-scalar-to-scalar-segfault (conformance/known/openvino-onnx.yaml)

An ONNX Expand of a scalar graph input with the shape of a scalar (Shape of a rank-0 graph input: an empty shape)
kills the process with SIGSEGV: the Shape is folded into an empty Constant, and the CPU plugin's Broadcast node of
a scalar to an empty Constant target indexes an empty repeats vector. Run in a child process. The spec's rules
example 1: a scalar to an empty target gives a scalar.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import subprocess
import sys

try:
    import numpy  # noqa: F401
    import onnx  # noqa: F401
    import openvino
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

CHILD = """if 1:
    import numpy as np, openvino as ov
    from onnx import TensorProto, helper
    graph = helper.make_graph([helper.make_node("Shape", ["like"], ["shape"]),
                               helper.make_node("Expand", ["x", "shape"], ["y"])], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, []),
                               helper.make_tensor_value_info("like", TensorProto.UINT8, [])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    core = ov.Core()
    try:
        compiled = core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU")
        print("output", compiled([np.array(2.0, np.float32), np.zeros((), np.uint8)])[0].shape)
    except RuntimeError as e:
        print("rejected:", " ".join(str(e).split())[-100:])
"""
result = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True)
got = result.stdout.strip() or (f"killed by signal {-result.returncode}" if result.returncode < 0
                                else result.stderr.strip()[-200:])
print("openvino", openvino.__version__)
print(f"Expand(scalar x, Shape(scalar input)): {got}; spec: output ()")
bug = result.returncode != 0
print("the bug shows: the process dies" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
