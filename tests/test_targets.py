"""Devices and execution providers as a path axis (Backend.target): --device adds OpenVINO devices, --provider ONNX
Runtime execution providers; a value the machine lacks is not applicable with the reason; the value reaches
compile_model / InferenceSession; the report's header lists where each backend ran."""

from __future__ import annotations

import json

import pytest

import reference
from conformance.backends import load
from conformance.backends.base import target_label
from conformance.backends.onnxruntime import OnnxRuntimeBackend
from conformance.backends.onnxruntime_openvino import OPENVINO_PROVIDER, OnnxRuntimeOpenVINOBackend
from conformance.backends.openvino import OpenVINOBackend, device_absent
from conformance.data import make_data
from conformance.report import render
from conformance.results.record import FORMAT, Results
from conformance.run import paths
from conformance.run.plan import plan
from tests import builders

needs_openvino = pytest.mark.skipif(OpenVINOBackend().unavailable() is not None,
                                    reason=str(OpenVINOBackend().unavailable()))
needs_onnxruntime = pytest.mark.skipif(OnnxRuntimeBackend().unavailable() is not None,
                                       reason=str(OnnxRuntimeBackend().unavailable()))
needs_ort_openvino = pytest.mark.skipif(OnnxRuntimeOpenVINOBackend().unavailable() is not None,
                                        reason=str(OnnxRuntimeOpenVINOBackend().unavailable()))

CASES = """\
group: rule
cases:
  - id: small_numpy
    mode: numpy
    data_shape: [3]
    target_shape: [2, 3]
    expect: {shape: [2, 3]}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
    dtypes: [f32]
"""


@pytest.mark.parametrize(("available", "device", "absent"), [
    (["CPU"], "CPU", None),
    (["CPU"], "AUTO", None),
    (["CPU"], "HETERO:CPU", None),
    (["CPU"], "GPU", "'GPU' is absent here"),
    (["CPU"], "HETERO:GPU,CPU", "'GPU' is absent here"),
    (["CPU"], "AUTO:NPU", "'NPU' is absent here"),
    (["CPU", "GPU.0", "GPU.1"], "GPU", None),
    (["CPU", "GPU.0", "GPU.1"], "GPU.1", None),
    (["CPU", "GPU.0"], "BATCH:GPU(4)", None),
    (["CPU"], "HETERO", "runs on the devices it names"),
    ([], "AUTO", "no device is available"),
])
def test_a_device_is_absent_where_a_physical_device_it_names_is(available, device, absent):
    why = device_absent(device, available)
    assert why is None if absent is None else absent in why


@pytest.mark.parametrize(("value", "label"), [("HETERO:CPU", "hetero_cpu"), ("AUTO", "auto"), ("GPU.1", "gpu_1"),
                                              ("CUDAExecutionProvider", "cuda")])
def test_a_target_value_has_an_id_of_its_own(value, label):
    assert target_label(value) == label


@needs_openvino
def test_the_default_run_stays_on_the_cpu_with_the_ids_it_had():
    backend = load("openvino")
    case = builders.case("numpy", group="spec_example")
    checks = plan(case, backend, "openvino", ("f32",))
    assert {dict(c.path)["device"] for c in checks} == {"CPU"}
    assert "opset3-const" in {c.variant for c in checks}  # no device in the ids of the CPU's checks


@needs_openvino
def test_added_devices_take_the_cpus_checks_and_an_absent_one_is_not_applicable_with_the_reason():
    backend = load("openvino")
    backend.add_targets(["HETERO:CPU", "GPU.9"])  # no machine here has ten GPUs
    case = builders.case("numpy", group="edge")
    checks = plan(case, backend, "openvino", None)
    by_device: dict[str, list] = {}
    for check in checks:
        by_device.setdefault(dict(check.path)["device"], []).append(check)
    strip = {(c.variant.replace("-hetero_cpu", ""), c.dtype) for c in by_device["HETERO:CPU"]}
    assert strip == {(c.variant, c.dtype) for c in by_device["CPU"]}  # check by check, the CPU's
    assert all(c.not_applicable is None for c in by_device["HETERO:CPU"] if c.dtype != "string")
    assert by_device["GPU.9"] and all("'GPU.9' is absent here" in c.not_applicable for c in by_device["GPU.9"])
    assert backend.describe()["targets"]["values"]["HETERO:CPU"] is None


@needs_openvino
def test_the_device_reaches_compile_model():
    backend = OpenVINOBackend()
    data = make_data((3, 1), "f32")
    path = {"opset": "3", "target_shape": "Constant", "data": "Parameter", "axes_mapping": "as target_shape",
            "context": "alone", "source": "python"}
    expected = reference.broadcast(data, [2, 3, 4], None, "bidirectional")
    for device in ("CPU", "HETERO:CPU"):
        outcome = backend.run(builders.request(data, (2, 3, 4), mode="bidirectional", path={**path, "device": device}))
        assert outcome.error is None and outcome.output.tobytes() == expected.tobytes()
    compiled = {dict(key[0])["device"]: c for key, c in backend.compiled.items()}
    # the HETERO plugin's compiled model has the properties of its own, the CPU plugin's none of them
    assert "HETERO_NUMBER_OF_SUBMODELS" in [str(p) for p in compiled["HETERO:CPU"].get_property("SUPPORTED_PROPERTIES")]
    assert "HETERO_NUMBER_OF_SUBMODELS" not in [str(p) for p in compiled["CPU"].get_property("SUPPORTED_PROPERTIES")]
    assert list(compiled["HETERO:CPU"].get_property("EXECUTION_DEVICES")) == ["CPU"]


def _expand_model():
    from onnx import TensorProto, helper

    from conformance.backends.onnx_model import IR_VERSION

    graph = helper.make_graph([helper.make_node("Expand", ["x", "s"], ["y"])], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 1]),
                               helper.make_tensor_value_info("s", TensorProto.INT64, [3])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=IR_VERSION)


@needs_onnxruntime
def test_the_provider_reaches_the_session_and_an_absent_one_is_not_applicable():
    backend = OnnxRuntimeBackend()
    session = backend.session(_expand_model(), {"provider": "CPUExecutionProvider"})
    assert session.get_providers() == ["CPUExecutionProvider"]
    backend.add_targets(["NoSuchExecutionProvider"])
    assert "'NoSuchExecutionProvider' is absent here" in backend.targets()["NoSuchExecutionProvider"]
    assert [a.name for a in backend.all_axes()][-1] == "provider"


@needs_ort_openvino
def test_the_openvino_provider_runs_alone_with_the_cpu_fallback_off():
    backend = OnnxRuntimeOpenVINOBackend()
    session = backend.session(_expand_model(), {"provider": OPENVINO_PROVIDER})
    # a lone Expand with a run-time shape is not the provider's: refused, not run by the CPU provider
    assert "fallback to CPU EP has been explicitly disabled" in session.error


def test_onnxruntime_openvino_is_built_in_and_absent_without_its_package():
    backend = load("onnxruntime-openvino")
    assert backend.name == "onnxruntime-openvino" and backend.package == "onnxruntime-openvino"
    assert backend.target_axis().default == OPENVINO_PROVIDER
    if backend.version() is None:
        assert "tox -e conformance-ort-openvino" in backend.unavailable()


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    return builders.project(pytester, monkeypatch, CASES)


@needs_openvino
def test_the_device_option_runs_each_device_and_the_header_lists_them(project):
    result = project.runpytest_subprocess("-p", "conformance.plugin", "-p", "no:cacheprovider", "--generated-examples",
                                          "0", "--results", "out/results.json", "--report", "out/index.html",
                                          "--backend", "openvino", "--path", "opset=3", "--path", "context=alone",
                                          "--device", "HETERO:CPU", "--device", "GPU.9")
    data = json.loads((project.path / "out" / "results.json").read_text())
    verdicts = {c["id"].split("::")[-1]: c["verdict"] for c in data["checks"]}
    assert verdicts["small_numpy[openvino-opset3-const-f32]"] == "pass"
    assert verdicts["small_numpy[openvino-opset3-const-hetero_cpu-f32]"] == "pass"
    assert verdicts["small_numpy[openvino-opset3-const-gpu_9-f32]"] == "not_applicable"
    hetero = next(c for c in data["checks"] if c["path"]["device"] == "HETERO:CPU")
    assert "--device HETERO:CPU" in hetero["rerun"]
    targets = data["backends"]["openvino"]["targets"]
    assert targets["axis"] == "device" and targets["values"]["CPU"] is None and targets["values"]["HETERO:CPU"] is None
    assert "absent here" in targets["values"]["GPU.9"]
    html = (project.path / "out" / "index.html").read_text()
    assert "device: CPU, HETERO:CPU" in html and "GPU.9 absent" in html
    assert result.ret == 0


def test_an_option_no_backend_of_the_run_takes_is_a_usage_error(project):
    result = project.runpytest_subprocess("-p", "conformance.plugin", "--backend", "local", "--device", "AUTO",
                                          "--report", "none")
    assert result.ret != 0
    result.stderr.fnmatch_lines(["*--device AUTO: no backend of this run has a device to choose*"])


def test_the_header_of_a_report_lists_where_each_backend_ran():
    results = Results.from_json({"format": FORMAT, "run": {}, "backends": {"openvino": {
        "version": "1", "available": True, "reason": None,
        "targets": {"axis": "device", "values": {"CPU": None, "AUTO": None, "NPU": "'NPU' is absent here"}}}},
        "cases": {}, "checks": []})
    html = render(results)
    assert "device: CPU, AUTO" in html and "NPU absent" in html
    assert paths.label(load("openvino").all_axes(), (("device", "CPU"),)) == ""
