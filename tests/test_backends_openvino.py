"""The openvino backend's paths: which apply to which case, that each value really takes its path (the graph and
the compiled model show it), and that every path gives the reference's output on small valid cases, alone and in
a shared model."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from conformance.backends import Outcome, Request, load
from conformance.backends import openvino_paths as ovp
from conformance.data import DTYPES, make_data
from conformance.run import paths
from conformance.run.plan import plan
from tests import builders

ov = pytest.importorskip("openvino")

from conformance.backends.openvino import OpenVINOBackend, element_type, from_tensor, to_tensor  # noqa: E402
from conformance.backends.openvino_graph import build, model_of, run_compiled  # noqa: E402

DEFAULTS = {"data": "Parameter", "axes_mapping": "as target_shape", "context": "alone", "source": "python",
            "threads": "default"}


def path(opset: str = "3", target: str = "Constant", **secondary: str) -> dict[str, str]:
    return {"opset": opset, "target_shape": target, **DEFAULTS, **secondary}


def request(p: dict[str, str], data: np.ndarray, target: list[int], axes: list[int] | None = None,
            mode: str = "numpy") -> Any:
    return builders.request(data, target, axes, mode, path=p)


def labels(case: Any) -> set[str]:
    return {c.variant for c in plan(case, OpenVINOBackend(), "openvino", None)}


def test_todays_four_paths_keep_their_ids():
    axes = OpenVINOBackend().path_axes()
    assert [a.name for a in axes] == ["opset", "target_shape", "data", "axes_mapping", "context", "source", "threads"]
    old = [tuple({**path(o, t)}.items()) for o in ("1", "3") for t in ("Constant", "Parameter")]
    assert [paths.label(axes, p) for p in old] == ["opset1-const", "opset1-param", "opset3-const", "opset3-param"]


def test_which_paths_a_valid_case_takes():
    got = labels(builders.case("numpy", (3, 1), (2, 3, 4)))
    assert got == {"opset1-const", "opset1-param", "opset3-const", "opset3-param", "opset3-shapeof",
                   "opset3-const-ddyn", "opset3-param-dconst", "opset3-const-dfold"}
    # the spec's own examples also take the contexts and the IR round trip (of Constant data); zero-size data a
    # Constant folded at compile
    example = labels(builders.case("numpy", (3, 1), (2, 3, 4), group="spec_example"))
    assert example - got == {"opset3-param-xor", "opset3-shapeof-add", "opset3-const-transpose",
                             "opset3-const-dconst-ir", "opset3-const-t1", "opset3-param-t1"}
    assert "opset3-const-dconst" in labels(builders.case("numpy", (0, 1), (2, 0, 4)))
    explicit = labels(builders.case("explicit", (3,), (2, 3), (1,)))
    assert {"opset3-const-amparam", "opset3-param-amconst"} <= explicit
    assert not any("-am" in label for label in got)  # axes_mapping values: explicit cases with an axes_mapping only
    # a scalar has no dimension to make dynamic nor axes to transpose before; a case on Broadcast-1 only takes
    # the new values with opset 1
    scalar = labels(builders.case("numpy", (), (1,)))
    assert not any("ddyn" in label or "transpose" in label for label in scalar)
    assert "opset1-param-dconst" in labels(builders.case("numpy", (3,), (2, 3), versions=(1,)))
    # a float-only sweep leaves BitwiseXor out; big data is no Constant
    assert not any("xor" in label for label in labels(builders.case("numpy", (3,), (2, 3), dtypes=("f32",),
                                                                    group="spec_example")))
    assert not any("dconst" in label or "dfold" in label for label in labels(builders.case("numpy", (64, 64),
                                                                                          (2, 64, 64))))


def test_an_invalid_case_takes_data_and_context_together_and_shapeof_says_why_not():
    got = labels(builders.case("bidirectional", (2, 3), (3, 2)))
    assert {"opset3-param-dconst-transpose", "opset3-param-transpose", "opset3-shapeof-dconst"} <= got
    assert not any("dfold-" in label or "add" in label for label in got)  # Folded alone; Add: numpy mode only
    # one thread on every target kind, and with data of dynamic shape (whose refusals come at run time)
    assert {"opset3-const-t1", "opset3-param-t1", "opset3-shapeof-t1", "opset3-const-ddyn-t1"} <= got
    assert not any("t1" in label and ("transpose" in label or "dconst" in label and "ddyn" in label)
                   for label in got)
    assert "opset3-shapeof-ddyn-add" in labels(builders.case("numpy", (2, 3), (2, 1)))
    negative = builders.case("numpy", (3,), (-2, 3))
    (check,) = [c for c in plan(negative, OpenVINOBackend(), "openvino", None) if c.variant == "opset3-shapeof"]
    assert check.not_applicable is not None and "negative" in check.not_applicable


def test_a_context_says_which_element_types_it_takes():
    backend = OpenVINOBackend()
    case = builders.case("numpy", (3,), (2, 3))
    xor = tuple(path(target="Parameter", context="BitwiseXor").items())
    add = tuple(path(target="ShapeOf", context="Add").items())
    assert "BitwiseXor" in (backend.why_not(case, xor, "f32") or "")
    assert backend.why_not(case, xor, "i4") is None and backend.why_not(case, xor, "bool") is None
    assert "booleans" in (backend.why_not(case, add, "bool") or "")
    assert "f8" in (backend.why_not(case, add, "f8e5m2") or "")
    assert backend.why_not(case, add, "f16") is None


def test_one_thread_finds_the_error_its_inference_did_not_report():
    """INFERENCE_NUM_THREADS 1: the CPU plugin's synchronous infer() drops the error of a shape refused at run time
    (ov-cpu-one-thread-inference-error-unreported); the backend finds it by start_async() and wait()."""
    backend = OpenVINOBackend()
    data = np.ones((2, 3), np.float32)
    for threads in ("default", "1"):
        invalid = backend.run(request(path(target="Parameter", threads=threads), data, [2, 2]))
        valid = backend.run(request(path(target="Parameter", threads=threads), data, [4, 2, 3]))
        assert valid.error is None and valid.unreported_error is None and valid.output.shape == (4, 2, 3)
        if threads == "default":
            assert invalid.stage == "infer" and invalid.output is None, invalid
        else:  # infer() returned: the error is the one start_async() and wait() raise
            assert invalid.error is None and invalid.output is not None
            assert invalid.unreported_error and "Broadcast" in invalid.unreported_error
    from conformance.backends import openvino_elementwise as ew  # an Add of dynamic inputs the rule refuses

    dynamic = {"function": "add", "inputs": "Parameter", "shapes": "dynamic"}
    inputs = {"a": np.ones((2, 3), np.float32), "b": np.ones((2, 2), np.float32)}
    refused = ew.run(backend.core, Request(op="elementwise", path=dynamic, inputs=inputs,
                                           attrs={"auto_broadcast": "numpy"}))
    dropped = ew.run(backend.core, Request(op="elementwise", path={**dynamic, "threads": "1"}, inputs=inputs,
                                           attrs={"auto_broadcast": "numpy"}))
    assert refused.stage == "infer" and dropped.output is not None and dropped.unreported_error


def ops_of(model: Any) -> list[str]:
    return [op.get_type_name() for op in model.get_ordered_ops()]


def runtime_layers(compiled: Any) -> list[str]:
    return [op.get_rt_info()["layerType"].astype(str) for op in compiled.get_runtime_model().get_ordered_ops()]


def built(p: dict[str, str], data: np.ndarray, target: list[int], axes: list[int] | None = None,
          mode: str = "numpy") -> Any:
    return build(request(p, data, target, axes, mode), element_type, to_tensor)


def test_each_value_builds_its_graph():
    core = ov.Core()
    data = make_data((3, 1), DTYPES["i32"])
    names = lambda g: sorted(n for p in g.params for n in p.output(0).get_names())  # noqa: E731
    assert names(built(path(), data, [2, 3, 4])) == ["data"]
    assert names(built(path(target="Parameter"), data, [2, 3, 4])) == ["data", "target_shape"]
    shapeof = built(path(target="ShapeOf"), data, [2, 3, 4])
    assert names(shapeof) == ["data", "x"] and shapeof.shape == (None, None, None)
    assert "ShapeOf" in ops_of(model_of([shapeof], False, "python", core))
    dynamic = built(path(data="Dynamic"), data, [2, 3, 4])
    assert dynamic.params[0].get_output_partial_shape(0).is_dynamic and dynamic.again is not None
    constant = built(path(data="Constant"), data, [2, 3, 4])
    assert names(constant) == [] and "Broadcast" in ops_of(model_of([constant], False, "python", core))
    assert "Broadcast" not in runtime_layers(core.compile_model(model_of([constant], False, "python", core), "CPU"))
    folded = built(path(data="Folded"), data, [2, 3, 4])
    assert "Broadcast" not in ops_of(model_of([folded], True, "python", core))  # folded before compiling
    explicit = built(path(axes_mapping="Parameter"), make_data((3,), DTYPES["i32"]), [2, 3], [1], "explicit")
    assert names(explicit) == ["axes_mapping", "data"]
    xor = built(path(target="Parameter", context="BitwiseXor"), data, [2, 3, 4])
    assert ops_of(model_of([xor], False, "python", core))[-2] == "BitwiseXor"
    add = built(path(target="ShapeOf", context="Add"), data, [2, 3, 4])
    assert "Add" in ops_of(model_of([add], False, "python", core))
    transposed = built(path(context="Transpose"), data, [2, 3, 4])
    assert transposed.params[0].get_output_partial_shape(0).to_shape() == [1, 3]
    assert ops_of(model_of([transposed], False, "python", core)).count("Transpose") == 2


def test_ir_models_are_read_back():
    class Core:
        def __init__(self) -> None:
            self.core, self.read = ov.Core(), []

        def read_model(self, xml: str) -> Any:
            self.read.append(xml)
            return self.core.read_model(xml)

    core = Core()
    graph = built(path(source="IR"), make_data((3, 1), DTYPES["f32"]), [2, 3, 4])
    model = model_of([graph], False, "IR", core)
    assert len(core.read) == 1 and core.read[0].endswith(".xml") and graph.shape == (2, 3, 4)
    (out,) = run_compiled(core.core.compile_model(model, "CPU"), [graph], from_tensor)
    assert out.tobytes() == np.broadcast_to(make_data((3, 1), DTYPES["f32"]), (2, 3, 4)).tobytes()


def test_the_dynamic_path_runs_one_compiled_model_on_two_data_shapes():
    graph = built(path(data="Dynamic"), make_data((3, 1), DTYPES["u8"]), [2, 3, 4])
    compiled = ov.Core().compile_model(model_of([graph], False, "python", ov.Core()), "CPU")
    calls = []

    class Spy:
        def __init__(self, real: Any) -> None:
            self.real = real

        def create_infer_request(self) -> Any:
            request = self.real.create_infer_request()
            infer = request.infer

            def counted(feeds: dict[str, Any]) -> Any:
                calls.append(tuple(np.asarray(feeds["data"].data if hasattr(feeds["data"], "data") else
                                              feeds["data"]).shape))
                return infer(feeds)

            request.infer = counted
            return request

    (out,) = run_compiled(Spy(compiled), [graph], from_tensor)
    assert calls == [(3, 1), (1, 1), (3, 1)]
    assert out.tobytes() == np.broadcast_to(make_data((3, 1), DTYPES["u8"]), (2, 3, 4)).tobytes()


SMALL = [("numpy", (3, 1), [2, 3, 4], None), ("bidirectional", (2, 1), [1, 3], None),
         ("explicit", (3,), [2, 3], [1])]


def small_requests(dtype: str) -> list[tuple[Any, np.ndarray]]:
    """Every applicable path of three small valid cases: (request, the reference output)."""
    import reference

    backend, out = OpenVINOBackend(), []
    for mode, shape, target, axes in SMALL:
        case = builders.case(mode, shape, tuple(target), axes, group="spec_example")
        data = make_data(shape, DTYPES[dtype])
        want = reference.broadcast(data, np.array(target), None if axes is None else np.array(axes), mode)
        for c in plan(case, backend, "openvino", (dtype,), every_path=True):
            if c.not_applicable is None:
                out.append((request(dict(c.path or ()), data, target, axes, mode), want))
    return out


@pytest.mark.parametrize("dtype", ["i32", "f16", "u8"])
def test_every_path_gives_the_reference_output_alone_and_shared(dtype):
    pairs = small_requests(dtype)
    assert len({tuple(r.path.items()) for r, _ in pairs}) >= 12
    backend = OpenVINOBackend()
    alone = [backend.run(r) for r, _ in pairs]
    shared = backend.run_many([r for r, _ in pairs])
    for (r, want), one, many in zip(pairs, alone, shared, strict=True):
        for got in (one, many):
            assert got.error is None and got.output is not None, (r.path, got.error)
            assert got.output.dtype == want.dtype and got.output.tobytes() == want.tobytes(), r.path


def test_declared_shapes_on_the_new_paths():
    backend = OpenVINOBackend()
    data = np.empty((0,), np.float32)
    huge = dict(data_shape=(3, 1), shape_only=True)
    for p, want in ((path(data="Constant"), (2**40, 3, 1)), (path(source="IR"), (2**40, 3, 1)),
                    (path(target="ShapeOf"), (None, None, None))):
        r = builders.request(data, [2**40, 3, 1], path=p, **huge)
        assert backend.declare(r).declared_shape == want, p
    dynamic = builders.request(data, [2**40, 3, 1], path=path(data="Dynamic"), **huge)
    assert backend.declare(dynamic) == Outcome()  # every dimension unknown: nothing declared


def test_the_known_file_matches_the_new_axes():
    from conformance import known
    from conformance.backends import openvino_elementwise as ew

    entries = known.load()["openvino"]
    axes = {a.name: set(a.values) for a in load("openvino").path_axes()}
    # an elementwise entry's axes are openvino_elementwise's (function, inputs, shapes)
    ew_axes = {"function": set(ew.FUNCTIONS), "inputs": set(ew.INPUTS), "shapes": set(ew.SHAPES)}
    for entry in entries:  # every axis an entry names exists, and each of its values is one of the axis's
        of = ew_axes if dict(entry.match).get("op") == ("elementwise",) else axes
        for axis, globs in (pair for alternative in entry.paths for pair in alternative):
            assert axis in of, (entry.id, axis)
            assert set(globs) <= of[axis], (entry.id, axis, globs)
    assert load("openvino").path_axes() == ovp.AXES


def test_all_paths_lift_the_default_runs_policy_but_not_what_cannot_exist():
    """--paths all: secondary axes together, opset 1 with them, empty tensors between Transposes; still no Folded
    data with a run-time target, no Add context off its ShapeOf pattern, no dynamic dimensions for a scalar."""
    def every(case: Any) -> set[str]:
        return {c.variant for c in plan(case, OpenVINOBackend(), "openvino", None, every_path=True)}

    valid = builders.case("numpy", (3, 1), (2, 3, 4))
    assert labels(valid) < every(valid)
    assert {"opset1-param-dconst", "opset3-const-dconst-transpose-ir", "opset1-const-ddyn"} <= every(valid)
    assert "opset3-const-transpose" in every(builders.case("numpy", (3, 0), (2, 3, 0)))  # empty, no lone 0
    assert "opset3-const-transpose" not in labels(builders.case("numpy", (3, 0), (2, 3, 0)))
    # a lone 0 that the reversal moves, in the data or the output (lone_zero_transposed): the default run takes it too
    assert "opset3-const-transpose" in labels(builders.case("numpy", (0, 1), (2, 0, 1)))
    assert "opset3-const-transpose" in labels(builders.case("numpy", (), (0, 1)))
    for label in every(valid):
        assert not ("dfold" in label and "const" not in label.split("-")[1])
        assert ("add" in label) <= ("shapeof" in label)
    assert not any("ddyn" in label for label in every(builders.case("numpy", (), (1,))))
