"""The ONNX backends (onnxruntime, openvino-onnx, onnx-reference, the onnx.backend adapter) and `load`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conformance import backends
from conformance.backends import BUILTIN, BackendNotFound, Request, load
from conformance.backends.onnx_backend import NODE_AXES, OnnxBackendAdapter, possible
from conformance.backends.onnx_model import expand_model, inferred_shape
from conformance.cases import Case
from conformance.run import paths
from tests import builders

ROOT = Path(__file__).resolve().parents[1]
ONNX_BACKENDS = ["onnxruntime", "openvino-onnx", "onnx-reference", "onnx-backend:onnxruntime.backend"]
VARIANTS = ["opset8-init", "opset8-input", "opset13-init", "opset13-input"]


def case(mode: str = "bidirectional", axes_mapping: list[int] | None = None) -> Case:
    return builders.case(mode, (3,), (2, 3), axes_mapping)


def path_of(variant: str) -> tuple[tuple[str, str], ...]:
    opset, shape = variant.split("-")
    return (("opset", opset.removeprefix("opset")), ("shape", {"init": "initializer", "input": "input"}[shape]))


def request(variant: str, data: np.ndarray, target: list[int]) -> Request:
    return builders.request(data, target, mode="bidirectional", path=dict(path_of(variant)), variant=variant)


def test_the_ten_built_in_backends():
    assert list(BUILTIN) == ["openvino", "openvino-onnx", "onnxruntime", "onnxruntime-openvino", "onnx-reference",
                             "local", "jax", "tract", "tensorflow", "torch"]
    for name in BUILTIN:
        backend = load(name)
        if name in ("jax", "tensorflow", "torch") and backend.unavailable() is not None:  # extras: not by default
            reason = backend.unavailable()
            assert f"broadcast-conformance[{name}]" in reason or "cannot be imported" in reason
            continue
        if name == "onnxruntime-openvino" and backend.unavailable() is not None:  # installs as onnxruntime: tox
            assert "tox -e conformance-ort-openvino" in backend.unavailable()
            continue
        assert backend.name == name and backend.unavailable() is None, backend.unavailable()


# Each ONNX backend's shape values, its path axes beyond opset and shape with their values (the first is the
# default), and how many paths it takes of their product
SHAPES = ("initializer", "input", "computed")
CONTEXTS = ("alone", "Add", "Transpose")
AXES = {"onnxruntime": (SHAPES, {"data": ("input", "initializer"), "context": CONTEXTS, "source": ("bytes", "file"),
                                 "optimization": ("all", "disabled")}, 19),  # of 96 (48 possible): paired_paths
        "openvino-onnx": (SHAPES, {"data": ("input", "initializer"), "context": CONTEXTS,
                                   "source": ("bytes", "file", "convert_model"), "threads": ("default", "1")},
                          25),  # of 216: paired_paths, one thread outside it (below)
        "onnx-reference": (SHAPES, {"data": ("input", "initializer"), "context": CONTEXTS,
                                    "source": ("bytes", "file")}, 18),  # of 72 (36 possible): paired_paths
        "onnx-backend:onnxruntime.backend": (SHAPES, {"data": ("input", "initializer")}, 12)}


def test_openvino_onnx_takes_one_thread_outside_the_pairwise_choice():
    """One thread on the spec's examples and the inputs the rule refuses, the shape fed or computed at run time, the
    Expand alone and read from its bytes, on paths the pairwise choice took; the pairwise choice is as before it."""
    backend = load("openvino-onnx")
    plain = set(backend.paths_for(case()))
    for c in (builders.case("bidirectional", (3,), (2, 3), group="spec_example"),
              builders.case("bidirectional", (2, 3), (3, 2))):
        found = set(backend.paths_for(c))
        one = {p for p in found if dict(p)["threads"] == "1"}
        assert {tuple((n, "default" if n == "threads" else v) for n, v in p) for p in one} <= plain
        assert one and all(dict(p)["shape"] != "initializer" and dict(p)["context"] == "alone"
                           and dict(p)["source"] == "bytes" for p in one)
        assert found - one == plain or not c.valid
    assert not any(dict(p)["threads"] == "1" for p in plain)
    example = builders.case("bidirectional", (3,), (2, 3), group="spec_example")
    labels = {paths.label(backend.path_axes(), p) for p in backend.paths_for(example)}
    assert {"opset13-input-t1", "opset13-computed-t1", "opset8-input-t1"} <= labels


def every_label(ref: str) -> list[str]:
    """The labels of the paths the backend takes (of a small valid case)."""
    backend = load(ref)
    return [paths.label(backend.path_axes(), p) for p in backend.paths_for(case())]


@pytest.mark.parametrize("ref", ONNX_BACKENDS)
def test_onnx_backends_take_bidirectional_cases_only_and_say_why(ref):
    backend = load(ref)
    applicable = backend.paths_for(case())
    assert all(why is None for why in applicable.values())
    shapes, extra, count = AXES[ref]
    assert tuple(dict.fromkeys(dict(p)["shape"] for p in applicable)) == shapes
    assert {a.name: a.values for a in backend.path_axes()[2:]} == extra
    assert all(a.default == a.values[0] for a in backend.path_axes()[2:]) and len(applicable) == count
    # --paths all: every path that can exist (the Add context computes its shape)
    every = backend.paths_for(case(), every=True)
    product = list(paths.every_path(backend.path_axes()))
    assert (set(applicable) < set(every) if not backend.every_combination else set(applicable) == set(every))
    assert set(every) == {p for p in product if dict(p).get("context", "alone") != "Add" or
                          dict(p)["shape"] == "computed"}
    # today's paths (every added axis at its default) keep their ids
    defaults = [p for p in applicable if all(dict(p)[name] == values[0] for name, values in extra.items())]
    assert [paths.label(backend.path_axes(), p) for p in defaults] == [
        f"opset{o}-{ {'initializer': 'init'}.get(s, s)}" for o in (8, 13) for s in shapes]
    assert {paths.label(backend.path_axes(), p) for p in defaults} >= set(VARIANTS)
    (reason,) = backend.paths_for(case("numpy")).values()
    assert "bidirectional rule only" in reason
    (reason,) = backend.paths_for(case("bidirectional", [0])).values()
    assert reason == "ONNX Expand has no axes_mapping input"


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("ref", ONNX_BACKENDS)
def test_onnx_backends_expand_bit_for_bit(ref, variant):
    # -0.0 and a NaN with a payload: a copy through arithmetic or another type would change them
    data = np.array([0x80000000, 0x7FC00123, 0x3F800000], np.uint32).view(np.float32)
    outcome = load(ref).run(request(variant, data, [2, 1]))
    assert outcome.error is None and outcome.adapter_error is None, outcome.error
    assert outcome.output.shape == (2, 3) and outcome.output.dtype == np.float32
    assert outcome.output.view(np.uint32).tolist() == [[0x80000000, 0x7FC00123, 0x3F800000]] * 2
    assert outcome.declared_shape in {(2, 3), (None, 3)}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("ref", ONNX_BACKENDS)
def test_onnx_backends_reject_incompatible_shapes(ref, variant):
    outcome = load(ref).run(request(variant, np.zeros((3,), np.float32), [2]))
    assert outcome.output is None and outcome.error and outcome.stage in {"build", "compile", "infer"}


def label_path(ref: str, label: str) -> dict[str, str]:
    backend = load(ref)
    (path,) = [p for p in paths.every_path(backend.path_axes()) if paths.label(backend.path_axes(), p) == label]
    return dict(path)


@pytest.mark.parametrize("ref", ONNX_BACKENDS)
def test_onnx_backends_expand_bit_for_bit_on_every_path(ref):
    # -0.0 and a NaN with a payload: a copy through arithmetic or another type would change them
    data = np.array([0x80000000, 0x7FC00123, 0x3F800000], np.uint32).view(np.float32)
    backend = load(ref)
    for label in every_label(ref):
        req = builders.request(data, [2, 1], mode="bidirectional", path=label_path(ref, label), variant=label)
        outcome = backend.run(req)
        assert outcome.error is None and outcome.adapter_error is None, (label, outcome.error)
        assert outcome.output.view(np.uint32).tolist() == [[0x80000000, 0x7FC00123, 0x3F800000]] * 2, label
        assert outcome.declared_shape in {(2, 3), (None, 3), (None, None)}, (label, outcome.declared_shape)


@pytest.mark.parametrize("ref", ONNX_BACKENDS)
def test_checks_share_a_model_where_the_axes_acting_on_the_whole_model_agree(ref, monkeypatch):
    backend = load(ref)
    labels = every_label(ref)
    data = np.arange(3, dtype=np.float32)
    requests = [builders.request(data, [2, 1], mode="bidirectional", path=label_path(ref, label), variant=label)
                for label in labels]
    models = []
    run_model_many = backend.run_model_many

    def counted(model, feeds, **kwargs):
        models.append((len(model.graph.output), dict(kwargs["path"])))
        return run_model_many(model, feeds, **kwargs)

    monkeypatch.setattr(backend, "run_model_many", counted)
    outcomes = backend.run_many(requests)
    assert all(o.output is not None and o.output.tolist() == [[0, 1, 2]] * 2 for o in outcomes)
    # one model for each combination of the values of the axes that act on the whole model, holding every way of
    # giving the shape and the data and every context
    whole = {tuple((k, v) for k, v in label_path(ref, label).items() if k not in NODE_AXES) for label in labels}
    assert len(models) == len(whole) and sum(n for n, _ in models) == len(labels)


@pytest.mark.parametrize("ref", ["onnxruntime", "onnx-reference", "openvino-onnx"])
def test_a_paired_backend_takes_todays_paths_and_every_pair_of_axis_values(ref):
    """Of the paths that can exist (the Add context computes its shape), every pair of values of two axes."""
    backend = load(ref)
    taken = list(backend.paths_for(case()))
    # an unpaired axis (openvino-onnx's threads) is at its default in the pairwise choice (its own test: above)
    unpaired = {a.name: a.default for a in backend.path_axes() if a.name in backend.unpaired}
    every = [p for p in paths.every_path(backend.path_axes())
             if possible(p) and all(dict(p)[n] == d for n, d in unpaired.items())]
    assert len(taken) < len(every)

    def pairs(ps):
        return {(a, b) for p in ps for i, a in enumerate(p) for b in p[i + 1:]}

    assert pairs(taken) == pairs(every)
    for also in backend.also_every:  # e.g. both inputs constant, with ORT_ENABLE_ALL, on every opset and shape
        def at(ps, also=also):
            return [p for p in ps if all(dict(p)[k] == v for k, v in also.items())
                    and all(dict(p)[a.name] == a.default for a in backend.path_axes() if a.name not in also
                            and a.default is not None)]
        assert at(every) and set(at(every)) <= set(taken)


def test_openvino_onnx_takes_every_way_of_giving_the_inputs_and_the_model():
    taken = [dict(p) for p in load("openvino-onnx").paths_for(case())]
    assert {(p["shape"], p["data"]) for p in taken} == {(s, d) for s in SHAPES for d in ("input", "initializer")}
    assert {p["source"] for p in taken} == {"bytes", "file", "convert_model"}


def test_convert_model_of_two_initializers_is_not_asked_for_an_output_it_would_fold_beyond_the_budget():
    """openvino.convert_model folds an Expand of an initializer by an initializer shape, computing the output while
    converting: an output beyond 256 MiB (the default budget) is not asked for there, and only there."""
    from conformance.backends.openvino_onnx import FOLDED_AT_CONVERSION, OpenVINOOnnxBackend

    backend = OpenVINOOnnxBackend()
    huge = builders.case("bidirectional", (1, 1), (2**32, 1))  # 4 GiB of u8, 16 of f32
    small = builders.case("bidirectional", (1, 1), (2**20, 1))  # 1 MiB of u8: folded, and checked
    folded = {"opset": "13", "shape": "initializer", "data": "initializer", "context": "alone",
              "source": "convert_model"}
    assert backend.why_not(huge, tuple(folded.items()), "u8") == FOLDED_AT_CONVERSION
    assert backend.why_not(small, tuple(folded.items()), "f32") is None
    for other in ({"source": "bytes"}, {"source": "file"}, {"shape": "input"}, {"shape": "computed"},
                  {"data": "input"}):
        assert backend.why_not(huge, tuple({**folded, **other}.items()), "u8") is None, other
    invalid = builders.case("bidirectional", (3,), (2**32, 2))  # no output to fold: refused while converting
    assert backend.why_not(invalid, tuple(folded.items()), "u8") is None


def test_the_add_context_is_shape_of_x_added_to_the_expand_and_transpose_is_undone():
    """Add(x, Expand(y, Shape(x))), x of the data's type fed -0.0; the Transpose context's data fed with reversed axes
    and its output transposed back: both give the broadcast bit for bit, and its declared shape."""
    data = np.array([[0x80000000, 0x7FC00123, 0x3F800000]], np.uint32).view(np.float32)  # -0.0, a NaN payload, 1.0
    backend = load("onnxruntime")
    add = builders.request(data, [2, 1, 3], mode="bidirectional", variant="opset13-computed-add",
                           path={"opset": "13", "shape": "computed", "data": "input", "context": "Add"})
    model = backend.model(add)
    assert [n.op_type for n in model.graph.node] == ["Shape", "Expand", "Add"]
    assert model.graph.node[2].input[0] == "shape_of" and model.graph.input[1].type.tensor_type.elem_type == 1
    transposed = builders.request(data, [2, 1, 3], mode="bidirectional", variant="opset13-input-transpose",
                                  path={"opset": "13", "shape": "input", "data": "input", "context": "Transpose"})
    assert [n.op_type for n in backend.model(transposed).graph.node] == ["Transpose", "Expand", "Transpose"]
    for request in (add, transposed):
        outcome = backend.run(request)
        assert outcome.output.shape == (2, 1, 3)
        declared = outcome.declared_shape  # shape inference may leave dimensions open, never give others
        assert len(declared) == 3 and all(d in (None, want) for d, want in zip(declared, (2, 1, 3), strict=True))
        assert outcome.output.view(np.uint32).reshape(2, 3).tolist() == [[0x80000000, 0x7FC00123, 0x3F800000]] * 2


def test_a_computed_shape_is_shape_of_an_input_shaped_as_the_target_and_cast_to_the_shape_type():
    import onnx

    req = builders.request(np.zeros((3, 1), np.float32), np.array([2, 1, 4], np.int32), mode="bidirectional",
                           path={"opset": "13", "shape": "computed", "data": "initializer"})
    model = expand_model(req, 13, output_rank=True)
    onnx.checker.check_model(model)
    assert [n.op_type for n in model.graph.node] == ["Shape", "Cast", "Expand"]
    assert [(i.name, [d.dim_value for d in i.type.tensor_type.shape.dim]) for i in model.graph.input] == [
        ("shape_of", [2, 1, 4])]
    assert [i.name for i in model.graph.initializer] == ["data"]
    # int32 is not Expand's shape type: rejected, as on the other paths
    assert load("onnxruntime").run(req).error


@pytest.mark.parametrize("target, why", [
    ([2, -3], "no tensor has a negative dimension"),
    ([[2, 3]], "always 1-D"),
    ([2**40, 3], "more than the suite feeds"),
    ([4, 2**62], "more than the suite feeds"),
])
def test_a_computed_shape_is_not_applicable_to_a_target_no_fed_tensor_has(target, why):
    backend = load("onnxruntime")
    applicable = backend.paths_for(builders.case("bidirectional", (1,), target))
    computed = {p: reason for p, reason in applicable.items() if dict(p)["shape"] == "computed"}
    assert computed and all(why in (reason or "") for reason in computed.values())
    assert all(reason is None for p, reason in applicable.items() if dict(p)["shape"] != "computed")


def test_zero_size_targets_a_tensor_can_have_are_computed():
    backend = load("onnx-reference")
    applicable = backend.paths_for(builders.case("bidirectional", (1,), [2**62, 0]))
    assert all(reason is None for reason in applicable.values())
    req = builders.request(np.zeros((1,), np.uint8), [2**62, 0], mode="bidirectional", shape_only=True,
                           path={"opset": "13", "shape": "computed", "data": "initializer"})
    assert backend.declare(req).error is None


def test_data_as_an_initializer_is_not_applicable_to_dimensions_unknown_until_run_time():
    applicable = load("onnxruntime").paths_for(builders.case("bidirectional", (None, 3), [2, 1]))
    reasons = {dict(p)["data"]: why for p, why in applicable.items()}
    assert reasons["input"] is None and "unknown until run time" in reasons["initializer"]


def test_onnxruntime_optimization_and_source_axes_reach_the_session():
    import onnxruntime

    backend = load("onnxruntime")
    model = expand_model(request("opset13-init", np.ones((1,), np.float32), [3]), 13)
    level = onnxruntime.GraphOptimizationLevel
    assert backend.session(model, {}).get_session_options().graph_optimization_level == level.ORT_ENABLE_ALL
    disabled = backend.session(model, {"optimization": "disabled", "source": "file"})
    assert disabled.get_session_options().graph_optimization_level == level.ORT_DISABLE_ALL


def test_the_expand_model_for_onnx_backends_passes_the_checker():
    import onnx

    req = request("opset13-input", np.zeros((3, 1), np.int8), [2, 1, 4])
    onnx.checker.check_model(expand_model(req, 13, True, output_rank=True))
    model = expand_model(req, 13, True)  # ONNX Runtime's: the output's shape left to inference
    assert not model.graph.output[0].type.tensor_type.HasField("shape")
    assert inferred_shape(model) == (None, 3, None)  # Expand-13 infers the rank from the shape's length


def test_the_onnx_backend_adapter_is_named_after_its_module_and_versioned_by_its_distribution():
    from importlib import metadata

    adapter = load("onnx-backend:onnxruntime.backend")
    assert isinstance(adapter, OnnxBackendAdapter)
    assert adapter.name == "onnxruntime.backend" and adapter.version() == metadata.version("onnxruntime")


def test_a_subclass_of_the_adapter_names_its_module():
    class Mine(OnnxBackendAdapter):
        name = "ort-by-onnx-backend"
        module = "onnxruntime.backend"

    assert Mine().name == "ort-by-onnx-backend" and Mine().package == "onnxruntime"
    assert Mine().run(request("opset8-init", np.ones((1,), np.int64), [3])).output.tolist() == [1, 1, 1]


def test_an_adapter_for_a_missing_module_is_a_skip_with_the_reason():
    assert load("onnx-backend:no_such_onnx_backend").unavailable() == (
        "module 'no_such_onnx_backend' is not installed")
    assert "cannot be imported" in load("onnx-backend:no_such_package.backend").unavailable()


@pytest.mark.parametrize("ref, message", [
    ("nosuch", "backend 'nosuch' is unknown; built-in: openvino, openvino-onnx, onnxruntime, onnxruntime-openvino, "
               "onnx-reference, local, jax, tract, tensorflow, torch; entry points in group "
               "'broadcast_conformance.backends': "),
    ("no_such_module:Backend", "backend 'no_such_module:Backend': cannot import module 'no_such_module'"),
    ("conformance.backends.local:Nope", "module 'conformance.backends.local' has no 'Nope'"),
    ("onnx-backend:", "name the module, e.g. onnx-backend:onnxruntime.backend"),
])
def test_load_errors_say_what_would_have_worked(ref, message):
    with pytest.raises(BackendNotFound) as excinfo:
        load(ref)
    assert message in str(excinfo.value)
    assert isinstance(excinfo.value, ValueError)


def test_load_refuses_what_is_not_a_backend():
    with pytest.raises(TypeError, match="should be a subclass of conformance.backends.Backend"):
        load("conformance.backends.onnx_model:expand_model")


def test_unknown_name_lists_installed_entry_points(monkeypatch):
    from importlib import metadata

    ep = metadata.EntryPoint(name="fancy", value="fancy_pkg:Fancy", group=backends.ENTRY_POINT_GROUP)
    monkeypatch.setattr(backends, "plugins", lambda: {"fancy": ep})
    with pytest.raises(BackendNotFound, match="'broadcast_conformance.backends': fancy;"):
        load("nosuch")
    with pytest.raises(BackendNotFound, match=r"entry point 'fancy_pkg:Fancy' .* cannot be loaded "
                                              r"\(ModuleNotFoundError: No module named 'fancy_pkg'\)"):
        load("fancy")


def test_an_entry_point_name_loads_its_class(monkeypatch):
    from importlib import metadata

    ep = metadata.EntryPoint(name="mine", value="conformance.backends.local:LocalBackend",
                             group=backends.ENTRY_POINT_GROUP)
    monkeypatch.setattr(backends, "plugins", lambda: {"mine": ep})
    assert load("mine").name == "local"


CASES = """\
group: rule
cases:
  - id: bi_small
    mode: bidirectional
    versions: [3]
    data_shape: [3, 1]
    target_shape: [2, 1, 4]
    expect: {shape: [2, 3, 4]}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
    dtypes: [f32, i8]
  - id: bi_small_reject
    mode: bidirectional
    versions: [3]
    data_shape: [3]
    target_shape: [2]
    expect: {reject: bidirectional_dim}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
  - id: np_small
    mode: numpy
    data_shape: [3]
    target_shape: [2, 3]
    expect: {shape: [2, 3]}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
"""


def test_onnx_backends_end_to_end(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makepyfile(test_conformance="")
    (pytester.path / "cases").mkdir()
    (pytester.path / "cases" / "small.yaml").write_text(CASES)
    refs = ["onnx-reference", "openvino-onnx", "onnx-backend:onnxruntime.backend"]
    result = pytester.runpytest_subprocess("-p", "conformance.plugin", "-p", "no:cacheprovider",
                                           "--generated-examples", "0", "--results",
                                           "out.json", "--report", "none", *[a for r in refs for a in ("--backend", r)])
    data = json.loads((pytester.path / "out.json").read_text())
    verdicts: dict[str, set[str]] = {}
    for check in data["checks"]:
        verdicts.setdefault(f"{check['backend']}:{check['case']}", set()).add(check["verdict"])
    for name in ("onnx-reference", "openvino-onnx", "onnxruntime.backend"):
        # i8 has no ONNX Add (the Add context); OpenVINO's known differences on some paths (e.g. NopElimination's)
        for case_id in ("bi_small", "bi_small_reject"):
            assert "pass" in verdicts[f"{name}:{case_id}"]
            assert verdicts[f"{name}:{case_id}"] <= {"pass", "not_applicable", "known_difference"}
        assert verdicts[f"{name}:np_small"] == {"not_applicable"}
    assert set(data["backends"]) == {"onnx-reference", "openvino-onnx", "onnxruntime.backend"}
    assert all(b["version"] for b in data["backends"].values())
    # an item per case and backend: 3 backends x (a valid case and a rejection), and one not-applicable case each
    result.assert_outcomes(passed=6, skipped=3)
    # 3 checks (2 dtypes + 1 rejection) on every path of each (a rule case), 1 not-applicable check each, and the
    # rejection on openvino-onnx's 5 one-thread paths (the shape fed or computed, the data an input or initializer)
    assert len(data["checks"]) == 3 * sum(AXES[ref][2] for ref in ("onnx-reference", "openvino-onnx",
                                                                 "onnx-backend:onnxruntime.backend")) + 3 + 5


def test_openvino_reports_its_cpu_capabilities_as_hardware():
    pytest.importorskip("openvino")
    from conformance.backends.openvino import OpenVINOBackend
    from conformance.backends.openvino_onnx import OpenVINOOnnxBackend

    hardware = OpenVINOBackend().hardware()
    assert "cpu:fp32" in hardware and all(h.startswith("cpu:") and h == h.lower() for h in hardware)
    assert OpenVINOOnnxBackend().hardware() == hardware
    assert OpenVINOBackend().describe()["hardware"] == list(hardware)


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity to set here (not Linux)")
def test_a_process_on_one_cpu_reports_one_inference_thread_as_the_plugin_compiles_with_it():
    """With an affinity of one CPU the CPU plugin compiles with one inference thread (its results differ: docs/
    internals.md "One inference thread"), and the backend says so; with its full affinity, as the CPU plugin
    compiles with more than one, it does not."""
    pytest.importorskip("openvino")
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("this process runs on one CPU only")
    probe = ("import os, sys, numpy as np, openvino as ov\n"
             "if sys.argv[1] == 'one': os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})\n"
             "from conformance.backends.openvino import OpenVINOBackend\n"
             "p = ov.opset3.parameter([2], ov.Type.f32)\n"
             "c = ov.Core().compile_model(ov.Model([ov.opset3.relu(p)], [p]), 'CPU')\n"
             "one = 'cpu:one_inference_thread' in OpenVINOBackend().hardware()\n"
             "print(c.get_property('INFERENCE_NUM_THREADS'), one)\n")
    runs = {which: subprocess.run([sys.executable, "-c", probe, which], capture_output=True, text=True, check=True,
                                  env={**os.environ, "PYTHONPATH": str(builders.ROOT)}).stdout.split()
            for which in ("one", "all")}
    assert runs["one"] == ["1", "True"]
    assert int(runs["all"][0]) > 1 and runs["all"][1] == "False"


def test_an_axis_added_later_keeps_the_paths_a_default_run_took_before_it():
    """openvino-onnx's context axis came after its others (added_later): its default run still takes every path it
    took before, with the Expand alone, and adds paths of the new values."""
    from conformance.backends.openvino_onnx import OpenVINOOnnxBackend

    class Before(OpenVINOOnnxBackend):
        axes = tuple(a for a in OpenVINOOnnxBackend.axes if a.name != "context")
        added_later = ()
        also_every = ()

    now, before = load("openvino-onnx"), Before()
    labels_now = {paths.label(now.path_axes(), p) for p in now.paths_for(case())}
    labels_before = {paths.label(before.path_axes(), p) for p in before.paths_for(case())}
    assert labels_before < labels_now
    assert {dict(p)["context"] for p in now.paths_for(case())} == {"alone", "Add", "Transpose"}
