"""The case files: the real ones under cases/ load, cover the spec and agree with the reference; broken ones
written to tmp_path are refused with their file, line and a message that says what is wrong."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import reference
from conformance import ops
from conformance.cases import Case, CaseFileError, load_all
from conformance.cases.schema import SCHEMA_PATH, editor_schema_text
from conformance.run.plan import DEFAULT_BUDGET, nominal_bytes

CASES_DIR = Path(__file__).resolve().parents[1] / "cases"
LOADED, ERRORS = load_all(CASES_DIR)
CASES: list[Case] = [case for cases in LOADED.values() for case in cases]
BROADCAST_CASES = [case for case in CASES if case.op == "broadcast"]  # elementwise: tests/test_elementwise.py
SPEC_FILES = {"000_ece0cbba5cb063a0.txt", "001_3e6cf45f37fe0ec2.txt", "002_2059dcf659ca5970.txt",
              "003_38ca088f58e9a6c7.txt", "004_f535a019e64b3d53.txt"}


def _where(case: Case) -> str:
    return f"{case.file}:{case.line} {case.id}: {case.summary()}"


def _expected(case: Case) -> str:
    return f"reject {case.expect_reject}" if case.expect_reject else f"shape {list(case.expect_shape or ())}"


def _by_id(cases: list[Case]) -> list[pytest.ParameterSet]:
    return [pytest.param(case, id=case.id) for case in cases]


# --- the real case files ---------------------------------------------------------------------------------


def test_case_files_load_without_errors() -> None:
    assert not ERRORS, "\n".join(str(e) for e in ERRORS.values())


def test_case_ids_are_unique() -> None:
    twice = sorted(i for i, n in Counter(case.id for case in CASES).items() if n > 1)
    assert not twice, f"ids={twice}, but should be unique"


def test_at_least_80_cases() -> None:
    assert len(CASES) >= 80, f"len(cases)={len(CASES)}, but should be at least 80"


# (label, version that must run it, mode, data_shape, target_shape, axes_mapping, expected shape or rule)
DOCUMENTED_EXAMPLES = [
    ("broadcast1_numpy", 1, "numpy", [16, 1, 1], [1, 16, 50, 50], None, [1, 16, 50, 50]),
    ("broadcast1_explicit_c", 1, "explicit", [16], [1, 16, 50, 50], [1], [1, 16, 50, 50]),
    ("broadcast1_explicit_hw", 1, "explicit", [50, 50], [1, 50, 50, 16], [1, 2], [1, 50, 50, 16]),
    ("broadcast3_numpy", 3, "numpy", [16, 1, 1], [1, 16, 50, 50], None, [1, 16, 50, 50]),
    ("broadcast3_explicit_c", 3, "explicit", [16], [1, 16, 50, 50], [1], [1, 16, 50, 50]),
    ("broadcast3_explicit_hw", 3, "explicit", [50, 50], [1, 50, 50, 16], [1, 2], [1, 50, 50, 16]),
    ("broadcast3_bidirectional", 3, "bidirectional", [16, 1, 1], [1, 1, 50, 50], None, [1, 16, 50, 50]),
    ("rules_1", 3, "bidirectional", [], [], None, []),
    ("rules_2", 3, "bidirectional", [2, 3], [1], None, [2, 3]),
    ("rules_3", 3, "bidirectional", [3], [2, 3], None, [2, 3]),
    ("rules_4", 3, "bidirectional", [2, 3, 5], [], None, [2, 3, 5]),
    ("rules_5", 3, "bidirectional", [2, 1, 5], [1, 4, 5], None, [2, 4, 5]),
    ("rules_6", 3, "bidirectional", [6, 5], [2, 1, 5], None, [2, 6, 5]),
    ("rules_7", 3, "bidirectional", [2, 1, 5], [4, 1], None, [2, 4, 5]),
    ("rules_8", 3, "bidirectional", [3, 2, 1, 4], [5, 4], None, [3, 2, 5, 4]),
    ("rules_9", 3, "bidirectional", [1, 5, 3], [5, 2, 1, 3], None, [5, 2, 5, 3]),
    ("rules_10", 3, "bidirectional", [3], [2], None, "bidirectional_dim"),
    ("rules_11", 3, "bidirectional", [3, 1, 5], [4, 4, 5], None, "bidirectional_dim"),
    ("ngraph_axis_set_0", 0, "explicit", [3], [2, 3], [1], [2, 3]),
    ("ngraph_axis_set_1", 0, "explicit", [3], [3, 2], [0], [3, 2]),
]


@pytest.mark.parametrize(("version", "mode", "data_shape", "target_shape", "axes_mapping", "expect"),
                         [pytest.param(*row[1:], id=row[0]) for row in DOCUMENTED_EXAMPLES])
def test_documented_example_is_a_case(version: int, mode: str, data_shape: list[int],
                                      target_shape: list[int], axes_mapping: list[int] | None,
                                      expect: list[int] | str) -> None:
    wanted = f"reject {expect}" if isinstance(expect, str) else f"shape {expect}"
    found = [case.id for case in BROADCAST_CASES
             if case.group == "spec_example" and version in case.params.versions and case.params.mode == mode
             and list(case.params.data_shape) == data_shape and case.params.target_shape == target_shape
             and case.params.axes_mapping == axes_mapping and _expected(case) == wanted]
    assert found, (f"spec_example cases={found}, but should hold one for version {version}: {mode}, "
                   f"data {data_shape}, target_shape {target_shape}, axes_mapping {axes_mapping} -> {wanted}")


RULES = [r for r in ops.get("broadcast").rules
         # The schema's mode enum already refuses an unknown mode, so no case file can state one; nGraph
         # Broadcast's own rules (v0_*) are never the one a case breaks: v0 runs valid explicit cases only.
         if r != "unknown_mode" and not r.startswith("v0_")]


def test_the_committed_schema_is_the_one_the_code_makes() -> None:
    """case.schema.json is written from the code's lists (python3 -m conformance schema): editors read the file,
    the loader validates with the same definitions."""
    assert SCHEMA_PATH.read_text(encoding="utf-8") == editor_schema_text(), \
        "conformance/cases/case.schema.json is out of date: run python3 -m conformance schema"


def test_the_schema_enums_are_the_code_lists() -> None:
    from conformance.cases.schema import FILE_GROUPS
    from conformance.data import DTYPES

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    case = schema["$defs"]["case_broadcast"]["properties"]
    assert schema["$defs"]["dtype"]["enum"] == list(DTYPES)
    assert schema["properties"]["group"]["enum"] == list(FILE_GROUPS)
    assert case["mode"]["enum"] == list(reference.MODES)
    assert case["expect"]["oneOf"][1]["properties"]["reject"]["enum"] == list(reference.RULES)


@pytest.mark.parametrize("rule", RULES)
def test_every_rule_has_a_rejecting_case(rule: str) -> None:
    rejecting = [case.id for case in CASES if case.expect_reject == rule]
    assert rejecting, f"cases rejecting by {rule}={rejecting}, but should be at least one"


def test_interpretation_cases_state_their_reading() -> None:
    silent = [case.id for case in CASES if case.group == "interpretation" and not case.interpretation]
    assert not silent, f"cases without interpretation={silent}, but group interpretation needs one"


@pytest.mark.parametrize("case", _by_id(CASES))
def test_spec_ref_names_a_spec_file(case: Case) -> None:
    name = case.spec_ref.split("#")[0]
    assert name in SPEC_FILES, (f"spec_ref file={name}, but should be one of {sorted(SPEC_FILES)} "
                                f"[{_where(case)}]")


@pytest.mark.parametrize("case", _by_id(BROADCAST_CASES))
def test_reference_agrees_with_expect(case: Case) -> None:
    try:
        p = case.params
        shape = reference.output_shape(p.data_shape, p.target_shape, p.axes_mapping, p.mode)
    except reference.BroadcastRuleError as e:
        got = f"reject {e.rule}"
    else:
        got = f"shape {list(shape)}"
    assert got == _expected(case), f"reference={got}, but should be {_expected(case)} [{_where(case)}]"


@pytest.mark.parametrize("case", _by_id([case for case in BROADCAST_CASES if 0 in case.params.versions]))
def test_v0_case_is_ngraph_broadcast(case: Case) -> None:
    """nGraph broadcast_axes are the output axes axes_mapping leaves out; both must build the same tensor."""
    if nominal_bytes(case.expect_shape, "i64") > DEFAULT_BUDGET:
        pytest.skip("too large for numpy to hold (a 0 dimension counts as 1); the suite checks it shape-only")
    broadcast_axes = [a for a in range(len(case.params.target_shape)) if a not in case.params.axes_mapping]
    data = np.arange(int(np.prod(case.params.data_shape)), dtype=np.int64).reshape(case.params.data_shape)
    v0 = reference.broadcast_v0(data, case.params.target_shape, broadcast_axes)
    explicit = reference.broadcast_explicit(data, case.params.target_shape, case.params.axes_mapping)
    assert v0.shape == case.expect_shape, (f"v0 shape={v0.shape}, but should be {_expected(case)} "
                                           f"[{_where(case)}]")
    assert np.array_equal(v0, explicit), (f"v0 values={v0.tolist()}, but should be {explicit.tolist()} "
                                          f"[{_where(case)}]")


# --- the loader, on broken files -------------------------------------------------------------------------

GOOD = """\
group: rule
cases:
  - id: {id}
    mode: numpy
    data_shape: [3]
    target_shape: [2, 3]
    expect: {{shape: [2, 3]}}
    spec_ref: "003_38ca088f58e9a6c7.txt#Rules"
"""


def _good(case_id: str, *replacements: tuple[str, str]) -> str:
    """GOOD with one case named case_id, after each (old, new) replacement, each of which must apply."""
    text = GOOD.format(id=case_id)
    for old, new in replacements:
        assert old in text, f"{old!r} not in the fixture"
        text = text.replace(old, new)
    return text


def _cases_dir(tmp_path: Path, files: dict[str, str | bytes]) -> Path:
    cases_dir = tmp_path / "cases"
    cases_dir.mkdir(parents=True)
    for name, content in files.items():
        path = cases_dir / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return cases_dir


def _only_error(tmp_path: Path, content: str | bytes) -> CaseFileError:
    loaded, errors = load_all(_cases_dir(tmp_path, {"bad.yaml": content}))
    assert not loaded, f"loaded={list(loaded)}, but should be nothing"
    assert len(errors) == 1, f"errors={list(errors.values())}, but should be one"
    return next(iter(errors.values()))


BROKEN_FILES = [
    pytest.param("group: rule\ncases:\n  - id: a\n    mode: numpy: x\n", 4, "mapping values are not allowed",
                 id="yaml_syntax"),
    # jsonschema reports an unexpected key on the mapping that holds it, so the line is the case's first line.
    pytest.param(_good("a", ("    expect:", "    colour: red\n    expect:")), 3, "'colour' was unexpected",
                 id="unknown_key"),
    pytest.param(_good("a", ("mode: numpy", "mode: numpyy")), 4, "cases/0/mode: 'numpyy' is not one of",
                 id="wrong_mode"),
    pytest.param(_good("Bad-Id"), 3, "cases/0/id: 'Bad-Id' does not match", id="bad_id_pattern"),
    pytest.param(_good("a", ("group: rule", "group: rules")), 1, "group: 'rules' is not one of",
                 id="wrong_group"),
    pytest.param(_good("a", ('    spec_ref: "003_38ca088f58e9a6c7.txt#Rules"\n', "")), 3,
                 "cases/0: 'spec_ref' is a required property", id="missing_field"),
    pytest.param("- a\n- b\n", 1, "top level: ['a', 'b'] is not of type 'object'", id="not_a_mapping"),
    pytest.param(_good("a", ("    mode: numpy\n", "    mode: numpy\n    mode: explicit\n")), 5,
                 "key 'mode' given twice", id="duplicate_key"),
    pytest.param(_good("wrong_shape", ("{shape: [2, 3]}", "{shape: [3, 3]}")), 3,
                 "case wrong_shape: expect.shape=[3, 3], but the reference gives [2, 3]",
                 id="expect_wrong_shape"),
    pytest.param(_good("wrong_rule", ("{shape: [2, 3]}", "{reject: numpy_rank}")), 3,
                 "case wrong_rule: expect.reject=numpy_rank, but the reference accepts it",
                 id="expect_wrong_reject"),
    pytest.param(_good("other_rule", ("target_shape: [2, 3]", "target_shape: [2, 4]"),
                       ("{shape: [2, 3]}", "{reject: numpy_rank}")), 3,
                 "case other_rule: expect.reject=numpy_rank, but the reference rejects for rule numpy_dim",
                 id="expect_other_rule"),
    pytest.param("", 1, "empty file", id="empty"),
    pytest.param("# only a comment\n", 1, "empty file", id="only_comment"),
    pytest.param(b"\xff\xfe\x00\x81\x9cgarbage", 1, "not UTF-8 text (invalid start byte at byte 0)",
                 id="binary_garbage"),
    pytest.param(b"\x00\x01\x02\x03", 1, "unacceptable character #x0000", id="control_characters"),
]


@pytest.mark.parametrize(("content", "line", "fragment"), BROKEN_FILES)
def test_broken_file_names_file_line_and_problem(tmp_path: Path, content: str | bytes, line: int | None,
                                                 fragment: str) -> None:
    error = _only_error(tmp_path, content)
    assert (error.file, error.line) == ("cases/bad.yaml", line), \
        f"error at {error.file}:{error.line}, but should be at cases/bad.yaml:{line} [{error}]"
    assert fragment in error.message, f"error.message={error.message!r}, but should contain {fragment!r}"


def test_python_tag_is_refused_and_not_run(tmp_path: Path) -> None:
    marker = tmp_path / "executed"
    error = _only_error(tmp_path, _good("evil", (
        "target_shape: [2, 3]", f'target_shape: !!python/object/apply:os.system ["touch {marker}"]')))
    assert not marker.exists(), "the YAML tag ran a command, but should never be constructed"
    assert (error.file, error.line) == ("cases/bad.yaml", 6), f"error at {error.file}:{error.line} [{error}]"
    assert "could not determine a constructor for the tag" in error.message, error.message


def test_duplicate_id_across_files_names_both_and_keeps_the_first(tmp_path: Path) -> None:
    second = _good("other") + _good("shared").split("cases:\n", 1)[1]  # "shared" starts at line 9
    cases_dir = _cases_dir(tmp_path, {"a.yaml": _good("shared"), "b.yaml": second})
    loaded, errors = load_all(cases_dir)
    assert [c.id for c in loaded[cases_dir / "a.yaml"]] == ["shared"], f"loaded={loaded}"
    assert cases_dir / "b.yaml" not in loaded, "b.yaml loaded, but should be refused"
    error = errors[cases_dir / "b.yaml"]
    assert (error.file, error.line) == ("cases/b.yaml", 9), f"error at {error.file}:{error.line} [{error}]"
    assert "duplicate case id 'shared': first defined at cases/a.yaml:3" in error.message, error.message


def test_duplicate_id_in_one_file_names_both_lines(tmp_path: Path) -> None:
    error = _only_error(tmp_path, _good("twice") + _good("twice").split("cases:\n", 1)[1])
    assert (error.file, error.line) == ("cases/bad.yaml", 9), f"error at {error.file}:{error.line} [{error}]"
    assert "duplicate case id 'twice': first defined at cases/bad.yaml:3" in error.message, error.message


def test_bom_prefixed_file_loads_like_the_plain_one(tmp_path: Path) -> None:
    text = _good("bom")
    plain, plain_errors = load_all(_cases_dir(tmp_path / "plain", {"a.yaml": text}))
    bom, bom_errors = load_all(_cases_dir(tmp_path / "bom", {"a.yaml": b"\xef\xbb\xbf" + text.encode()}))
    assert not plain_errors and not bom_errors, f"errors={plain_errors | bom_errors}, but should be none"
    [plain_cases], [bom_cases] = plain.values(), bom.values()
    assert bom_cases == plain_cases, f"cases={bom_cases}, but should be {plain_cases}"
    assert (bom_cases[0].line, bom_cases[0].params.versions) == (3, (1, 3)), f"case={bom_cases[0]}"


def test_the_readmes_case_file_example_loads(tmp_path):
    """README's "Adding a case" YAML is a case file the loader takes, both of its cases checked by their reference."""
    block = re.search(r"```yaml\n(.*?)```", (CASES_DIR.parent / "README.md").read_text(encoding="utf-8"), re.S)
    assert block is not None
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "readme.yaml").write_text(block.group(1), encoding="utf-8")
    loaded, errors = load_all(tmp_path / "cases", tmp_path)
    assert not errors and [c.op for cases in loaded.values() for c in cases] == ["broadcast", "elementwise"]
