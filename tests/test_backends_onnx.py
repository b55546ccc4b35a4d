"""The ONNX backends (onnxruntime, openvino-onnx, onnx-reference, the onnx.backend adapter) and `load`."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from conformance import backends
from conformance.backends import BUILTIN, BackendNotFound, Request, load
from conformance.backends.onnx_backend import OnnxBackendAdapter, expand_model, inferred_shape
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


def test_the_five_built_in_backends():
    assert list(BUILTIN) == ["openvino", "openvino-onnx", "onnxruntime", "onnx-reference", "local"]
    for name in BUILTIN:
        backend = load(name)
        assert backend.name == name and backend.unavailable() is None, backend.unavailable()


@pytest.mark.parametrize("ref", ONNX_BACKENDS)
def test_onnx_backends_take_bidirectional_cases_only_and_say_why(ref):
    backend = load(ref)
    assert backend.paths_for(case()) == dict.fromkeys(path_of(v) for v in VARIANTS)
    assert {paths.label(backend.path_axes(), p) for p in backend.paths_for(case())} == set(VARIANTS)
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
    ("nosuch", "backend 'nosuch' is unknown; built-in: openvino, openvino-onnx, onnxruntime, onnx-reference, local;"
               " entry points in group 'broadcast_conformance.backends': "),
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
        load("conformance.backends.onnx_backend:expand_model")


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
        assert verdicts[f"{name}:bi_small"] == {"pass"} and verdicts[f"{name}:bi_small_reject"] == {"pass"}
        assert verdicts[f"{name}:np_small"] == {"not_applicable"}
    assert set(data["backends"]) == {"onnx-reference", "openvino-onnx", "onnxruntime.backend"}
    assert all(b["version"] for b in data["backends"].values())
    # an item per case and backend: 3 backends x (a valid case and a rejection), and one not-applicable case each
    result.assert_outcomes(passed=6, skipped=3)
    assert len(data["checks"]) == 39  # 3 backends x 4 variants x (2 dtypes + 1 rejection), 1 not-applicable each


def test_openvino_reports_its_cpu_capabilities_as_hardware():
    pytest.importorskip("openvino")
    from conformance.backends.openvino import OpenVINOBackend
    from conformance.backends.openvino_onnx import OpenVINOOnnxBackend

    hardware = OpenVINOBackend().hardware()
    assert "cpu:fp32" in hardware and all(h.startswith("cpu:") and h == h.lower() for h in hardware)
    assert OpenVINOOnnxBackend().hardware() == hardware
    assert OpenVINOBackend().describe()["hardware"] == list(hardware)
