"""Hostile and broken case files: each gives one clear error naming its file and line, none stops the others,
and no YAML tag constructs an object."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

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
    ("bad_id", good("Not-An-Id"), 3, "cases/0/id: 'Not-An-Id' does not match"),
    ("id_with_trailing_newline", good('"fine\\n"'), 3, "cases/0/id: 'fine\\n' does not match"),
    ("integer_written_as_float", with_line("data_shape: [3]", "data_shape: [3.0]"), 5,
     "cases/0/data_shape/0: 3.0 is not of type 'integer'"),
    ("target_value_as_float", with_line("target_shape: [2, 3]", "target_shape: [2, 3.0]"), 6,
     "cases/0/target_shape/1: 3.0 is not of type 'integer'"),
    ("target_rank_above_64", with_line("target_shape: [2, 3]", f"target_shape: {[1] * 65}"), 6,
     "cases/0/target_shape: [1, 1,"),
    ("expected_rank_above_64", with_line("{shape: [2, 3]}", f"{{shape: {[1] * 65}}}"), 7,
     "cases/0/expect/shape: [1, 1,"),
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


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """A 3 GB case file (sparse here) is refused from its size: loaded in a process that may use 1 GiB of address
    space beyond what it holds, reading it whole would fail with MemoryError instead."""
    cases = tmp_path / "cases"
    cases.mkdir()
    with open(cases / "huge.yaml", "wb") as f:
        f.truncate(3 * 2**30)
    (cases / "fine.yaml").write_text(good(), encoding="utf-8")
    script = f"""
import resource, sys
from pathlib import Path
from conformance.cases import load_all
used = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (used + 2**30, resource.RLIM_INFINITY))
loaded, errors = load_all(Path({str(cases)!r}), Path({str(tmp_path)!r}))
print([str(e) for e in errors.values()], [c.id for cs in loaded.values() for c in cs])
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ("['cases/huge.yaml:1: file is 3221.2 MB, but a case file may hold at most 1 MB: "
                                   "split it'] ['fine']")


def test_what_cannot_be_read_is_named_next_to_what_can(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The loader's view of the case directory (also what the run's type coverage reads): a folder that cannot be
    listed, a link to a folder, a FIFO (opening it must not wait for a writer), a link to nothing: each an error
    naming it; an upper-case suffix and a link to a case file are read."""
    cases = tmp_path / "cases"
    (cases / "locked").mkdir(parents=True)
    (cases / "locked" / "a.yaml").write_text(good("in_locked"), encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "shared.yaml").write_text(good("shared"), encoding="utf-8")
    (cases / "folder_link").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (cases / "file_link.yaml").symlink_to(tmp_path / "elsewhere" / "shared.yaml")
    (cases / "LOUD.YML").write_text(good("loud"), encoding="utf-8")
    os.mkfifo(cases / "pipe.yaml")
    (cases / "nothing.yaml").symlink_to(tmp_path / "missing.yaml")
    scandir = os.scandir

    def refusing(path: Any = ".") -> Any:
        if not isinstance(path, int) and os.fspath(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)
    loaded, errors = load_all(cases, tmp_path)
    assert sorted(c.id for cs in loaded.values() for c in cs) == ["loud", "shared"]
    assert {str(e) for e in errors.values()} == {
        "cases/locked: directory cannot be read: Permission denied; its case files were not run",
        "cases/folder_link: a symbolic link to a directory: the suite reads the case directory's own folders only "
        "(a link may lead outside it, or back into it); link the case files themselves, or copy them",
        "cases/pipe.yaml: not a regular file: a case file must be one",
        "cases/nothing.yaml: cannot be read: No such file or directory"}
