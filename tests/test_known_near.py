"""For a failing check no known difference explains, the entries whose conditions all hold but one ("looks like"):
unit by unit on the suite's own entries, and end to end through a run (the record, the pytest message)."""

from __future__ import annotations

from test_known import case, entries, entry, facts

from conformance import known
from conformance.known.near import describe, nearest

EXAMPLE = case("explicit", (3,), (2, 3, 4, 5), [1], case_id="readme_example_not_in_any_list")


def _near(found: list[dict], entry_id: str) -> dict | None:
    return next((n for n in found if n["id"] == entry_id), None)


def test_a_real_entry_that_differs_in_the_dtype_only_is_named_with_the_condition():
    ov = known.load()["openvino"]
    i64 = next(k for k in ov if k.id == "ov-cpu-i64-computed-as-i32")
    assert known.trait_holds(EXAMPLE, "i64_data_beyond_int32")  # the entry's inputs hold: only the dtype differs
    assert i64.matches(facts(EXAMPLE, "opset3-const", "i64"))
    found = nearest(ov, facts(EXAMPLE, "opset3-const", "i32"), "wrong_values", limit=len(ov))
    near = _near(found, "ov-cpu-i64-computed-as-i32")
    assert near == {"id": "ov-cpu-i64-computed-as-i32", "differs_in": "dtype", "entry": "i64", "check": "i32",
                    "verdict": "wrong_values", "where": i64.where}
    assert describe(near) == ("looks like ov-cpu-i64-computed-as-i32 (differs in: dtype: the entry asks i64, the "
                              f"check has i32; {i64.where})")


def test_an_entry_that_differs_in_two_conditions_is_not_near():
    ov = known.load()["openvino"]
    small = case("numpy", (0,), (0,), case_id="no_element")  # no element: no value beyond int32
    assert not known.trait_holds(small, "i64_data_beyond_int32")
    assert _near(nearest(ov, facts(small, "opset3-const", "i32"), limit=len(ov)), "ov-cpu-i64-computed-as-i32") is None
    # on i64 the dtype holds and the trait alone differs
    near = _near(nearest(ov, facts(small, "opset3-const", "i64"), limit=len(ov)), "ov-cpu-i64-computed-as-i32")
    assert near is not None and (near["differs_in"], near["entry"], near["check"]) == (
        "inputs", "i64_data_beyond_int32", "not i64_data_beyond_int32")


def test_each_path_axis_and_each_trait_is_a_condition_of_its_own(tmp_path):
    [k] = entries(tmp_path, entry("  match:\n    dtype: f32\n    path: {opset: '3', target_shape: Parameter}\n"
                                  "  inputs: [valid, not zero_size_data]\n"))
    assert [(c.name, c.wants) for c in k.conditions] == [
        ("dtype", "f32"), ("shape_only", "false"), ("path.opset", "3"), ("path.target_shape", "Parameter"),
        ("inputs", "valid"), ("inputs", "not zero_size_data")]
    found = nearest([k], facts(case(), "opset3-const", "f32"))
    assert [(n["differs_in"], n["entry"], n["check"]) for n in found] == [
        ("path.target_shape", "Parameter", "Constant")]
    assert nearest([k], facts(case(), "opset1-const", "f32")) == []  # opset and target_shape: two conditions


def test_entries_of_the_checks_verdict_come_first_and_one_condition_entries_are_never_near(tmp_path):
    ks = entries(tmp_path, entry("  match: {dtype: i8, mode: numpy}\n", "crash", "a") +
                 entry("  match: {dtype: i16, mode: numpy}\n", "wrong_shape", "b") +
                 entry("  match: {dtype: u8}\n", "wrong_shape", "c"))
    assert [n["id"] for n in nearest(ks, facts(case(), dtype="f32"), "wrong_shape")] == ["b", "a"]
    assert [n["id"] for n in nearest(ks, facts(case(), dtype="f32"), "crash")] == ["a", "b"]
    assert [n["id"] for n in nearest(ks, facts(case(), dtype="f32"), "crash", limit=1)] == ["a"]
