"""The tables that say which rule a runtime's rejection is about (conformance/rejections), and what the judge and
the report make of them."""

from __future__ import annotations

import re

import pytest

from conformance import rejections
from conformance import verdicts as v
from conformance.backends.base import Outcome
from conformance.judge import judge_rejection
from conformance.ops.broadcast import traits  # noqa: F401  (the op's rules are registered with it)
from conformance.report.overview import rejections_by_column
from conformance.results.record import Actual, CheckRecord, Expected, Results, RunInfo

BUILT_IN = ("openvino", "openvino-onnx", "onnxruntime", "onnx-reference")
RULES = {"numpy_dim", "numpy_rank", "bidirectional_dim", "explicit_dim", "explicit_length", "explicit_range",
         "explicit_negative", "explicit_unsorted", "explicit_duplicate", "target_shape_negative",
         "target_shape_not_1d", "axes_mapping_not_1d", "axes_mapping_missing", "axes_mapping_unexpected",
         "onnx_shape_int64", "none_shapes_differ", "one_directional", rejections.NOT_A_RULE}  # elementwise too

# Messages as the runtimes give them (from a default run), and the rule each is about.
MESSAGES = [
    ("openvino", "Check 'arg_shape[i - start_axis].is_dynamic() || ...' failed at src/core/shape_inference/include/"
                 "broadcast_shape_inference.hpp:79:\nWhile validating node 'opset1::Broadcast ...':\nInput shape "
                 "dimension equal 3 cannot be broadcasted (numpy mode) to 2. Allowed input dimension value would be "
                 "1 or 2\n", "numpy_dim|bidirectional_dim"),
    ("openvino", "Broadcast target[axes_mapping[0]]. Expected 1. Got 3", "explicit_dim"),
    ("openvino", "Broadcast axes_mapping[1]: 18446744073709551615 exceeds target rank 2",
     "explicit_range|explicit_negative"),
    ("openvino", "Exception from src/plugins/intel_cpu/src/cpu_shape.h:128:\nCannot get dims for non static shape",
     rejections.NOT_A_RULE),
    ("openvino-onnx", "-- Conversion is failed for: Expand-13\nCheck ... failed at src/core/shape_inference/include/"
                      "broadcast_shape_inference.hpp:150:\nBroadcast incorrect target shape. Expecting either 1 or 3."
                      " Got 2", "bidirectional_dim"),
    ("onnxruntime", "Fail: [ONNXRuntimeError] : 1 : FAIL : Node () Op (Expand) [ShapeInferenceError] Incompatible "
                    "dimensions", "bidirectional_dim"),
    ("onnxruntime", "InvalidGraph: [ONNXRuntimeError] : 10 : INVALID_GRAPH : This is an invalid model. Type Error: "
                    "Type 'tensor(int32)' of input parameter (shape) of operator (Expand) in node () is invalid.",
     "onnx_shape_int64"),
    ("onnx-reference", "ValueError: negative dimensions are not allowed", "target_shape_negative"),
]


@pytest.mark.parametrize("backend", BUILT_IN)
def test_every_built_in_backend_has_a_table_of_rules_with_their_sources(backend):
    patterns = rejections.table(backend)
    assert patterns, f"no table for {backend}"
    for p in patterns:
        assert set(p.rules) <= RULES, p.where
        assert re.match(r"https://github\.com/[\w.-]+/[\w.-]+/blob/[\w.]+/\S+", p.source), p.where
        assert (p.why is not None) == (p.rules == (rejections.NOT_A_RULE,)), p.where


@pytest.mark.parametrize(("backend", "message", "rule"), MESSAGES)
def test_a_message_is_classified_into_the_rule_it_enforces(backend, message, rule):
    found = rejections.classify(backend, message)
    assert found is not None and found.rule == rule


def test_a_message_no_pattern_matches_is_unclassified_and_a_backend_without_a_table_classifies_nothing():
    assert rejections.classify("openvino", "something else entirely") is None
    assert rejections.classify("no-such-backend", "Broadcast axes rank must be 1, but has 2") is None
    outcome = Outcome(error="something else entirely", stage="compile")
    assert rejections.classified(outcome, "openvino") == outcome


def test_a_rule_the_backend_names_itself_is_kept():
    outcome = Outcome(error="Broadcast axes rank must be 1, but has 2", stage="validate", rule="numpy_dim")
    assert rejections.classified(outcome, "openvino").rule == "numpy_dim"
    assert rejections.classified(Outcome(error=outcome.error, stage="build"), "openvino").rule == \
        "axes_mapping_not_1d"


def test_the_judge_passes_the_right_rule_and_fails_another_or_none():
    def judged(message: str, want: str) -> tuple[str, str]:
        j = judge_rejection(rejections.classified(Outcome(error=message, stage="build"), "openvino"), want)
        return j.verdict, j.message or ""

    message = MESSAGES[0][1]
    assert judged(message, "numpy_dim")[0] == v.PASS
    assert judged(message, "bidirectional_dim")[0] == v.PASS  # the message is about either
    verdict, text = judged(message, "axes_mapping_unexpected")
    assert verdict == v.WRONG_RULE and "for rule numpy_dim|bidirectional_dim" in text
    assert "breaks rule axes_mapping_unexpected" in text
    verdict, text = judged("Cannot get dims for non static shape", "target_shape_negative")
    assert verdict == v.WRONG_RULE and "for no rule of the spec (the CPU plugin asks" in text
    verdict, text = judged("something else entirely", "numpy_dim")
    assert verdict == v.PASS and text == "rejected at build: something else entirely"
    # a backend's own rule in parentheses after the spec's: the spec's rule is compared
    assert judge_rejection(Outcome(error="x", stage="build", rule="onnx_shape_int64"),
                           "onnx_shape_int64 (ONNX Expand's shape input is tensor(int64) only)").verdict == v.PASS


def test_an_input_that_breaks_the_specs_rule_and_the_backends_own_passes_a_rejection_for_either():
    from conformance.cases import Case
    from conformance.ops.broadcast import params
    from conformance.run.plan import Check

    raw = {"mode": "bidirectional", "data_shape": [2, 1], "target_shape": 3}  # rank 0: target_shape_not_1d
    case = Case(id="c", file="f", line=1, group="rule", op="broadcast", params=params.parse(raw), expect_shape=None,
                expect_reject="target_shape_not_1d", spec_ref="s")
    own = "onnx_shape_int64 (ONNX Expand's shape input is tensor(int64) only)"
    want = Check(case, "b", "b", None, "", "f32", shape_dtype="i8", backend_rule=own).expect_reject
    assert want == f"target_shape_not_1d|{own}"
    assert Check(case, "b", "b", None, "", "f32").expect_reject == "target_shape_not_1d"
    for rule in ("target_shape_not_1d", "onnx_shape_int64"):
        assert judge_rejection(Outcome(error="x", stage="build", rule=rule), want).verdict == v.PASS
    judged = judge_rejection(Outcome(error="x", stage="infer", rule="numpy_rank"), want)
    assert judged.verdict == v.WRONG_RULE
    assert "breaks rule target_shape_not_1d or onnx_shape_int64" in (judged.message or "")


def test_a_bad_table_is_refused_with_its_file_and_line(tmp_path, monkeypatch):
    (tmp_path / "bad.yaml").write_text("patterns:\n  - rule: numpy_dim\n    pattern: 'x'\n"
                                       "    source: https://github.com/a/b/blob/c/d#L1\n"
                                       "  - rule: not_a_rule\n    pattern: 'y'\n"
                                       "    source: https://github.com/a/b/blob/c/d#L2\n")
    monkeypatch.setattr(rejections, "TABLES_DIR", tmp_path)
    rejections.table.cache_clear()
    try:
        with pytest.raises(rejections.RejectionTableError, match=r"bad\.yaml:5: not_a_rule stands alone and says why"):
            rejections.table("bad")
        (tmp_path / "bad.yaml").write_text("patterns:\n  - rule: numpy_dim\n    pattern: '('\n    source: s\n")
        rejections.table.cache_clear()
        with pytest.raises(rejections.RejectionTableError, match=r"bad\.yaml:2: pattern '\(':"):
            rejections.table("bad")
    finally:
        rejections.table.cache_clear()


def _check(verdict: str, rule: str | None, stage: str = "build", known: dict | None = None,
           error: str | None = "refused") -> CheckRecord:
    return CheckRecord(id=f"c{verdict}{rule}{stage}", case="c", op="broadcast", backend="openvino",
                       backend_version="1", path={}, variant="v", dtype="f32", shape_dtype="i64", verdict=verdict,
                       expected=Expected(reject="numpy_dim"), known=known,
                       actual=Actual(error=error, stage=stage, rule=rule))


def test_the_report_counts_rejections_per_column_by_stage_wrong_rule_and_unclassified():
    checks = [_check(v.PASS, "numpy_dim"), _check(v.PASS, None, "infer"), _check(v.WRONG_RULE, "numpy_rank"),
              _check(v.KNOWN, rejections.NOT_A_RULE, known={"verdict": v.WRONG_RULE}),
              _check(v.CRASH, None, "worker", error="signal 11 (SIGSEGV)"),  # no rejection: a crash
              _check(v.KNOWN, None, "compile", known={"verdict": v.OUT_OF_MEMORY}, error="std::bad_alloc"),  # nor that
              _check(v.ACCEPTED_INVALID, None, error=None)]
    results = Results(run=RunInfo(), backends={}, cases={}, checks=checks)
    (column,) = rejections_by_column(results).values()
    assert column == {"total": 4, "wrong_rule": 2, "unclassified": 1, "stages": {"build": 3, "infer": 1}}
