"""ov-onnx-file-empty-shape-input-divides-by-zero (conformance/known/openvino-onnx.yaml)

A shape graph input declared [0] (an empty shape), read from a file, is an empty Constant replaced by [1]
(TranslateSession::translate_graph, expand.cpp); with zero-size data elsewhere than on the last axis, e.g. (0, 1),
the CPU plugin's static Broadcast node divides by the data's 0 dimension: SIGFPE. ONNX Expand with shape [] leaves
the data as it is.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import json
import signal
import subprocess
import sys

try:
    import numpy as np
    import onnx
    import openvino as ov
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

EXAMPLES = [([0, 1], [], 'input', 'input', 'file', 'crash'),
            ([0, 2, 1], [], 'input', 'input', 'convert_model', 'crash')]

# Each model runs in a child process (a crash is shown, not suffered): an ONNX Expand whose data and shape are a
# graph input or an initializer (or the shape is Shape of a graph input of that shape: "computed"), read by
# Core.read_model from the model's bytes ("bytes") or its file path ("file"), or by openvino.convert_model of the
# file ("convert_model"), compiled and run on the CPU plugin.
CHILD = """if 1:
    import json, os, sys, tempfile, numpy as np, onnx, openvino as ov
    from onnx import helper, numpy_helper, TensorProto as TP
    data_shape, target, data_where, shape_where, source, dtype, values = json.loads(sys.argv[1])
    np_type = {"f32": np.float32, "f64": np.float64, "bf16": None}[dtype]
    if dtype == "bf16":
        bits = np.array(values, np.float32).view(np.uint32) >> 16
        data = bits.astype(np.uint16).reshape(data_shape)
        onnx_type = TP.BFLOAT16
        tensor = lambda name: helper.make_tensor(name, TP.BFLOAT16, data_shape, data.tobytes(), raw=True)
    else:
        data = np.array(values, np_type).reshape(data_shape)
        onnx_type = {"f32": TP.FLOAT, "f64": TP.DOUBLE}[dtype]
        tensor = lambda name: numpy_helper.from_array(data, name)
    shape = np.array(target, np.int64)
    inputs, inits, nodes, feeds = [], [], [], {}
    if data_where == "input":
        inputs.append(helper.make_tensor_value_info("x", onnx_type, data_shape))
        feeds["x"] = data
    else:
        inits.append(tensor("x"))
    if shape_where == "input":
        inputs.append(helper.make_tensor_value_info("shape", TP.INT64, [len(target)]))
        feeds["shape"] = shape
    elif shape_where == "computed":
        inputs.append(helper.make_tensor_value_info("shape_of", TP.UINT8, list(target)))
        nodes.append(helper.make_node("Shape", ["shape_of"], ["shape"]))
        feeds["shape_of"] = np.zeros(target, np.uint8)
    else:
        inits.append(numpy_helper.from_array(shape, "shape"))
    nodes.append(helper.make_node("Expand", ["x", "shape"], ["y"]))
    graph = helper.make_graph(nodes, "g", inputs, [helper.make_tensor_value_info("y", onnx_type, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    core = ov.Core()
    stage = "read"
    try:
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "expand.onnx")
            onnx.save(model, path)
            if source == "bytes":
                converted = core.read_model(model.SerializeToString(), b"")
            elif source == "file":
                converted = core.read_model(path)
            else:
                converted = ov.convert_model(path)
            stage = "compile"
            compiled = core.compile_model(converted, "CPU")
            stage = "infer"
            out = compiled([feeds[i.get_any_name()] for i in converted.inputs])[0]
        if dtype == "bf16":
            raw = np.asarray(out).view(np.uint16).reshape(-1)
        else:
            raw = np.asarray(out).view({"f32": np.uint32, "f64": np.uint64}[dtype]).reshape(-1)
        print(json.dumps({"shape": list(out.shape), "bits": [hex(int(b)) for b in raw[:8]]}))
    except Exception as e:
        print(json.dumps({"rejected": stage + ": " + " ".join(str(e).split())[-150:]}))"""


def run(data_shape, target, data_where, shape_where, source, dtype="f32", values=None):
    values = list(range(int(np.prod(data_shape)))) if values is None else values
    arg = json.dumps([data_shape, target, data_where, shape_where, source, dtype, values])
    r = subprocess.run([sys.executable, "-c", CHILD, arg], capture_output=True, text=True)
    if r.returncode < 0:
        return {"crash": signal.Signals(-r.returncode).name}
    lines = r.stdout.strip().splitlines()
    if not lines:
        return {"crash": (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]}
    return json.loads(lines[-1])


def spec(data_shape, target):
    try:
        return {"shape": list(np.broadcast_shapes(tuple(data_shape), tuple(target)))}
    except ValueError:
        return {"rejected": "the shapes do not broadcast"}


def shows(bug, got, want, bits=None):
    if bug == "crash":
        return "crash" in got
    if bug == "rejected":
        return "rejected" in got and "shape" in want
    if bug == "accepted":
        return "shape" in got and "rejected" in want
    if bug == "bits":
        return "shape" in got and got["shape"] == want.get("shape") and got["bits"] != bits
    raise AssertionError(bug)


print("openvino", ov.__version__, "onnx", onnx.__version__, "numpy", np.__version__)
bug = True
for example in EXAMPLES:
    data_shape, target, data_where, shape_where, source, kind = example[:6]
    extra = example[6] if len(example) > 6 else {}
    got = run(data_shape, target, data_where, shape_where, source, extra.get("dtype", "f32"), extra.get("values"))
    want = spec(data_shape, target)
    if "bits" in extra:
        want["bits"] = extra["bits"]
    seen = shows(kind, got, want, extra.get("bits"))
    bug &= seen
    print(f"Expand, data {tuple(data_shape)} ({data_where}), shape {target} ({shape_where}), read from "
          f"{source}: {got}; spec: {want}{'  <- the bug' if seen else ''}")
print("the bug shows: the process dies" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
