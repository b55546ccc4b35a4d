"""Known differences: entries as conditions (op, group, op fields, path, dtypes, version, hardware, traits), one
matcher for named and generated checks, file errors with file:line, stale entries, and the real entries against
the cases (every entry matches a check of the default plan; the README's example is explained by conditions).

``python -m tests.test_known RESULTS.json`` compares the entries with a full run's verdicts (see
``compare_with_run``); the test of that name runs where CONFORMANCE_BASELINE names such a file.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter, defaultdict
from fnmatch import fnmatchcase
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conformance import known, ops
from conformance.backends import Outcome, Request
from conformance.backends.local import LocalBackend
from conformance.cases import Case, load_all
from conformance.data import DTYPES, salt, specials_held
from conformance.known import Facts, Known, KnownFileError, find, path_of_label
from conformance.ops.broadcast.params import to_json

ROOT = Path(__file__).resolve().parents[1]
OV_PATHS = ["opset1-const", "opset1-param", "opset3-const", "opset3-param"]


def case(mode: str = "numpy", data_shape: tuple[Any, ...] = (3,), target_shape: Any = (2, 3), axes_mapping: Any = None,
         case_id: str = "c", group: str = "rule") -> Case:
    raw: dict[str, Any] = {"mode": mode, "data_shape": list(data_shape), "target_shape": list(target_shape)}
    if axes_mapping is not None:
        raw["axes_mapping"] = list(axes_mapping)
    op = ops.get("broadcast")
    params = op.parse(raw)
    shape, rule = op.outcome(params)
    return Case(id=case_id, file=f"cases/{case_id}.yaml", line=1, group=group, op="broadcast", params=params,
                expect_shape=shape, expect_reject=rule, spec_ref="s")


def facts(c: Case, variant: str = "opset3-const", dtype: str = "f32", version: str | None = "2026.4.1",
          shape_dtype: str = "i64") -> Facts:
    return Facts(c, dtype, shape_dtype, path_of_label(variant), variant, version)


def entries(tmp_path: Path, text: str, backend: str = "somebackend") -> list[Known]:
    path = tmp_path / f"{backend}.yaml"
    path.write_text(text)
    return known.load([path])[backend]


def entry(conditions: str, verdict: str = "wrong_values", entry_id: str = "e") -> str:
    return f"- id: {entry_id}\n{conditions}  verdict: {verdict}\n  reason: r\n  link: https://example.invalid/1\n"


@cache
def all_cases() -> dict[str, Case]:
    loaded, errors = load_all(ROOT / "cases", ROOT)
    assert not errors
    return {c.id: c for cs in loaded.values() for c in cs}


# --- Conditions ---

def test_labels_read_as_paths():
    assert path_of_label("opset1-const") == (("opset", "1"), ("target_shape", "Constant"))
    assert path_of_label("opset3-param") == (("opset", "3"), ("target_shape", "Parameter"))
    assert path_of_label("opset8-init") == (("opset", "8"), ("shape", "initializer"))
    assert path_of_label("opset13-input") == (("opset", "13"), ("shape", "input"))
    assert path_of_label("v1") == (("op", "v1"),) and path_of_label("expand") == (("op", "expand"),)
    assert path_of_label("mine") == (("variant", "mine"),) and path_of_label("") == ()


def test_every_condition_given_must_hold(tmp_path):
    (e,) = entries(tmp_path, entry("""  match:
    op: broadcast
    group: [rule, edge]
    mode: bidirectional
    path: {opset: "3", target_shape: Param*}
    dtype: [i64, u64]
    shape_dtype: i64
  inputs: [zero_meets_one]
"""))
    hit = case("bidirectional", (0,), (1,))
    assert find([e], facts(hit, "opset3-param", "i64")) is e
    assert find([e], facts(hit, "opset3-param", "u64")) is e
    misses = [facts(hit, "opset3-const", "i64"), facts(hit, "opset3-param", "f32"),  # path, dtype
              facts(hit, "opset3-param", "i64", shape_dtype="i32"),
              facts(case("bidirectional", (0,), (1,), group="upstream"), "opset3-param", "i64"),  # group
              facts(case("bidirectional", (0,), (0,)), "opset3-param", "i64"),  # the trait
              facts(hit, "opset13-input", "i64")]  # a path without the axis target_shape
    assert [find([e], f) for f in misses] == [None] * len(misses)


def test_inputs_take_alternatives_and_negations(tmp_path):
    (e,) = entries(tmp_path, entry("  inputs: [[scalar_data, not empty_target], [zero_size_data]]\n"))
    assert find([e], facts(case("numpy", (), (2,)))) is e
    assert find([e], facts(case("numpy", (), ()))) is None
    assert find([e], facts(case("numpy", (0,), (2, 0)))) is e
    assert find([e], facts(case("numpy", (1,), (2, 1)))) is None
    assert e.to_json()["inputs"] == [["scalar_data", "not empty_target"], ["zero_size_data"]]


def test_a_path_condition_takes_alternatives(tmp_path):
    """match.path as a list of maps: the entry holds on a path where one of them holds in full (a bug reached by
    two roads: the data an initializer, or a zero-size data input that a file reader makes a Constant)."""
    (e,) = entries(tmp_path, entry("""  match:
    path: [{data: initializer}, {data: input, source: [file, convert_model]}]
  inputs: [zero_size_data]
"""))
    empty = case("bidirectional", (0,), (1,))

    def on(**path: str) -> Facts:
        return Facts(empty, "f32", "i64", tuple(path.items()), "", "2026.4.1")

    assert find([e], on(shape="input", data="initializer", source="bytes")) is e
    assert find([e], on(shape="input", data="input", source="convert_model")) is e
    assert find([e], on(shape="input", data="input", source="bytes")) is None
    assert find([e], on(shape="input", data="initializer")) is e
    assert e.to_json()["match"]["path"] == [{"data": ["initializer"]},
                                            {"data": ["input"], "source": ["file", "convert_model"]}]
    from conformance.known.verify import listing

    assert "path.data=initializer or path.data=input,path.source=file|convert_model" in listing({"somebackend": [e]})


def test_the_first_entry_whose_conditions_hold_is_the_checks(tmp_path):
    es = entries(tmp_path, entry("  inputs: [zero_size_data]\n", "crash", "first")
                 + entry("  match: {dtype: f32}\n", "wrong_values", "second"))
    assert find(es, facts(case("numpy", (0,), (2, 0)))).id == "first"
    assert find(es, facts(case("numpy", (1,), (2, 1)))).id == "second"
    # a generated check asks for the failure it shows
    assert find(es, facts(case("numpy", (0,), (2, 0))), verdict="wrong_values").id == "second"


def test_named_and_generated_cases_are_matched_alike(tmp_path):
    (e,) = entries(tmp_path, entry("  match: {mode: numpy}\n  inputs: [zero_size_data]\n"))
    named, generated = case("numpy", (0,), (2, 0), case_id="np_zero"), case("numpy", (0,), (2, 0), group="generated")
    assert find([e], facts(named)) is e and find([e], facts(generated)) is e
    assert find([e], facts(case("explicit", (0,), (2, 0), [1]))) is None


def test_a_known_difference_can_hold_for_some_versions_only(tmp_path):
    es = entries(tmp_path, entry("  match: {dtype: u64, version: ['2025.[0-3].*', '2024.*']}\n", entry_id="old")
                 + entry("  match: {dtype: i64}\n", entry_id="every"))
    c = case()
    assert find(es, facts(c, dtype="u64", version="2025.3.0")).id == "old"
    assert find(es, facts(c, dtype="u64", version="2024.6.0")).id == "old"
    assert find(es, facts(c, dtype="u64", version="2025.4.0")) is None
    assert find(es, facts(c, dtype="u64", version=None)) is None  # a backend without a version: not that release
    assert find(es, facts(c, dtype="i64", version=None)).id == "every"  # no version key: any version
    assert es[0].applies_to_version("2025.1.0") and not es[0].applies_to_version("2026.0.0")
    assert es[0].to_json()["match"]["version"] == ["2025.[0-3].*", "2024.*"]


def test_a_known_difference_can_hold_on_some_hardware_only(tmp_path):
    es = entries(tmp_path, entry("  match: {dtype: bf16, hardware: ['cpu:bf16', 'cpu:amx*']}\n", entry_id="native")
                 + entry("  match: {dtype: f32}\n", entry_id="anywhere"))
    on = known.on_hardware({"somebackend": es}, {"somebackend": ("cpu:fp32", "cpu:bf16")})
    assert [k.id for k in on["somebackend"]] == ["native", "anywhere"]
    for hardware in [("cpu:fp32", "cpu:fp16"), ()]:  # without the feature, or a backend that reports none
        assert [k.id for k in known.on_hardware({"somebackend": es}, {"somebackend": hardware})["somebackend"]] \
            == ["anywhere"]
    assert known.on_hardware({"somebackend": es}, {})["somebackend"][0].id == "anywhere"  # not asked: unavailable
    assert find(es, facts(case(), dtype="bf16")).id == "native"  # find itself leaves hardware to on_hardware
    emulated = entries(tmp_path, entry("  match: {dtype: bf16, hardware: 'not cpu:bf16'}\n", entry_id="emulated"))
    assert [k.id for k in known.on_hardware({"b": emulated}, {"b": ("cpu:fp32", "cpu:bf16")})["b"]] == []
    assert [k.id for k in known.on_hardware({"b": emulated}, {"b": ("cpu:fp32",)})["b"]] == ["emulated"]


def test_shape_only_checks_are_a_condition(tmp_path):
    (e,) = entries(tmp_path, entry("  match: {shape_only: false}\n"))
    small, huge = case("numpy", (1,), (2,)), case("numpy", (1,), (2**31, 1))
    assert find([e], facts(small)) is e and find([e], facts(huge)) is None  # computed from the default budget
    assert find([e], Facts(small, "f32", "i64", (), "", None, shape_only=True)) is None


def test_the_form_before_facts_is_still_read(tmp_path):
    es = entries(tmp_path, entry("  match: {case: c1, variant: 'opset3-*'}\n  cases_why: a test\n", entry_id="by-id")
                 + entry("  inputs: [zero_size_data]\n", entry_id="by-traits"))
    assert find(es, "c1", "opset3-const", "f32").id == "by-id"
    assert find(es, "c2", "opset3-const", "f32") is None  # an id alone meets no condition on params
    assert find(es, case("numpy", (0,), (2, 0)), "opset1-const", "f32").id == "by-traits"
    assert known.explaining(es, case("numpy", (0,), (2, 0)), "v1", "f32", None, "i64", "wrong_values").id \
        == "by-traits"


def test_an_entry_may_give_one_of_several_verdicts(tmp_path):
    from conformance.judge import Judgement, with_known

    (e,) = entries(tmp_path, entry("  match: {dtype: f32}\n  may_pass: a zero-size output\n  reproducer: |\n    x\n",
                                   verdict="[wrong_shape, wrong_values]"))
    assert e.verdicts == ("wrong_shape", "wrong_values") and e.to_json()["verdict"] == "wrong_shape or wrong_values"
    assert "shape_only" not in dict(e.match)  # a wrong_shape may be seen by a shape-only check
    for verdict in e.verdicts:
        judged = with_known(Judgement(verdict, "m"), e)
        assert judged.verdict == "known_difference" and f"known difference e ({verdict})" in judged.message
    assert with_known(Judgement("crash", "m"), e).verdict == "crash"  # not one of them: fails, naming the entry
    assert find([e], facts(case()), verdict="wrong_values") is e and find([e], facts(case()), verdict="crash") is None


def test_an_error_the_run_did_not_report_is_a_fact_known_after_the_run(tmp_path):
    es = entries(tmp_path, entry("  match: {unreported_error: true}\n", entry_id="dropped", verdict="accepted_invalid")
                 + entry("  match: {dtype: f32}\n", entry_id="other"))
    c = case("numpy", (3,), (2, 2))
    assert find(es, facts(c)).id == "other"  # before the run nothing is known of it
    assert find(es, Facts(c, "f32", "i64", path_of_label("opset3-param"), "opset3-param", "2026.4.1",
                          unreported_error=True)).id == "dropped"
    assert find(es, Facts(c, "i8", "i64", (), "", None, unreported_error=False)) is None


# --- Files ---

@pytest.mark.parametrize(("text", "message"), [
    (entry("  match: {release: '2025.*'}\n"), r"somebackend.yaml:2: unknown match key\(s\) \['release'\]"),
    (entry("  match: {dtype: f32}\n  inputs: [no_such_trait]\n"), r":3: inputs is a list of traits.*no_such_trait"),
    (entry("  inputs: [[zero_size_data], 3]\n"), r":2: inputs is a list of traits"),
    (entry("  match: {case: [a, b]}\n"), r":2: entry 'e' lists case ids; say in cases_why"),
    (entry("  match: {path: [opset3]}\n"), r":2: match.path maps path axis names"),
    (entry("  match: {dtype: {a: b}}\n"), r":2: match.dtype takes a glob or a list of globs"),
    (entry("  mood: x\n  match: {dtype: f32}\n"), r":1: entry 'e': unknown key\(s\) \['mood'\]"),
    (entry(""), r":1: entry 'e' has no condition"),
    (entry("  match: {dtype: f32}\n", verdict="pass"), r":3: verdict='pass'"),
    (entry("  match: {dtype: f32}\n", verdict="[wrong_shape, wrong_shape]"), r":3: verdict=.*a list of some"),
    (entry("  match: {dtype: f32}\n", verdict="[wrong_shape, pass]"), r":3: verdict=\['wrong_shape', 'pass'\]"),
    ("- id: x\n  match: {dtype: f32}\n  verdict: crash\n  reason: r\n", r":1: entry 'x' needs an upstream link"),
    (entry("  match: {dtype: f32}\n") + entry("  match: {dtype: i8}\n"), r":6: duplicate entry id 'e'.*first at .*:1"),
    ("{a: 1}\n", r"somebackend.yaml:1: a known-differences file is a list of entries"),
])
def test_a_bad_entry_is_named_with_its_file_and_line(tmp_path, text, message):
    with pytest.raises(KnownFileError, match=message):
        entries(tmp_path, text)


def test_an_entry_id_may_not_repeat_across_the_files_of_a_backend(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for d in ("a", "b"):
        (tmp_path / d / "somebackend.yaml").write_text(entry("  match: {dtype: f32}\n"))
    with pytest.raises(KnownFileError, match=r"b/somebackend.yaml:1: duplicate entry id 'e' for backend "
                                             r"'somebackend' \(first at .*a/somebackend.yaml:1\)"):
        known.load([tmp_path / "a" / "somebackend.yaml", tmp_path / "b" / "somebackend.yaml"])
    first = tmp_path / "a" / "somebackend.yaml"
    assert len(known.load([first, first])["somebackend"]) == 1  # one file given twice is read once
    (tmp_path / "b" / "openvino.yaml").write_text(entry("  match: {dtype: f32}\n",
                                                        entry_id="ov-cpu-i64-computed-as-i32"))
    with pytest.raises(KnownFileError, match="duplicate entry id 'ov-cpu-i64-computed-as-i32'"):
        known.load([tmp_path / "b" / "openvino.yaml"])  # and not the id of a built-in entry


def test_an_entry_says_its_conditions_in_json(tmp_path):
    (e,) = entries(tmp_path, entry("""  match:
    mode: numpy
    path: {opset: 3, target_shape: Constant}
    case: "np_*"
  cases_why: only those cases
  inputs: [zero_size_data]
"""))
    # (a wrong_values entry holds for checks that run only: a check of the declared shape has no values)
    assert e.to_json()["match"] == {"mode": ["numpy"], "case": ["np_*"], "shape_only": ["false"],
                                    "path": {"opset": ["3"], "target_shape": ["Constant"]}}
    assert e.to_json()["cases_why"] == "only those cases" and e.to_json()["where"].endswith("somebackend.yaml:1")


# --- Stale entries ---

def test_an_entry_that_matched_nothing_is_listed_only_after_an_unrestricted_run(tmp_path):
    es = entries(tmp_path, entry("  match: {dtype: f32}\n", entry_id="seen") + entry("  match: {dtype: i8}\n",
                                                                                    entry_id="unseen")
                 + entry("  match: {dtype: i8, version: '2025.*'}\n", entry_id="other-release"))
    by_backend = {"somebackend": es, "absent": es}
    stale = known.unmatched(by_backend, {("somebackend", "seen")}, {"somebackend": "2026.1.0"}, restricted=False)
    assert [(u["backend"], u["entry"]["id"]) for u in stale] == [("somebackend", "unseen")]
    assert known.unmatched(by_backend, {("somebackend", "seen")}, {"somebackend": "2026.1.0"}, restricted=True) == []


# --- Traits ---

def test_every_trait_answers_for_every_case():
    for c in all_cases().values():
        for name, (holds, _) in ops.get(c.op).traits.items():
            assert holds(c.params) in (True, False), (name, c.id)


@pytest.mark.parametrize(("target_shape", "holds"), [
    ((0, 2**31), True),  # low 32 bits as int32: -2**31
    ((2**63 - 1, 0), True),  # -1
    ((0, 2**31 - 1), False),  # fits in int32
    ((2**32, 0), False),  # 0
    ((2**32 + 1, 0), False),  # 1
    ((2**62, 0), False),  # 0
    ((2**32 + 2**31, 0), True),  # -2**31
])
def test_target_beyond_int32_negative_as_int32(target_shape, holds):
    trait = ops.get("broadcast").traits["target_beyond_int32_negative_as_int32"][0]
    assert trait(case("numpy", (1,), target_shape).params) is holds


@pytest.mark.parametrize(("data_shape", "target_shape", "other_shape", "invalid"), [
    ((1,), (2**32, 0), True, False),  # cut to [0, 0]: another valid shape
    ((2**32 + 1, 0), (2**32 + 1, 0), False, False),  # cut to 1 facing the data's own 2**32 + 1: the same shape
    ((2**31, 0), (2**31, 0), False, True),  # cut to -2**31 facing 2**31
    ((2**32, 0), (2**32, 0), False, True),  # cut to 0 facing 2**32
    ((1,), (2, 3), False, False),  # within int32: no cut
    ((3,), (2**32 + 2,), False, False),  # invalid: not a trait of valid inputs
])
def test_target_int32_cut(data_shape, target_shape, other_shape, invalid):
    traits = ops.get("broadcast").traits
    params = case("bidirectional", data_shape, target_shape).params
    assert traits["target_int32_cut_other_shape"][0](params) is other_shape
    assert traits["target_int32_cut_invalid"][0](params) is invalid


@pytest.mark.parametrize(("mode", "data_shape", "target_shape", "axes", "holds"), [
    ("bidirectional", (2**32 + 2, 0), (2**32 + 2, 0), None, True),
    ("numpy", (2**31, 0), (2**31, 0), None, True),
    ("explicit", (2**32,), (0, 2**32), (1,), True),  # faced through axes_mapping
    ("bidirectional", (1, 0), (2**32 + 2, 0), None, False),  # beyond int32 facing 1
    ("bidirectional", (0,), (2**32 + 2, 0), None, False),  # beyond int32 facing no data dimension
    ("numpy", (5, 0), (5, 0), None, False),  # equal, within int32
])
def test_target_beyond_int32_meets_equal_data_dim(mode, data_shape, target_shape, axes, holds):
    trait = ops.get("broadcast").traits["target_beyond_int32_meets_equal_data_dim"][0]
    assert trait(case(mode, data_shape, target_shape, axes).params) is holds


def test_f64_one_value_zero_in_f32():
    """The one value of a one-element data, read in f64, is 0 once cast to f32 and not -0.0 (tract's neutral Add)."""
    trait = ops.get("broadcast").traits["f64_one_value_zero_in_f32"][0]
    seen = {}
    for n in range(1, 60):
        c = case("numpy", (), (n,)).params
        value = specials_held((), "f64", salt(to_json(c)))[0]
        kind = ("-0.0" if np.signbit(value) and value == 0 else "zero in f32" if abs(value) < 2.0**-150
                else "other")
        seen.setdefault(kind, trait(c))
        assert trait(c) is (kind == "zero in f32"), (n, value)
    assert seen.get("zero in f32") is True and seen.get("other") is False, seen
    assert not trait(case("numpy", (), (0,)).params)  # no element in the output: nothing shows
    assert not trait(case("numpy", (2,), (2,)).params)  # two elements: no one value


def test_every_trait_an_entry_names_holds_for_the_cases_it_lists():
    checked = 0
    for backend, es in known.load().items():
        for e in es:
            patterns = dict(e.match).get("case")
            if patterns is None or e.inputs is None:
                continue
            for c in all_cases().values():
                if any(fnmatchcase(c.id, p) for p in patterns):
                    assert any(all(known.trait_holds(c, t.removeprefix("not ")) is not t.startswith("not ")
                                   for t in group) for group in e.inputs), f"{backend} {e.id}: {c.id}"
                    checked += 1
    assert checked == sum(len(_listed(e)) for es in known.load().values() for e in es if e.inputs is not None)


def _listed(e: Known) -> list[Case]:
    patterns = dict(e.match).get("case", ())
    return [c for c in all_cases().values() if any(fnmatchcase(c.id, p) for p in patterns)]


def test_a_case_list_names_existing_cases():
    for es in known.load().values():
        for e in es:
            for pattern in dict(e.match).get("case", ()):
                assert any(fnmatchcase(c, pattern) for c in all_cases()), f"{e.where}: {pattern} names no case"


# --- The real entries ---

def test_the_readme_example_is_explained_by_conditions_alone():
    """Explicit mode, data (3,), target_shape [2, 3, 4, 5], axes_mapping [1], every element type: OpenVINO's CPU
    plugin computes i64 in i32, u64 in i32 and f64 in f32, and runs f16 in f32; each shows where the special
    values the data holds (conformance.data.specials_held, by shape and params) are ones that path changes."""
    example = case("explicit", (3,), (2, 3, 4, 5), [1], case_id="readme_example_not_in_any_list")
    ov = known.load()["openvino"]
    alone = (("context", "alone"),)  # every Broadcast check of the openvino backend has its context
    found = {(p, d): (e.id if (e := find(ov, Facts(example, d, "i64", path_of_label(p) + alone, p, "2026.4.1")))
                      else None) for p in OV_PATHS for d in DTYPES}
    expected = {"i64": ("i64_data_beyond_int32", "ov-cpu-i64-computed-as-i32"),
                "u64": ("u64_data_beyond_uint32", "ov-cpu-u64-computed-as-i32"),
                "f64": ("f64_data_inexact_in_f32", "ov-cpu-f64-computed-as-f32"),
                "f16": ("signalling_nan_in_data", "ov-cpu-f16-in-inference-precision-quiets-signalling-nans")}
    assert any(known.trait_holds(example, trait) for trait, _ in expected.values())  # the example shows some
    assert {k: v for k, v in found.items() if v} == {
        (p, d): entry for p in OV_PATHS for d, (trait, entry) in expected.items() if known.trait_holds(example, trait)}
    # before 2025.4 the u64 round trip clamps: every u64 value above 2**31 - 1 changes
    if known.trait_holds(example, "u64_data_beyond_int32"):
        assert find(ov, facts(example, "opset1-param", "u64", "2025.0.0")).id == "ov-cpu-u64-clamped-to-i32-max"


def test_openvino_onnx_u64_clamping_is_known_for_releases_before_2025_4():
    ovonnx, c = known.load()["openvino-onnx"], all_cases()["rules_ex3_bidirectional"]
    found = {v: (e.id if (e := find(ovonnx, facts(c, "opset13-input", "u64", v))) else None)
             for v in ("2025.0.0", "2025.3.0", "2025.4.0", "2026.4.1")}
    # from 2025.4 the round trip wraps, which changes a value of 2**32 or more only
    assert known.trait_holds(c, "u64_data_beyond_int32")
    later = "ov-onnx-cpu-u64-computed-as-i32" if known.trait_holds(c, "u64_data_beyond_uint32") else None
    assert found == {"2025.0.0": "ov-onnx-cpu-u64-clamped-to-i32-max", "2025.3.0": "ov-onnx-cpu-u64-clamped-to-i32-max",
                     "2025.4.0": later, "2026.4.1": later}


def test_every_entry_matches_a_check_of_the_default_plan():
    """Planned on the backends' own paths, at the installed release and at the version matrix's oldest (openvino
    2025.0.0, onnxruntime 1.18.0, onnx 1.16.0: for the entries of older releases), on any hardware; the first
    matching entry counts, so an entry hidden by earlier ones fails too. An entry of paths that only ``--paths all``
    takes (secondary axes together, opset 1 with them) matches a check of that plan instead."""
    from conformance import backends
    from conformance.run.plan import plan

    matched: set[tuple[str, str]] = set()
    by_backend = known.load()
    for every_path in (False, True):
        for name, es in by_backend.items():
            if every_path and {(name, k.id) for k in es} <= matched:
                continue
            try:
                backend = backends.load(name)
            except Exception as e:  # noqa: BLE001 (a backend this environment cannot load: its entries are not planned)
                pytest.skip(f"backend {name} cannot be loaded here: {e}")
            versions = {backend.version(), "2025.0.0", "1.18.0", "1.16.0"}  # and the version matrix's oldest releases
            for c in all_cases().values():
                for check in plan(c, backend, name, None, every_path=every_path):
                    if check.path is None or check.dtype is None or check.not_applicable:
                        continue
                    # on one thread, also as a check whose run raised an error unreported (known after the run)
                    unreported = (False, True) if dict(check.path).get("threads") == "1" else (False,)
                    for version in versions:
                        for dropped in unreported:
                            e = find(es, Facts(c, check.dtype, check.shape_dtype, check.path, check.variant, version,
                                               unreported_error=dropped))
                            if e is not None:
                                matched.add((name, e.id))
    assert {(n, k.id) for n, es in by_backend.items() for k in es} - matched == set()


# --- Generated checks ---

class ZeroSizeAsOne(LocalBackend):
    """Gives a dimension of 1 where the output has a 0 (as OpenVINO's ConvertBroadcast3 does for 1 vs 0)."""

    name = "zero-as-one"

    def run(self, request: Request) -> Outcome:
        outcome = super().run(request)
        if outcome.output is not None and 0 in outcome.output.shape:
            shape = tuple(max(d, 1) for d in outcome.output.shape)
            return Outcome(output=np.zeros(shape, outcome.output.dtype))
        if outcome.output is None and outcome.declared_shape is not None and 0 in outcome.declared_shape:
            # a shape-only check (an empty output with a dimension beyond the budget): declared alike
            return Outcome(declared_shape=tuple(None if d is None else max(d, 1) for d in outcome.declared_shape))
        return outcome


class InProcess:
    """A Runner that runs each check in this process."""

    def __init__(self, backend: LocalBackend) -> None:
        self.backend = backend

    def outcome(self, check: Any, request: Request) -> tuple[Outcome, str]:
        return self.fresh(check, request), "own, fresh worker"

    def fresh(self, check: Any, request: Request, timeout: float | None = None) -> Outcome:
        return self.backend.declare(request) if request.shape_only else self.backend.run(request)

    def doubt(self, check: Any) -> None:
        pass  # this process is the only one


def _zero_as_one(traits: tuple[str, ...], verdict: str = "wrong_shape") -> Known:
    return Known(id="zero-as-one", backend="zero-as-one", match=(), verdict=verdict, reason="test",
                 link="https://example.org", reproducer=None, where="test", inputs=(traits,))


def test_a_known_difference_explains_a_generated_failure_by_its_traits():
    from conformance.run import generated

    backend = ZeroSizeAsOne()
    unexplained = generated.search(backend, "zero-as-one", InProcess(backend), [], None, 60, 3, 2**20)
    assert unexplained.failure is not None
    assert known.trait_holds(unexplained.failure[0].case, "output_empty")

    explained = generated.search(backend, "zero-as-one", InProcess(backend), [_zero_as_one(("output_empty",))],
                                 None, 60, 3, 2**20)
    assert explained.failure is None
    assert explained.known["zero-as-one"] > 0
    assert explained.verdicts["pass"] > 0

    # the entry's verdict must be the one seen: a wrong_values entry explains nothing here
    wrong = generated.search(backend, "zero-as-one", InProcess(backend),
                             [_zero_as_one(("output_empty",), "wrong_values")], None, 60, 3, 2**20)
    assert wrong.failure is not None


# --- A full run's verdicts ---

def compare_with_run(results: Path) -> tuple[Counter[str], dict[str, list[tuple[str, ...]]]]:
    """Every named check of a results file (format /1 or /2) looked up in today's entries: a known difference
    must be matched by an entry of the same verdict (which one may differ where entries were merged), a pass by
    none, a not-applicable check by none (or, never looked up, one planned not applicable before it ran)."""
    data = json.loads(results.read_text(encoding="utf-8"))
    cases = all_cases()
    hardware = {n: tuple(b.get("hardware") or ()) for n, b in data.get("backends", {}).items()}
    by_backend = known.on_hardware(known.load(), hardware)
    counts: Counter[str] = Counter()
    wrong: dict[str, list[tuple[str, ...]]] = defaultdict(list)
    for c in data["checks"]:
        if c.get("case") == "generated" or c.get("group") == "generated":
            continue
        named = cases.get(c["case"])
        if named is None or not c.get("variant") and not c.get("path"):
            counts["not compared: case gone" if named is None else "not compared: no path (never run)"] += 1
            continue
        path = tuple(c["path"].items()) if c.get("path") else path_of_label(c["variant"])
        e = find(by_backend.get(c["backend"], []), Facts(named, c["dtype"], c["shape_dtype"], path, c["variant"],
                                                         c.get("backend_version")))
        verdict, was = c["verdict"], c.get("known") or {}
        if verdict == "known_difference":
            if e is None or e.verdict != was.get("verdict"):
                wrong["known difference, now not explained"].append((c["id"], was.get("id"), e and e.id))
            else:
                counts["known difference, same verdict" + (" (same entry)" if e.id == was.get("id") else
                                                           " (merged entry)")] += 1
        elif verdict in ("pass", "not_applicable"):
            if e is None:
                counts[f"{verdict}, no entry"] += 1
            elif verdict == "not_applicable" and not (c.get("message") or "").startswith("shape-only"):
                counts["not_applicable before it ran, an entry's conditions hold (never looked up)"] += 1
            else:
                wrong[f"{verdict}, now matched"].append((c["id"], e.id))
        else:
            wrong[f"verdict {verdict} (not compared)"].append((c["id"],))
    return counts, wrong


@pytest.mark.skipif(not os.environ.get("CONFORMANCE_BASELINE"), reason="CONFORMANCE_BASELINE names no results file")
def test_the_entries_give_a_full_runs_verdicts():
    counts, wrong = compare_with_run(Path(os.environ["CONFORMANCE_BASELINE"]))
    assert not wrong, {k: v[:5] for k, v in wrong.items()}
    assert counts


if __name__ == "__main__":
    found, mismatched = compare_with_run(Path(sys.argv[1]))
    for what, n in sorted(found.items()):
        print(f"{n:7d}  {what}")
    for what, checks in mismatched.items():
        print(f"{len(checks):7d}  {what}: {checks[:10]}")
    sys.exit(1 if mismatched else 0)


def test_only_a_timeout_entry_gives_a_timeout_and_a_positive_one(tmp_path):
    from conformance.known.entries import KnownFileError, read_file

    def entry(verdict: str, timeout: object) -> str:
        return (f"- id: e\n  match: {{dtype: f32}}\n  verdict: {verdict}\n  timeout: {timeout}\n  reason: r\n"
                f"  link: https://example.org\n")

    path = tmp_path / "local.yaml"
    path.write_text(entry("timeout", 5))
    (known,) = read_file(path, "local")
    assert known.timeout == 5.0
    for verdict, timeout in (("crash", 5), ("timeout", 0), ("timeout", "soon")):
        path.write_text(entry(verdict, timeout))
        with pytest.raises(KnownFileError, match=r"local.yaml:4: entry 'e': timeout="):
            read_file(path, "local")



# --- Entries whose checks may also pass (may_pass) ---

MAY_PASS = """- id: flushes-sometimes
  match: {dtype: bf16}
  may_pass: the compiler's choice of loop decides it
  verdict: wrong_values
  reason: r
  reproducer: |
    import sys; sys.exit(0)
"""


def test_an_entry_that_may_pass_keeps_a_pass_and_its_own_verdict_but_fails_any_other(tmp_path):
    from conformance import verdicts as v
    from conformance.judge import Judgement, with_known

    (e,) = entries(tmp_path, MAY_PASS)
    assert e.may_pass == "the compiler's choice of loop decides it"
    assert e.to_json()["may_pass"] == e.may_pass
    passed = with_known(Judgement(v.PASS, None), e)
    assert passed.verdict == v.PASS and passed.known is None  # a pass names no known difference of its own
    assert "flushes-sometimes" in passed.message and "may show here and did not" in passed.message
    assert with_known(Judgement(v.WRONG_VALUES, "values differ"), e).verdict == v.KNOWN
    other = with_known(Judgement(v.WRONG_SHAPE, "shape differs"), e)  # another failure still fails the run
    assert other.verdict == v.WRONG_SHAPE and "expects wrong_values" in other.message
    (strict,) = entries(tmp_path, MAY_PASS.replace("  may_pass: the compiler's choice of loop decides it\n", ""))
    assert with_known(Judgement(v.PASS, None), strict).verdict == v.ERROR  # a strict entry: a pass is news


@pytest.mark.parametrize(("text", "message"), [
    (MAY_PASS.replace("may_pass: the compiler's choice of loop decides it", "may_pass: 3"),
     r"somebackend.yaml:3: entry 'flushes-sometimes': may_pass=3; it says why"),
    (MAY_PASS.replace("  reproducer: |\n    import sys; sys.exit(0)\n", "  link: https://example.invalid/1\n"),
     r"somebackend.yaml:3: entry 'flushes-sometimes': an entry whose checks may pass needs a reproducer"),
])
def test_a_may_pass_entry_says_why_and_gives_a_reproducer(tmp_path, text, message):
    with pytest.raises(KnownFileError, match=message):
        entries(tmp_path, text)


class DroppedError(LocalBackend):
    """Gives the spec's output, and says its run raised an error it did not report (as OpenVINO's one-thread
    inference does: the output may still be right)."""

    name = "dropped-error"

    def run(self, request: Request) -> Outcome:
        from dataclasses import replace

        outcome = super().run(request)
        if outcome.error is not None:  # a refusal dropped: an output of shape (0,)
            return Outcome(output=np.zeros((0,), np.float32), unreported_error=outcome.error)
        return replace(outcome, unreported_error="Check 'x' failed")


class Counting(InProcess):
    """An in-process Runner that says how its outcomes were computed and counts the workers put in doubt."""

    def __init__(self, backend: LocalBackend) -> None:
        super().__init__(backend)
        self.doubted = 0

    def outcome(self, check: Any, request: Request) -> tuple[Outcome, str]:
        return self.fresh(check, request), "own"

    def doubt(self, check: Any) -> None:
        self.doubted += 1

    def alone(self, check: Any, request: Request) -> Outcome:
        return self.fresh(check, request)


def test_a_run_that_raised_an_error_unreported_leaves_its_worker_in_doubt(tmp_path):
    """Even where its output passes: the check is confirmed in a fresh worker, and an entry that names the fact
    explains a failing one (looked up after the run)."""
    from conformance.run.execute import execute, record_for
    from conformance.run.plan import plan

    backend = DroppedError()
    c = case("numpy", (3,), (2, 3))
    (check,) = [k for k in plan(c, backend, backend.name, ("f32",)) if k.variant == "v3"]
    runner = Counting(backend)
    record = execute(check, runner, [], record_for(check, "id", None, ""))
    assert record.verdict == "pass" and runner.doubted == 1 and record.model == "own, then fresh worker"
    assert "did not report: Check 'x' failed" in record.message
    es = entries(tmp_path, entry("  match: {unreported_error: true}\n  inputs: [not valid]\n", entry_id="dropped",
                                 verdict="accepted_invalid"), backend="dropped-error")
    bad = case("numpy", (3,), (2, 2))
    (check,) = [k for k in plan(bad, backend, backend.name, ("f32",)) if k.variant == "v3"]
    assert execute(check, Counting(backend), [], record_for(check, "id", None, "")).verdict == "accepted_invalid"
    explained = execute(check, Counting(backend), es, record_for(check, "id", None, ""))
    assert explained.verdict == "known_difference" and explained.known["id"] == "dropped"
