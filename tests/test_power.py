"""The suite's power (conformance/run/power.py): the planted bugs of tests/planted/ are each caught by the YAML
cases, at least 90% of them by the default generated check alone, each with the verdict its defect gives, and
the correct implementation by neither. The whole table runs here (~30 s on 2 cores, most of it the hang's
timeouts)."""

from __future__ import annotations

from pathlib import Path

import pytest

import reference
from conformance.__main__ import main
from conformance.backends.local import LocalBackend
from conformance.cases import load_all
from conformance.run import power
from tests.planted import planted

ROOT = Path(__file__).resolve().parents[1]
# The verdict each kind of defect gives where it is caught (a rule ignored may also be wrong_rule: an input that
# breaks that rule and a later one is rejected for the later one)
VERDICTS = {"ignores-": {"accepted_invalid", "wrong_rule"}, "inverts-": {"rejected_valid", "accepted_invalid"},
            "explicit-range-off-by-one": {"rejected_valid"}, "negative-zero-lost": {"wrong_values"},
            "nan-payload-dropped": {"wrong_values"}, "signalling-nan-quieted": {"wrong_values"},
            "subnormals-flushed": {"wrong_values"}, "int64-": {"wrong_values"}, "narrow-types-widened": {"wrong_dtype"},
            "tiles-flat": {"wrong_values"}, "explicit-aligned-right": {"wrong_values"},
            "last-axis-off-by-one": {"wrong_values"}, "rejects-empty-output": {"rejected_valid"},
            "scalar-as-vector": {"rejected_valid", "wrong_shape"}, "high-ranks-unwritten": {"wrong_values"},
            "crashes-": {"crash"}, "hangs-": {"timeout"}, "target-read-as-int32": {"rejected_valid", "wrong_shape"},
            "bidirectional-takes-the-max": {"wrong_shape"},
            "only-minus-one-rejected": {"accepted_invalid", "wrong_rule"},
            "unsigned-shape-read-as-signed": {"rejected_valid", "wrong_shape", "accepted_invalid"}}


def _cases():
    loaded, errors = load_all(ROOT / "cases")
    assert not errors
    return [case for cases in loaded.values() for case in cases]


def test_the_correct_implementation_is_caught_by_neither():
    backend = LocalBackend()
    assert not power.by_cases(backend, "local", _cases(), power.InProcess()).caught
    assert not power.by_generated(backend, "local", power.InProcess()).caught


def test_a_planted_bug_for_each_rule_each_value_class_and_each_shape_concern():
    names = {cls.name for _, cls in planted()}
    rules = set(reference.RULES) - {"unknown_mode", "axes_mapping_not_1d", "v0_axes_range", "v0_shape"}
    assert {f"ignores-{rule.replace('_', '-')}" for rule in rules} <= names
    assert {"negative-zero-lost", "nan-payload-dropped", "signalling-nan-quieted", "subnormals-flushed",
            "int64-rounded-through-float64", "int64-truncated-to-int32", "narrow-types-widened",
            "rejects-empty-output", "scalar-as-vector", "high-ranks-unwritten", "target-read-as-int32",
            "bidirectional-takes-the-max", "tiles-flat", "explicit-aligned-right", "last-axis-off-by-one"} <= names
    assert [cls.name for _, cls in planted() if cls.isolated] == ["crashes-on-stretched-inner-axis", "hangs-on-rank-4"]
    for _, cls in planted():
        assert cls.__doc__ and cls.__doc__.strip(), cls


@pytest.fixture(scope="module")
def rows():
    return list(power.measure([ref for ref, _ in planted()], ROOT / "cases", timeout=2.0))


def test_the_yaml_cases_catch_every_planted_bug_and_the_generated_check_nine_in_ten(rows):
    missed = [r.name for r in rows if not r.cases.caught]
    assert not missed, f"the YAML cases miss {missed}: each needs a case"
    caught = [r.name for r in rows if r.generated.caught]
    assert len(caught) >= 0.9 * len(rows), f"the generated check catches {len(caught)} of {len(rows)}"
    assert power.enough(rows)


def test_each_planted_bug_is_caught_with_the_verdict_its_defect_gives(rows):
    for row in rows:
        (expected,) = [verdicts for prefix, verdicts in VERDICTS.items() if row.name.startswith(prefix)]
        for caught in (row.cases, row.generated):
            assert not caught.caught or caught.verdict in expected, (row.name, caught)


def test_the_command_prints_the_table_and_fails_below_the_goals(capsys):
    assert main(["power", "--only", "NegativeZeroLost", "--only", "TilesFlat"]) == 0
    out = capsys.readouterr().out
    assert "negative-zero-lost" in out and "tiles-flat" in out and "cases: yes: " in out
    assert "2 planted bugs: the YAML cases catch 2 (100%" in out
    assert main(["power", "--only", "NegativeZeroLost", "--generated-examples", "0"]) == 1
    assert "generated: no (0 checks)" in capsys.readouterr().out
