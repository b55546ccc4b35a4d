"""The results records (conformance/results/record.py) and their JSON Schema: one layout for the run that writes
a results file, the report that reads it and the tests that fake it; files of format /1 read into the same
records and compare with files of format /2 by check key."""

from __future__ import annotations

import copy
import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import sample_results as sample

from conformance import report
from conformance.__main__ import main
from conformance.results import files, record
from conformance.results.record import FORMAT, FORMAT_1, CaseRecord, CheckRecord, Results
from conformance.verdicts import VERDICTS

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "conformance" / "results" / "results.schema.json").read_text(encoding="utf-8"))
BASELINE = Path("/tmp/baseline-results.json")  # a full run before the redesign, where one is at hand


def validate(document: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(SCHEMA).validate(document)


def _skeleton(value: Any, key: str = "") -> Any:
    """A value's structure: its leaves' types (the values of enums kept), a list's distinct item skeletons."""
    if isinstance(value, dict):
        return {k: _skeleton(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return sorted({json.dumps(_skeleton(v)) for v in value})
    return value if key in ("verdict", "model", "stage", "format") else type(value).__name__


def validate_by_structure(document: dict[str, Any]) -> None:
    """validate(), on one check and one case of each structure: the same verdict for a full run's 31,000 checks
    in a second instead of 40."""
    def one_of_each(items: list[Any]) -> list[Any]:
        return list({json.dumps(_skeleton(x), sort_keys=True): x for x in items}.values())

    validate({**document, "checks": one_of_each(document["checks"]),
              "cases": dict(one_of_each(list(document["cases"].items())))})


def _defs(name: str) -> dict[str, Any]:
    return SCHEMA["$defs"][name]


def _object_of(schema: dict[str, Any]) -> dict[str, Any]:
    return next(s for s in schema["oneOf"] if s.get("type") == "object" and "reject" not in s.get("required", []))


# The schema and the code say the same


def test_schema_enums_are_the_codes_lists():
    check = _defs("check")["properties"]
    assert check["verdict"]["enum"] == list(VERDICTS)
    assert check["model"]["enum"] == [None, *record.MODELS]
    assert _object_of(check["actual"])["properties"]["stage"]["enum"] == [None, *record.STAGES]
    assert SCHEMA["properties"]["format"]["const"] == FORMAT == SCHEMA["$id"]


@pytest.mark.parametrize(("definition", "cls"), [
    ("check", CheckRecord), ("case", CaseRecord), ("run", record.RunInfo), ("backend", record.BackendInfo)])
def test_schema_has_every_field_of_the_records(definition, cls):
    names = [f.name for f in dataclasses.fields(cls)]
    assert set(_defs(definition)["properties"]) == set(names)
    optional = ({"hardware", "name", "targets"} if cls is record.BackendInfo
                else {"command", "part"} if cls is record.RunInfo else {"looks_like"} if cls is CheckRecord else set())
    assert set(_defs(definition)["required"]) == set(names) - optional


@pytest.mark.parametrize(("key", "cls"), [("actual", record.Actual), ("first_diff", record.FirstDiff)])
def test_schema_has_every_field_of_the_parts_of_a_check(key, cls):
    assert set(_object_of(_defs("check")["properties"][key])["properties"]) == {
        f.name for f in dataclasses.fields(cls)}


def test_top_level_keys_are_the_results():
    assert set(SCHEMA["properties"]) == {f.name for f in dataclasses.fields(Results)}


# Building records


def test_a_check_needs_only_its_id_case_and_backend():
    check = CheckRecord(id="cases/a.yaml::c1[local-v3-f32]", case="c1", backend="local")
    assert (check.op, check.verdict, check.path, check.expected, check.model) == ("broadcast", "pass", {}, None, None)
    assert check.key == "c1[local-v3-f32]" and check.column == "local"
    assert CheckRecord(id="x::c[b]", case="c", backend="b", backend_version="1.0").column == "b@1.0"
    validate(Results(checks=[check]).to_json())


def test_parts_are_given_as_records_or_as_json():
    as_json = CheckRecord(id="a::c[b]", case="c", backend="b", expected={"shape": [2], "dtype": "f32"},
                          actual={"shape": [2], "dtype": "f32"}, first_diff={"index": [1], "expected": "1",
                                                                             "actual": "0"})
    as_records = CheckRecord(id="a::c[b]", case="c", backend="b", expected=record.Expected([2], "f32"),
                             actual=record.Actual([2], "f32"),
                             first_diff=record.FirstDiff([1], "1", "0"))
    assert as_json == as_records
    assert as_json.to_json()["expected"] == {"shape": [2], "dtype": "f32"}
    assert CheckRecord(id="a", case="c", backend="b", expected={"reject": "numpy_rank"}).to_json()["expected"] == {
        "reject": "numpy_rank"}


def test_the_key_is_the_ids_last_segment_whatever_its_prefix():
    old = "conformance/test_conformance.py::numpy_rules.yaml::np_identity[openvino-opset1-const-f32]"
    new = "cases/numpy_rules.yaml::np_identity[openvino-opset1-const-f32]"
    assert record.key_of(old) == record.key_of(new) == "np_identity[openvino-opset1-const-f32]"
    assert record.key_of("cases/a.yaml::c[local-v3-f32-shape_i8]") == "c[local-v3-f32-shape_i8]"
    assert record.key_of("conformance/test_conformance.py::generated::generated_local") == "generated_local"


@pytest.mark.parametrize("document", [sample.older_run, sample.main_run, sample.merged, sample.with_upstream])
def test_sample_documents_are_valid_and_round_trip(document):
    data = document()
    validate(data)
    assert Results.from_json(data).to_json() == data


# Format /1


def as_format_1(document: dict[str, Any]) -> dict[str, Any]:
    """A /2 document as a run before the redesign wrote it: flat case params, no op or path, ids of the old
    prefix, no rule in actual."""
    old = copy.deepcopy(document)
    old["format"] = FORMAT_1
    for case in old["cases"].values():
        del case["op"]
        case.update(case.pop("params"))
    for check in old["checks"]:
        del check["op"], check["path"]
        check["id"] = "conformance/test_conformance.py::" + check["id"].replace("cases/", "", 1)
        if check["actual"]:
            del check["actual"]["rule"]
    return old


@pytest.mark.parametrize(("backend", "label", "path"), [
    ("openvino", "opset1-const", {"opset": "1", "target_shape": "Constant"}),
    ("openvino", "opset3-param", {"opset": "3", "target_shape": "Parameter"}),
    ("openvino-onnx", "opset8-init", {"opset": "8", "shape": "initializer"}),
    ("onnxruntime", "opset13-input", {"opset": "13", "shape": "input"}),
    ("onnx-reference", "opset8-input", {"opset": "8", "shape": "input"}),
    ("local", "v1", {"op": "v1"}), ("local", "expand", {"op": "expand"}),
    ("openvino", "", {}), ("onnxruntime", "", {}), ("someone-elses", "fast", {})])
def test_format_1_paths_from_the_variant_label(backend, label, path):
    assert record.path_from_v1_label(backend, label) == path


def test_a_format_1_document_reads_into_the_same_records():
    new = sample.main_run()
    old = Results.from_json(as_format_1(new))
    assert old.format == FORMAT_1
    assert old.cases == Results.from_json(new).cases  # op broadcast, params from the flat keys
    for before, now in zip(old.checks, Results.from_json(new).checks, strict=True):
        assert before.key == now.key and before.id != now.id
        assert dataclasses.replace(before, id=now.id) == now
    validate(old.to_json())  # written again, it is of format /2


@pytest.mark.skipif(not BASELINE.exists(), reason=f"{BASELINE} (a full run of format /1) is not here")
def test_a_full_format_1_run_converts_to_a_valid_format_2_document():
    data = json.loads(BASELINE.read_text(encoding="utf-8"))
    assert data["format"] == FORMAT_1
    loaded = files.load(BASELINE)
    converted = loaded.to_json()
    validate_by_structure(converted)
    assert len(converted["checks"]) == len(data["checks"])
    assert len({(c.key, c.column) for c in loaded.checks}) == len(data["checks"])  # keys tell every check apart
    assert {c["variant"] for c in converted["checks"] if not c["path"]} == {""}  # every label was read


def test_a_format_1_stream_reads_too(tmp_path):
    old = as_format_1(sample.main_run())
    lines = [{"header": {"run": old["run"], "backends": old["backends"]}}]  # no format: before the redesign
    lines += [{"case": k, "data": v} for k, v in old["cases"].items()] + [{"check": c} for c in old["checks"]]
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines) + '{"check": {"id": "torn', encoding="utf-8")
    read = files.load(path)
    assert read.format == FORMAT_1 and not read.run.complete
    assert [c.key for c in read.checks] == [c.key for c in Results.from_json(sample.main_run()).checks]


# Comparing and merging across formats


def test_merge_and_compare_match_checks_by_key_across_formats():
    new = Results.from_json(sample.main_run())
    old = Results.from_json(as_format_1(sample.main_run()))
    assert report.change_counts(new, old) == dict.fromkeys(report.change_counts(new, new), 0)
    merged = files.merge([old, new])
    assert len(merged.checks) == len(new.checks)  # the later file's check replaced the earlier one's
    assert all(c.id.startswith("cases/") for c in merged.checks)
    before = as_format_1(sample.main_run())
    flipped = next(c for c in before["checks"] if c["verdict"] == "crash")
    flipped["verdict"] = "pass"
    assert report.change_counts(new, Results.from_json(before))["new_failures"] == 1


def _not_installed(data: dict, backend: str) -> dict:
    """``data`` as a run where ``backend``'s package was not installed: its checks skipped, under its bare name."""
    out = copy.deepcopy(data)
    out["backends"][backend] = {"version": None, "available": False, "reason": "package 'x' is not installed",
                                "hardware": [], "targets": None}
    for c in out["checks"]:
        if c["backend"] == backend:
            c.update(backend_version=None, verdict="skipped", message="package 'x' is not installed")
    return out


def test_a_backend_skipped_in_the_default_run_is_shown_by_the_run_where_it_was_installed():
    data = sample.main_run()
    backend = next(c["backend"] for c in data["checks"] if c["backend_version"])
    extra = copy.deepcopy(data)
    extra["checks"] = [c for c in extra["checks"] if c["backend"] == backend]
    extra["backends"] = {backend: extra["backends"][backend]}
    for order in ([_not_installed(data, backend), extra], [extra, _not_installed(data, backend)]):
        merged = files.merge(Results.from_json(r) for r in order)
        assert len(merged.checks) == len(data["checks"])
        assert {c.column for c in merged.checks if c.backend == backend} == {
            f"{backend}@{c['backend_version']}" for c in extra["checks"]}
        assert backend not in merged.backends  # no second, empty column
    # the entries a run lists as meeting no check: of the backend, those of the run where it ran speak for it
    skipped, ran = _not_installed(data, backend), copy.deepcopy(extra)
    skipped["known_on_other_paths"] = [{"backend": backend, "entry": "e1"}, {"backend": backend, "entry": "e2"}]
    ran["known_on_other_paths"] = [{"backend": backend, "entry": "e2"}]
    merged = files.merge([Results.from_json(skipped), Results.from_json(ran)])
    assert merged.known_on_other_paths == [{"backend": backend, "entry": "e2"}]
    alone = files.merge([Results.from_json(skipped)])  # installed nowhere: its reason and its entries stay
    assert len(alone.known_on_other_paths) == 2
    assert backend in alone.backends and {c.verdict for c in alone.checks if c.backend == backend} == {"skipped"}


def test_the_cli_reports_and_compares_a_format_1_and_a_format_2_file(tmp_path, capsys):
    old, new, out = tmp_path / "old.json", tmp_path / "new.json", tmp_path / "index.html"
    before = as_format_1(sample.main_run())
    next(c for c in before["checks"] if c["verdict"] == "crash")["verdict"] = "pass"
    old.write_text(json.dumps(before), encoding="utf-8")
    files.save(new, sample.main_run())
    assert main(["report", str(old), str(new), "-o", str(out), "--compare", str(old)]) == 0
    printed = capsys.readouterr().out
    assert "1 new failures, 0 fixes, 0 changed, 0 added, 0 removed" in printed
    assert 'id="changes"' in out.read_text(encoding="utf-8")
    assert main(["report", str(old), "-o", str(out)]) == 0  # a /1 file alone
    assert "opset 3, target_shape Parameter" in out.read_text(encoding="utf-8")  # its paths, from the labels


def test_save_writes_format_2_whatever_it_is_given(tmp_path):
    path = tmp_path / "r.json"
    files.save(path, as_format_1(sample.main_run()))
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written["format"] == FORMAT
    validate(written)


# A real run


@pytest.fixture(scope="module")
def real_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("run") / "r.json"
    done = subprocess.run([sys.executable, "-m", "pytest", "conformance", "--backend", "local", "--mode",
                           "bidirectional", "--results", str(out), "--report", "none", "-q", "-p", "no:randomly",
                           "-p", "no:cacheprovider"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.exists(), done.stdout[-3000:] + done.stderr[-3000:]
    return out


def test_a_real_run_writes_a_valid_document(real_run):
    data = json.loads(real_run.read_text(encoding="utf-8"))
    validate(data)
    assert data["checks"] and Results.from_json(data).to_json() == data
    assert all(c["path"] for c in data["checks"] if c["variant"])


def test_a_real_runs_stream_reads_as_its_document(real_run):
    streamed = files.load(real_run.with_suffix(".jsonl"))
    written = files.load(real_run)
    assert streamed.checks == written.checks and streamed.cases == written.cases
    validate(streamed.to_json())


def test_the_report_ranks_every_verdict():
    from conformance.report.tally import SEVERITY

    assert sorted(SEVERITY) == sorted(VERDICTS)  # a verdict it does not rank would show as "?", worst
