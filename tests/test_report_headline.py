"""The report's headline: the run's status in words, the unexpected failures per column with the filter that shows
exactly them, the failures new since a compared run, and an incomplete run."""

from __future__ import annotations

import copy

import pytest
import sample_results as sample
from test_report import parse

from conformance import report
from conformance.report.headline import failing_filter, headline
from conformance.report.tally import Tally


@pytest.fixture(scope="module")
def merged() -> dict:
    return sample.merged()


def _headline(data: dict, compare: dict | None = None):
    return parse(report.render(data, compare)).by_id("headline")


def test_a_failing_run_says_so_and_counts_each_columns_unexpected_failures(merged):
    hl = _headline(merged)
    assert hl.attrs["data-status"] == "failed"
    # sample_results.VERDICTS_BY_CELL: openvino@2024.6.0 wrong_shape 1 + rejected_valid 2 + wrong_values 4; local
    # accepted_invalid 1; onnxruntime@1.18.1 crash 2 + wrong_values 2; openvino@2025.0.0 timeout, wrong_dtype, error
    assert "Failed: 15 unexpected failures in 4 columns (backend@version), 1 collection error." in hl.words
    items = {li.attrs["data-col"]: li for li in hl.find_all("li", data_col=True)}
    assert {col: li.find_all("b")[0].text for col, li in items.items()} == {
        "local": "1", "onnxruntime@1.18.1": "4", "openvino@2024.6.0": "7", "openvino@2025.0.0": "3"}
    assert items["openvino@2025.0.0"].find_all("a")[0].attrs["href"] == "#col=openvino%402025.0.0&v=failing"
    assert [a.attrs["href"] for a in hl.find_all("a") if "all 15" in a.text] == ["#v=failing"]


def test_a_run_without_unexpected_failures_passes_in_words():
    data = sample.main_run()
    data["collection_errors"] = []
    data["checks"] = [c for c in data["checks"] if c["verdict"] in ("pass", "known_difference", "not_applicable")]
    hl = _headline(data)
    assert hl.attrs["data-status"] == "passed"
    n = sum(c["verdict"] != "not_applicable" for c in data["checks"])
    known = sum(c["verdict"] == "known_difference" for c in data["checks"])
    assert f"Passed: every one of the {n:,} applicable checks passed or is a known difference ({known})." in hl.words
    assert hl.find_all("li") == []


def test_failures_new_since_the_compared_run_are_counted_and_linked():
    old, new = sample.main_run(), sample.main_run()
    old["run"]["started"] = "2025-01-30T08:00:00+00:00"  # the same start would be this run's own file
    check = next(c for c in new["checks"] if c["verdict"] == "pass" and c["backend"] == "local")
    check["verdict"] = "wrong_values"
    hl = _headline(new, old)
    link = [a for a in hl.find_all("a") if a.attrs["href"] == "#changes-new_failures"]
    assert [a.words for a in link] == ["1 new failure"]
    assert "since the compared run of 2025-01-30T08:00:00+00:00" in hl.words
    again = copy.deepcopy(old)
    again["run"]["started"] = "2025-01-31T08:00:00+00:00"
    assert "No new failure since" in _headline(again, old).words


def test_an_incomplete_run_fails_the_headline_and_says_why(merged):
    data = copy.deepcopy(sample.main_run())
    data["collection_errors"] = []
    data["checks"] = [c for c in data["checks"] if c["verdict"] == "pass"]
    data["run"]["complete"] = False
    hl = _headline(data)
    assert hl.attrs["data-status"] == "failed"
    assert "Failed: the run did not finish." in hl.words
    assert "Incomplete run" in hl.by_id("incomplete").text


def test_large_counts_are_written_with_a_thousands_separator():
    passed = headline({"a": Tally.of(["pass"] * 1234 + ["known_difference"] * 1001)}, complete=True,
                      collection_errors=0, changes=None)
    assert passed["words"] == ("Passed: every one of the 2,235 applicable checks passed or is a known difference "
                               "(1,001).")
    failed = headline({"a": Tally.of(["crash"] * 1500), "b": Tally.of(["pass"])}, complete=True, collection_errors=0,
                      changes=None)
    assert failed["words"] == "Failed: 1,500 unexpected failures on 1 backend."
    assert [c["column"] for c in failed["columns"]] == ["a"]


def test_the_failing_filter_is_the_pages_own_hash():
    assert failing_filter() == "v=failing"
    assert failing_filter("a b@1") == "col=a+b%401&v=failing"
