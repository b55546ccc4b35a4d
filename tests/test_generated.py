"""The generated checks: what the strategy draws, and how a failure is shrunk and written as a case (how a
known difference explains a generated failure: tests/test_known.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import find, given, settings

import reference
from conformance.backends.local import LocalBackend
from conformance.cases import load_all
from conformance.data import FLOATS, salt, specials_held
from conformance.ops import get as get_op
from conformance.ops.broadcast import strategy
from conformance.run import generated
from tests.fake_backends import ZeroFlipBackend

ROOT = Path(__file__).resolve().parents[1]


class in_process:  # noqa: N801  (a Runner that runs each check in this process)
    def __init__(self, backend):
        self.backend = backend

    def outcome(self, check, request):
        return self.fresh(check, request), "own, fresh worker"

    def fresh(self, check, request, timeout=None):
        return self.backend.declare(request) if request.shape_only else self.backend.run(request)

    def doubt(self, check):
        pass  # this process is the only one


@settings(max_examples=300, database=None, deadline=None)
@given(drawn=strategy.inputs())
def test_the_expectation_of_a_drawn_input_is_the_reference_outcome(drawn):
    case = generated.as_case(drawn)
    try:
        p = case.params
        assert reference.output_shape(p.data_shape, p.target_shape, p.axes_mapping, p.mode) \
            == case.expect_shape
    except reference.BroadcastRuleError as e:
        assert e.rule == case.expect_reject


@pytest.mark.parametrize(("mode", "outcome"), [
    *[(mode, outcome) for mode in ("numpy", "explicit", "bidirectional") for outcome in ("valid",
                                                                                          "target_shape_negative")],
    ("numpy", "numpy_dim"), ("numpy", "numpy_rank"), ("numpy", "axes_mapping_unexpected"),
    ("bidirectional", "bidirectional_dim"), ("explicit", "explicit_dim"), ("explicit", "explicit_length"),
    ("explicit", "explicit_range"), ("explicit", "explicit_unsorted"), ("explicit", "explicit_duplicate"),
    ("explicit", "axes_mapping_missing"), ("explicit", "explicit_negative"),
    *[(mode, "target_shape_not_1d") for mode in ("numpy", "explicit", "bidirectional")]])
def test_the_strategy_draws_every_mode_valid_and_breaking_each_rule(mode, outcome):
    """Each outcome is one the strategy can draw (found by search, whatever hypothesis version draws)."""
    def hit(drawn):
        case = generated.as_case(drawn)
        return case.params.mode == mode and (case.expect_reject or "valid") == outcome

    found = find(strategy.inputs(), hit, settings=settings(max_examples=20000, database=None))
    assert hit(found)


def test_a_divergence_is_shrunk_to_a_minimal_input_and_written_as_a_case(tmp_path):
    backend = ZeroFlipBackend()  # copies -0.0 as +0.0: every float output that holds the first value differs
    found = generated.search(backend, "zeroflip", in_process(backend), [], None, 60, 7, 2**20)
    assert found.failure is not None
    check, drawn, record = found.failure
    message = record.message
    assert record.verdict == "wrong_values" and "out[" in message
    assert check.dtype in FLOATS
    # shrunk within its stratum (its mode, outcome and band of ranks) towards the first of each choice: every
    # dimension the strategy's first (2) or 1; its data holds -0.0 (conformance.data.specials_held)
    assert set(check.case.expect_shape) <= {1, strategy.DIMS[0]}
    params = check.case.params
    held = specials_held(params.data_shape, check.dtype, salt(get_op(check.case.op).to_json(params)))
    with np.errstate(invalid="ignore"):  # a signalling NaN of a float8 type, widened
        assert any(np.signbit(v) and v == 0 for v in held.astype(np.float64).tolist())
    assert found.shrinks > 0
    path = generated.write_found(tmp_path / "cases", check, drawn, message, 7, 60)
    assert path.parent == tmp_path / "cases" / "found"
    text = path.read_text()
    assert "seed 7" in text and "--generated-seed 7" in text
    loaded, errors = load_all(tmp_path / "cases", tmp_path)
    assert not errors
    (case,) = loaded[path]
    assert case.group == "found" and case.id.startswith("found_")
    assert (case.params.mode, case.params.data_shape, case.expect_shape) == (check.case.params.mode,
                                                                              check.case.params.data_shape,
                                                               check.case.expect_shape)
    assert case.dtypes == (check.dtype,)
    # written once: a second write keeps the file
    path.write_text(text + "# edited\n")
    assert generated.write_found(tmp_path / "cases", check, drawn, message, 7, 60).read_text().endswith("# edited\n")


def test_the_plugin_writes_a_found_case_that_later_runs_as_a_named_case(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makepyfile(test_conformance="")
    (pytester.path / "cases").mkdir()
    (pytester.path / "cases" / "one.yaml").write_text(
        "group: rule\ncases:\n  - id: one\n    mode: numpy\n    data_shape: [1]\n    target_shape: [2]\n"
        "    expect: {shape: [2]}\n    spec_ref: \"003_38ca088f58e9a6c7.txt#Examples\"\n    dtypes: [i8]\n")
    args = ("-p", "conformance.plugin", "-p", "no:cacheprovider", "--backend", "tests.fake_backends:ZeroFlipBackend",
            "--generated-examples", "70", "--generated-seed", "5", "--results", "out.json", "--report", "none")
    first = pytester.runpytest_subprocess(*args)
    first.assert_outcomes(passed=1, failed=1)  # the named case (v1 and v3: one item); the generated search
    first.stdout.fnmatch_lines(["*a generated input no known difference explains, shrunk and written to*found_*"])
    (found,) = (pytester.path / "cases" / "found").glob("found_*.yaml")
    data = json.loads((pytester.path / "out.json").read_text())
    (gen,) = [c for c in data["checks"] if c["case"] == "generated"]
    assert gen["verdict"] == "wrong_values" and str(found) in gen["message"]
    assert data["cases"]["generated"]["group"] == "generated"

    second = pytester.runpytest_subprocess(*args)
    data = json.loads((pytester.path / "out.json").read_text())
    named = [c for c in data["checks"] if c["case"] == found.stem]
    assert named and {c["verdict"] for c in named} == {"wrong_values"}
    assert data["cases"][found.stem]["group"] == "found"
    second.assert_outcomes(passed=1, failed=2)  # the generated search, and the found case (one item)


@pytest.mark.parametrize("index", range(len(strategy.STRATA)))
def test_each_example_draws_the_mode_and_outcome_its_stratum_names(index):
    mode, outcome, (low, high), kind = strategy.stratum(index)

    @settings(max_examples=25, database=None, deadline=None)
    @given(drawn=strategy.inputs(index))
    def drawn_in_stratum(drawn):
        case = generated.as_case(drawn)
        assert (case.params.mode, case.expect_reject or "valid") == (mode, outcome)
        output_rank = len(case.expect_shape) if case.valid else None
        assert output_rank is None or output_rank >= min(low, strategy.MAX_RANK)
        if kind == "zero" and case.valid and output_rank:
            assert 0 in case.expect_shape

    drawn_in_stratum()


def test_the_default_examples_take_every_stratum_every_band_of_ranks_and_many_types():
    """What the issue asked of the default search: each (mode, outcome) stratum, ranks up to MAX_RANK, element
    types and shape types beyond the two the search drew from before."""
    backend = LocalBackend()
    seen = []
    runner = in_process(backend)
    original = runner.fresh

    def spy(check, request):
        seen.append(check)
        return original(check, request)

    runner.fresh = spy
    found = generated.search(backend, "local", runner, [], None, generated.DEFAULT_EXAMPLES, generated.DEFAULT_SEED,
                             2**28)
    assert found.failure is None and found.examples == generated.DEFAULT_EXAMPLES
    strata = {(c.case.params.mode, c.case.expect_reject or "valid") for c in seen}
    assert strata == set(strategy.STRATA)
    ranks = {len(c.case.expect_shape) for c in seen if c.case.valid}
    assert max(ranks) >= 7 and 0 in ranks
    assert len({c.dtype for c in seen}) >= 15 and len({c.shape_dtype for c in seen}) >= 4
    assert any(max(c.case.params.target_shape) > 2**31 for c in seen if c.case.valid and c.case.params.target_shape)
    assert any(0 in c.case.expect_shape for c in seen if c.case.valid)


def test_the_default_search_takes_each_stratum_once():
    assert generated.PER_STRATUM * len(strategy.STRATA) == generated.DEFAULT_EXAMPLES
