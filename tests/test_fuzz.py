"""Fuzzing the loader: whatever bytes a contributor's case file holds, loading it gives cases or one
CaseFileError with a file and line, never another exception, and a loaded case always agrees with the
reference. (The reference and local_broadcast are fuzzed against each other in test_local_broadcast.py.)"""

from __future__ import annotations

from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import reference
from conformance.cases import CaseFileError, load_file

ROOT = Path(__file__).resolve().parents[1]
REAL = sorted((ROOT / "cases").glob("*.yaml"))


def load_text(tmp_path: Path, content: str | bytes) -> list | CaseFileError:
    path = tmp_path / "cases" / "fuzz.yaml"
    path.parent.mkdir(exist_ok=True)
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8", errors="surrogatepass")
    else:
        path.write_bytes(content)
    try:
        return load_file(path, tmp_path)
    except CaseFileError as error:
        assert error.file == "cases/fuzz.yaml"
        assert error.line is None or error.line >= 1
        return error


def assert_agrees_with_reference(cases: list) -> None:
    for case in cases:
        if case.op != "broadcast":  # another op's reference: its outcome, as the loader checked it
            shape, rule = case.spec.outcome(case.params)
            assert (rule == case.expect_reject) if rule else (case.valid and tuple(shape) == case.expect_shape)
            continue
        try:
            p = case.params
            shape = reference.output_shape(p.data_shape, p.target_shape, p.axes_mapping, p.mode)
        except reference.BroadcastRuleError as e:
            assert e.rule == case.expect_reject
        else:
            assert case.valid and tuple(shape) == case.expect_shape


# a third of the profile's examples each: three loader properties together cost what one property does
fuzz = settings(max_examples=max(settings().max_examples // 3, 10),
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@fuzz
@given(st.binary(max_size=400))
def test_arbitrary_bytes(tmp_path, content):
    load_text(tmp_path, content)


@fuzz
@given(st.data())
def test_mutated_real_files(tmp_path, data):
    text = data.draw(st.sampled_from(REAL)).read_text(encoding="utf-8")
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 8))
        insert = data.draw(st.sampled_from(["", "-", ":", " ", "\n", "[", "]", "{", "}", "*a", "&a ", "!!str ",
                                            "0", "-1", "99999999999999999999", "'", '"', "\t", "#", "?", ","]))
        text = text[:at] + insert + text[at + cut:]
    result = load_text(tmp_path, text)
    if not isinstance(result, CaseFileError):
        assert_agrees_with_reference(result)


dims = st.lists(st.integers(-3, 5), max_size=5)
value = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True),
                  st.text(max_size=5), dims, st.lists(dims, max_size=2))
case_strategy = st.fixed_dictionaries(
    {"id": st.one_of(st.just("c1"), st.text(max_size=6)),
     "mode": st.one_of(st.sampled_from(["numpy", "explicit", "bidirectional"]), value),
     "data_shape": st.one_of(st.lists(st.integers(0, 4), max_size=4), value),
     "target_shape": st.one_of(st.lists(st.integers(0, 4), max_size=4), value),
     "expect": st.one_of(st.fixed_dictionaries({"shape": st.lists(st.integers(0, 4), max_size=4)}),
                         st.fixed_dictionaries({"reject": st.sampled_from(sorted(reference.RULES))}), value),
     "spec_ref": st.sampled_from(["003_38ca088f58e9a6c7.txt#Examples", "nowhere"])},
    optional={"axes_mapping": st.one_of(dims, value), "versions": st.lists(st.sampled_from([0, 1, 2, 3])),
              "dtypes": st.lists(st.sampled_from(["f32", "i8", "c64"])), "extra": value})


@fuzz
@given(st.lists(case_strategy, max_size=3), st.sampled_from(["rule", "edge", "nonsense"]))
def test_structured_cases(tmp_path, cases, group):
    text = yaml.safe_dump({"group": group, "cases": cases}, allow_unicode=True)
    result = load_text(tmp_path, text)
    if not isinstance(result, CaseFileError):
        assert_agrees_with_reference(result)
