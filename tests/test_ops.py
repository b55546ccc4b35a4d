"""A new op is a package plus YAML: a toy op (tests/toy_op/) runs through the local backend and the report
without any change to the harness; a backend that does not run it says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance import ops

ROOT = Path(__file__).resolve().parents[1]

TOY_CASES = """\
group: rule
cases:
  - id: tile_twice
    op: tests.toy_op
    data_shape: [2, 3]
    repeats: [2, 1]
    expect: {shape: [4, 3]}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
  - id: tile_wrong_length
    op: tests.toy_op
    data_shape: [2, 3]
    repeats: [2]
    expect: {reject: repeats_length}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
"""


def test_an_op_is_found_by_its_module_path_and_a_missing_one_says_why():
    assert ops.get("tests.toy_op").name == "tests.toy_op"
    with pytest.raises(ops.OpNotFound, match="no_such_op"):
        ops.get("no_such_op")


def test_a_toy_op_runs_through_local_and_the_report(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    (pytester.path / "cases").mkdir()
    (pytester.path / "cases" / "toy.yaml").write_text(TOY_CASES)
    result = pytester.runpytest_subprocess("-p", "conformance.plugin", "-p", "no:cacheprovider",
                                           "--generated-examples", "0", "--backend", "local", "--backend",
                                           "openvino", "--dtype", "f32", "--dtype", "i8",
                                           "--results", "out/results.json", "--report", "out/index.html")
    data = json.loads((pytester.path / "out" / "results.json").read_text())
    verdicts = {c["id"].split("::")[-1]: c["verdict"] for c in data["checks"]}
    assert verdicts == {"tile_twice[local-tile-f32]": "pass", "tile_twice[local-tile-i8]": "pass",
                        "tile_wrong_length[local-tile-f32]": "pass",
                        "tile_twice[openvino]": "not_applicable", "tile_wrong_length[openvino]": "not_applicable"}
    assert data["cases"]["tile_twice"]["op"] == "tests.toy_op"
    assert data["cases"]["tile_twice"]["params"] == {"data_shape": [2, 3], "repeats": [2, 1]}
    result.assert_outcomes(passed=2, skipped=2)
    page = (pytester.path / "out" / "index.html").read_text()
    assert "tile_twice" in page and "repeats" in page


def test_a_toy_op_case_is_checked_against_its_own_reference(tmp_path):
    from conformance.cases import CaseFileError, load_file

    path = tmp_path / "cases" / "toy.yaml"
    path.parent.mkdir()
    path.write_text(TOY_CASES.replace("expect: {shape: [4, 3]}", "expect: {shape: [4, 4]}"))
    with pytest.raises(CaseFileError, match=r"toy.yaml:3: .*expect.shape=\[4, 4\], but the reference gives \[4, 3\]"):
        load_file(path, tmp_path)
    path.write_text(TOY_CASES.replace("repeats: [2, 1]", "repeats: [2, 1]\n    colour: blue"))
    with pytest.raises(CaseFileError, match="colour"):
        load_file(path, tmp_path)
