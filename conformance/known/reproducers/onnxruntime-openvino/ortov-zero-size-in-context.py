"""The zero-size entries of conformance/known/onnxruntime-openvino.yaml (ortov-expand-elimination-zero-read-as-one,
ortov-zero-dim-made-by-expand-not-claimed (and -initializer-transposed), ortov-zero-size-data-not-claimed,
ortov-zero-size-data-kept-beside-add-not-claimed, ortov-zero-size-data-transposes-left-not-claimed,
ortov-convertbroadcast3-max-of-zero-and-one-rejects (and -transposed), ortov-cpu-broadcast-divides-by-zero-dim (and
-constant-data, -transposed), ortov-convertbroadcast3-max-of-one-and-zero-shape,
ortov-folded-empty-constant-beside-add-not-claimed, ortov-expand-elimination-zero-read-as-one-empty-data-initializer).

Each model is an Expand (the shape an initializer; fed as a graph input where the data is one), alone, between two
Transposes (Transpose(Expand(Transpose(x)))), or beside an Add (Add(x, Expand(data, Shape(x)))), with zero-size data
or a zero in the shape; every input is valid and the spec's output is the empty broadcast (the shapes are printed).
Each runs in a child process of its own (a crash is shown as such), with ONNX Runtime's OpenVINO execution provider
alone and the CPU fallback off.

Exit 0: every bug shows; 1: one does not (the runtime does what the spec says there); 2: cannot run here.
"""

import subprocess
import sys

CHILD = r'''
import sys
import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
context, data_shape, shape, data_init, opt_all, elem, *shape_init = eval(sys.argv[1])
shape_init = shape_init[0] if shape_init else not data_init  # the shape an initializer, else fed
np_type = {TensorProto.FLOAT: np.float32, TensorProto.FLOAT16: np.float16}[elem]
data = np.ones(data_shape, np_type)
nodes, inputs, inits, feeds = [], [], [], {}
rank, out_rank = len(data_shape), max(len(data_shape), len(shape))
if context == "Transpose":
    nodes.append(helper.make_node("Transpose", ["d_t"], ["d"], perm=list(range(rank))[::-1]))
    held, held_name = np.ascontiguousarray(data.T), "d_t"
else:
    held, held_name = data, "d"
if data_init:
    inits.append(numpy_helper.from_array(held, held_name))
else:
    inputs.append(helper.make_tensor_value_info(held_name, elem, list(held.shape)))
    feeds[held_name] = held
if context == "Add":
    inputs.append(helper.make_tensor_value_info("x", elem, list(shape)))
    feeds["x"] = np.zeros(shape, np_type)
    nodes += [helper.make_node("Shape", ["x"], ["s"]), helper.make_node("Expand", ["d", "s"], ["e"]),
              helper.make_node("Add", ["x", "e"], ["y"])]
elif not shape_init:  # the shape fed (where the data is an initializer: so that the model has a graph input)
    inputs.append(helper.make_tensor_value_info("s", TensorProto.INT64, [len(shape)]))
    feeds["s"] = np.array(shape, np.int64)
    nodes.append(helper.make_node("Expand", ["d", "s"], ["e" if context == "Transpose" else "y"]))
    if context == "Transpose":
        nodes.append(helper.make_node("Transpose", ["e"], ["y"], perm=list(range(out_rank))[::-1]))
else:
    inits.append(numpy_helper.from_array(np.array(shape, np.int64), "s"))
    nodes.append(helper.make_node("Expand", ["d", "s"], ["e" if context == "Transpose" else "y"]))
    if context == "Transpose":
        nodes.append(helper.make_node("Transpose", ["e"], ["y"], perm=list(range(out_rank))[::-1]))
graph = helper.make_graph(nodes, "g", inputs, [helper.make_tensor_value_info("y", elem, None)], initializer=inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
options = ort.SessionOptions()
options.log_severity_level = 4
options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
if not opt_all:
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
try:
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["OpenVINOExecutionProvider"])
    out = session.run(None, feeds)[0]
except Exception as e:
    message = str(e)
    for marker in ("fallback to CPU EP has been explicitly disabled", "cannot be broadcasted"):
        if marker in message:
            print("refused: ..." + marker)
            break
    else:
        print("refused: " + message.strip()[-120:])
    sys.exit(0)
shape_out = out.shape if context != "Transpose" else out.shape[::-1]
print("ran: output shape", tuple(shape_out))
'''

try:
    import onnx  # noqa: F401
    import onnxruntime as ort
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)
if "OpenVINOExecutionProvider" not in ort.get_available_providers():
    print(f"cannot run: onnxruntime {ort.__version__} has no OpenVINOExecutionProvider")
    sys.exit(2)

F32, F16 = 1, 10  # TensorProto.FLOAT, FLOAT16
# (entry, (context, data shape, shape, data an initializer, ORT_ENABLE_ALL, type), what the bug gives)
BUGS = [
    ("ortov-expand-elimination-zero-read-as-one", ("Transpose", (1, 3), (0, 3), False, True, F32), "(1, 3)"),
    ("ortov-zero-dim-made-by-expand-not-claimed", ("Transpose", (2, 3), (0, 1, 1), False, False, F32), "fallback"),
    ("ortov-zero-size-data-not-claimed", ("Transpose", (0, 3), (2, 1, 1), True, False, F32), "fallback"),
    ("ortov-zero-size-data-kept-beside-add-not-claimed", ("Add", (0, 3), (1, 3), True, False, F32), "fallback"),
    ("ortov-zero-size-data-transposes-left-not-claimed", ("Transpose", (0, 3), (1, 3), False, True, F32), "fallback"),
    ("ortov-convertbroadcast3-max-of-zero-and-one-rejects", ("Transpose", (0, 3), (2, 1, 1), False, False, F32),
     "cannot be broadcasted"),
    ("ortov-convertbroadcast3-max-of-zero-and-one-rejects-transposed",
     ("Transpose", (0, 3), (2, 1, 1), False, True, F32), "cannot be broadcasted"),
    ("ortov-cpu-broadcast-divides-by-zero-dim", ("Transpose", (0, 3), (0, 3), False, False, F32), "SIGFPE"),
    ("ortov-cpu-broadcast-divides-by-zero-dim-constant-data", ("Add", (0, 3), (2, 1, 1), True, False, F32), "SIGFPE"),
    ("ortov-cpu-broadcast-divides-by-zero-dim-transposed", ("Transpose", (0, 1), (5,), False, True, F32), "SIGFPE"),
    ("ortov-convertbroadcast3-max-of-one-and-zero-shape", ("alone", (1,), (0,), False, False, F16), "(1,)"),
    ("ortov-folded-empty-constant-beside-add-not-claimed", ("Add", (2, 0, 4), (1,), True, True, F32), "fallback"),
    ("ortov-expand-elimination-zero-read-as-one-empty-data-initializer",
     ("Transpose", (0, 1, 0), (1, 0, 1), True, True, F32, True), "(0, 1, 0)"),
]
print("onnxruntime", ort.__version__, "with OpenVINOExecutionProvider alone, the CPU fallback off")
all_show = True
for entry, model, sign in BUGS:
    child = subprocess.run([sys.executable, "-c", CHILD, repr(model)], capture_output=True, text=True, timeout=300)
    got = child.stdout.strip() or ("crashed: SIGFPE" if child.returncode == -8 else
                                   f"crashed: exit {child.returncode} {child.stderr.strip()[-200:]}")
    shows = sign in got
    all_show &= shows
    context, data_shape, shape, data_init, opt_all = model[:5]
    print(f"{entry}: {context}, data {data_shape} {'initializer' if data_init else 'fed'}, shape {shape}, "
          f"{'ORT_ENABLE_ALL' if opt_all else 'ORT_DISABLE_ALL'}: {got}{'' if shows else '   (the bug does not show)'}")
print("spec: each model is valid; its output is the empty broadcast (the data's zero, or the shape's)")
print("every bug shows" if all_show else "some bug does not show")
sys.exit(0 if all_show else 1)
