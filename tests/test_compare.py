"""Judging is strict: shape, declared shape, dtype, then bytes; NaN payloads and signed zeros count."""

from __future__ import annotations

import numpy as np
import pytest

from conformance import verdicts as v
from conformance.backends import Outcome
from conformance.judge import declared_matches, first_difference
from conformance.judge import judge_outcome as judge  # an outcome against the reference, no known differences

F32 = np.array([0.0, np.nan, 1.5, -2.0], np.float32)


def bits32(*words: int) -> np.ndarray:
    return np.array(words, np.uint32).view(np.float32)


def test_identical_bytes_pass():
    assert judge(F32, None, Outcome(output=F32.copy())).verdict == v.PASS


def test_nan_equals_nan_when_the_bits_do():
    nan = bits32(0x7FC00000)
    assert judge(nan, None, Outcome(output=nan.copy())).verdict == v.PASS


def test_signed_zero_differs():
    j = judge(bits32(0x80000000), None, Outcome(output=bits32(0x00000000)))
    assert j.verdict == v.WRONG_VALUES
    assert j.first_diff["index"] == [0] and "-0.0" in j.first_diff["expected"] and "0x00000000" in j.message


def test_nan_payload_differs():
    j = judge(bits32(0x7FC00123), None, Outcome(output=bits32(0x7FC00000)))
    assert j.verdict == v.WRONG_VALUES and "0x7fc00123" in j.message and "0x7fc00000" in j.message


def test_first_difference_reports_index_and_count():
    expected = np.arange(12, dtype=np.int64).reshape(3, 4)
    actual = expected.copy()
    actual[1, 2] = 99
    actual[2, 3] = 98
    diff = first_difference(expected, actual)
    assert diff == {"index": [1, 2], "expected": "6 (0x0000000000000006)", "actual": "99 (0x0000000000000063)",
                    "count": 2, "size": 12}


def test_bool_bytes_are_compared():
    actual = np.array([2], np.uint8).view(np.bool_)  # a "true" byte that is not 1
    assert judge(np.array([True]), None, Outcome(output=actual)).verdict == v.WRONG_VALUES


def test_shape_before_dtype_before_values():
    expected = np.zeros((2, 3), np.float32)
    assert judge(expected, None, Outcome(output=np.ones((3, 2), np.float64))).verdict == v.WRONG_SHAPE
    j = judge(expected, None, Outcome(output=np.ones((2, 3), np.float64)))
    assert j.verdict == v.WRONG_DTYPE and j.message == "out.dtype=float64, but should be float32"


def test_wrong_shape_message_reads_actual_then_expected():
    j = judge(np.zeros((2, 3, 6)), None, Outcome(output=np.zeros((2, 1, 6))))
    assert j.message == "out.shape=(2, 1, 6), but should be (2, 3, 6)"


@pytest.mark.parametrize("declared, ok", [(None, True), ((2, 3), True), ((None, 3), True), ((None, None), True),
                                          ((3, 2), False), ((2, 3, 1), False), ((6,), False)])
def test_declared_shape_must_be_compatible(declared, ok):
    assert declared_matches(declared, (2, 3)) is ok
    j = judge(np.zeros((2, 3)), None, Outcome(output=np.zeros((2, 3)), declared_shape=declared))
    assert (j.verdict == v.PASS) is ok
    if not ok:
        assert j.verdict == v.WRONG_SHAPE and j.message.startswith("declared shape=")


def test_rejections():
    assert judge(None, "numpy_dim", Outcome(error="no", stage="build")).verdict == v.PASS
    j = judge(None, "numpy_dim", Outcome(output=np.zeros((2,))))
    assert j.verdict == v.ACCEPTED_INVALID and "[numpy_dim]" in j.message
    j = judge(np.zeros(2), None, Outcome(error="refused", stage="compile"))
    assert j.verdict == v.REJECTED_VALID and "rejected at compile: refused" in j.message


def test_worker_fates_come_first():
    assert judge(np.zeros(2), None, Outcome(crash="signal 11 (SIGSEGV)")).verdict == v.CRASH
    assert judge(None, "numpy_dim", Outcome(timeout=5.0)).verdict == v.TIMEOUT
    assert judge(np.zeros(2), None, Outcome(adapter_error="Traceback")).verdict == v.ERROR
    assert judge(np.zeros(2), None, Outcome()).verdict == v.ERROR
