"""Hostile and broken case files: each gives one clear error naming its file and line, none stops the others,
and no YAML tag constructs an object."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.cases import CaseFileError, load_all

GOOD_CASE = """\
  - id: {id}
    mode: numpy
    data_shape: [3]
    target_shape: [2, 3]
    expect: {{shape: [2, 3]}}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
"""


def good(case_id: str = "fine") -> str:
    return "group: rule\ncases:\n" + GOOD_CASE.format(id=case_id)


def with_line(old: str, new: str) -> str:
    text = good()
    assert old in text
    return text.replace(old, new)


BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(8))

# (fixture id, content, expected line, message fragment)
MALFORMED = [
    ("unclosed_bracket", with_line("target_shape: [2, 3]", "target_shape: [2, 3"), 7, "expected ',' or ']'"),
    ("bad_indent", with_line("    mode: numpy", "      mode: numpy\n   bad: indent"), 4, "YAML error: mapping values"),
    ("tab_indent", with_line("    mode: numpy", "\tmode: numpy"), 4, "YAML error"),
    ("shape_as_string", with_line("data_shape: [3]", 'data_shape: "3x4"'), 5, "'3x4' is not of type 'array'"),
    ("dim_as_string", with_line("target_shape: [2, 3]", 'target_shape: [2, "a"]'), 6, "cases/0/target_shape"),
    ("unknown_case_key", good() + "    colour: blue\n", 3, "'colour' was unexpected"),
    ("unknown_top_key", "owner: me\n" + good(), 1, "'owner' was unexpected"),
    ("missing_expect", with_line("    expect: {shape: [2, 3]}\n", ""), 3, "'expect' is a required property"),
    ("missing_cases", "group: rule\n", 1, "'cases' is a required property"),
    ("empty_cases", "group: rule\ncases: []\n", 2, "should be non-empty"),
    ("duplicate_id_in_file", good("twice") + GOOD_CASE.format(id="twice"), 9, "duplicate case id 'twice'"),
    ("negative_dim", with_line("data_shape: [3]", "data_shape: [-3]"), 5, "-3 is less than the minimum of 0"),
    ("fractional_dim", with_line("data_shape: [3]", "data_shape: [2.5]"), 5, "2.5 is not of type 'integer'"),
    ("bool_dim", with_line("data_shape: [3]", "data_shape: [true]"), 5, "True is not of type 'integer'"),
    ("enormous_dim", with_line("data_shape: [3]", f"data_shape: [{2**70}]"), 5, "is greater than the maximum"),
    ("unknown_mode", with_line("mode: numpy", "mode: sideways"), 4, "'sideways' is not one of"),
    ("axes_in_numpy_mode", with_line("mode: numpy", "mode: numpy\n    axes_mapping: [1]"), 3,
     "expect.shape=[2, 3], but the reference rejects it"),
    ("bad_id", good("Not-An-Id"), 3, "does not match '^[a-z0-9_]+$'"),
    ("both_expectations", with_line("{shape: [2, 3]}", "{shape: [2, 3], reject: numpy_dim}"), 7,
     "cases/0/expect"),
    ("python_object_apply", "group: !!python/object/apply:os.system ['touch {marker}']\ncases: []\n", 1,
     "could not determine a constructor for the tag"),
    ("python_name", "group: rule\ncases: !!python/name:os.system\n", 2, "could not determine a constructor"),
    ("custom_tag", with_line("mode: numpy", "mode: !shout numpy"), 4, "could not determine a constructor"),
    ("duplicate_key", with_line("mode: numpy", "mode: numpy\n    mode: explicit"), 5, "key 'mode' given twice"),
    ("two_documents", good() + "---\n" + good(), 9, "but found another document"),
    ("empty", "", 1, "empty file"),
    ("binary_garbage", b"group: rule\n\xff\xfe\x00\x81garbage", 2, "not UTF-8 text"),
    ("nul_bytes", "group: rule\ncases:\x00\n", 2, "unacceptable character #x0000"),
    ("ten_megabytes", "# " + "x" * 10_000_000 + "\n" + good(), 1, "file is 10.0 MB"),
    ("deep_nesting", "group: rule\ncases: " + "[" * 200 + "]" * 200 + "\n", 2, "nesting deeper than 32"),
    ("alias_bomb", BOMB + good(), 6, "aliases are expanded (an alias bomb?)"),
]


@pytest.mark.parametrize(("content", "line", "fragment"), [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED])
def test_each_malformed_file_gives_one_clear_error(tmp_path: Path, content: str | bytes, line: int,
                                                   fragment: str) -> None:
    marker = tmp_path / "executed"
    cases = tmp_path / "cases"
    cases.mkdir()
    bad = cases / "bad.yaml"
    if isinstance(content, str):
        bad.write_text(content.replace("{marker}", str(marker)), encoding="utf-8")
    else:
        bad.write_bytes(content)
    loaded, errors = load_all(cases, tmp_path)
    assert list(errors) == [bad] and loaded == {}
    error = errors[bad]
    assert isinstance(error, CaseFileError)
    assert (error.file, error.line) == ("cases/bad.yaml", line), str(error)
    assert fragment in error.message, str(error)
    assert str(error).startswith(f"cases/bad.yaml:{line}: ")
    assert not marker.exists()


def test_none_of_them_stops_the_good_files(tmp_path: Path) -> None:
    cases = tmp_path / "cases"
    cases.mkdir()
    for name, content, _, _ in MALFORMED:
        path = cases / f"{name}.yaml"
        if isinstance(content, str):
            path.write_text(content.replace("{marker}", str(tmp_path / "executed")), encoding="utf-8")
        else:
            path.write_bytes(content)
    (cases / "zz_good.yaml").write_text(good("the_good_one"), encoding="utf-8")
    loaded, errors = load_all(cases, tmp_path)
    assert [c.id for cs in loaded.values() for c in cs] == ["the_good_one"]
    assert len(errors) == len(MALFORMED) >= 25
    assert not (tmp_path / "executed").exists()


def test_a_duplicate_id_across_files_names_both_places(tmp_path: Path) -> None:
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "a.yaml").write_text(good("same"), encoding="utf-8")
    (cases / "b.yaml").write_text(good("same"), encoding="utf-8")
    loaded, errors = load_all(cases, tmp_path)
    assert list(loaded) == [cases / "a.yaml"]
    assert str(errors[cases / "b.yaml"]) == ("cases/b.yaml:3: duplicate case id 'same': first defined at "
                                             "cases/a.yaml:3")


def test_a_bom_and_aliases_within_bounds_are_fine(tmp_path: Path) -> None:
    cases = tmp_path / "cases"
    cases.mkdir()
    text = good().replace('spec_ref: "003_38ca088f58e9a6c7.txt#Examples"', "spec_ref: &ref 003_38ca088f58e9a6c7.txt")
    text += GOOD_CASE.format(id="second").replace('"003_38ca088f58e9a6c7.txt#Examples"', "*ref")
    (cases / "bom.yaml").write_bytes(b"\xef\xbb\xbf" + text.encode())
    loaded, errors = load_all(cases, tmp_path)
    assert not errors and [c.spec_ref for c in loaded[cases / "bom.yaml"]] == ["003_38ca088f58e9a6c7.txt"] * 2


def test_a_complex_key_is_an_error_not_a_crash(tmp_path: Path) -> None:
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "bad.yaml").write_text("group: rule\n? [a, b]\n: 1\ncases: []\n")
    _, errors = load_all(cases, tmp_path)
    assert str(errors[cases / "bad.yaml"]) == ("cases/bad.yaml:2: a mapping key must be a plain name, "
                                               "not a list or mapping")
