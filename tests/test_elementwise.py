"""The elementwise op (conformance/ops/elementwise/): its reference rule and local_broadcast's, each rule's error with
its name and message, the case files against the reference, the values that keep results exact, and a case that
contradicts the rules as a collection error at its line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from conformance import ops
from conformance.cases import CaseFileError, load_all, load_file
from conformance.ops.elementwise import functions, params, traits, values
from local_broadcast.elementwise import ElementwiseError, broadcast_operands, common_shape
from reference import elementwise as reference

ROOT = Path(__file__).resolve().parents[1]

# (shapes, auto_broadcast, direction, expected shape or rule): zero-size and rank 0 first
GOLDEN = [
    ([[], []], "numpy", "multidirectional", ()),
    ([[0], [1]], "numpy", "multidirectional", (0,)),
    ([[0], []], "numpy", "multidirectional", (0,)),
    ([[1, 0], [5, 1]], "numpy", "multidirectional", (5, 0)),
    ([[0], [3]], "numpy", "multidirectional", "numpy_dim"),
    ([[3], [0]], "numpy", "multidirectional", "numpy_dim"),
    ([[2, 3], [1]], "numpy", "multidirectional", (2, 3)),
    ([[6, 5], [2, 1, 5]], "numpy", "multidirectional", (2, 6, 5)),
    ([[3, 1, 5], [4, 4, 5]], "numpy", "multidirectional", "numpy_dim"),
    ([[2], [2, 3]], "numpy", "multidirectional", "numpy_dim"),
    ([[2, 1, 1], [1, 3, 1], [1, 1, 4]], "numpy", "multidirectional", (2, 3, 4)),
    ([[2], [1], [3]], "numpy", "multidirectional", "numpy_dim"),
    ([[2, 3], [2, 3]], "none", "multidirectional", (2, 3)),
    ([[], [1]], "none", "multidirectional", "none_shapes_differ"),
    ([[2, 3], [2, 3], [3]], "none", "multidirectional", "none_shapes_differ"),
    ([[2, 3, 4], [1, 3, 1]], "numpy", "unidirectional", (2, 3, 4)),
    ([[2, 3], []], "numpy", "unidirectional", (2, 3)),
    ([[3], [2, 3]], "numpy", "unidirectional", "one_directional"),
    ([[], [1]], "numpy", "unidirectional", "one_directional"),
    ([[2, 3], [4]], "numpy", "unidirectional", "numpy_dim"),
    ([[2, 3], [3]], "none", "unidirectional", "none_shapes_differ"),
]


def _row_id(row: tuple) -> str:
    shapes, auto, direction, _ = row
    return f"{auto}-{direction[:3]}-" + "-".join("x".join(map(str, s)) or "scalar" for s in shapes)


@pytest.mark.parametrize(("shapes", "auto", "direction", "want"), GOLDEN, ids=[_row_id(r) for r in GOLDEN])
def test_reference_and_local_agree_with_the_golden_table(shapes, auto, direction, want):
    for name, rule_of, error in [("reference", reference.output_shape, reference.ElementwiseRuleError),
                                 ("local", common_shape, ElementwiseError)]:
        if isinstance(want, str):
            with pytest.raises(error) as caught:
                rule_of(shapes, auto, direction)
            assert caught.value.rule == want, f"{name} rule={caught.value.rule}, but should be {want}"
            assert f"[{want}]" in str(caught.value), f"{name} message={caught.value}, but should name [{want}]"
        else:
            got = rule_of(shapes, auto, direction)
            assert got == want, f"{name} shape={got}, but should be {want} [{auto} {direction} {shapes}]"


def test_every_rule_is_in_the_golden_table_and_has_a_rejecting_case():
    assert {row[3] for row in GOLDEN if isinstance(row[3], str)} == set(reference.RULES)
    loaded, errors = load_all(ROOT / "cases")
    assert not errors, errors
    rejected = {c.expect_reject for cases in loaded.values() for c in cases if c.op == "elementwise" and not c.valid}
    assert rejected == set(reference.RULES), f"rules with a case={rejected}, but should be {set(reference.RULES)}"


def test_the_rule_messages_name_the_values():
    with pytest.raises(reference.ElementwiseRuleError, match=r"dimensions \[3, 4\] on axis 0"):
        reference.output_shape([[3, 1, 5], [4, 4, 5]])
    with pytest.raises(ElementwiseError, match=r"3 against 4, 3 from the right"):
        common_shape([[3, 1, 5], [4, 4, 5]], op="Add")
    with pytest.raises(ElementwiseError, match=r"Add\(none\): .*got shapes \(2, 3\), \(3,\)"):
        common_shape([[2, 3], [3]], "none", op="Add")
    with pytest.raises(ValueError, match="auto_broadcast must be numpy or none"):
        common_shape([[2], [2]], "pdpd")


def test_local_operands_are_views_of_the_common_shape():
    a, b = np.arange(3), np.arange(2).reshape(2, 1)
    left, right = broadcast_operands([a, b])
    assert left.shape == right.shape == (2, 3)
    assert not left.flags.writeable and left.strides[0] == 0, f"strides={left.strides}, but should be (0, 8)"


def test_spec003_examples_are_all_cases():
    loaded, _ = load_all(ROOT / "cases")
    examples = {tuple(map(tuple, c.params.shapes)): (c.expect_shape, c.expect_reject)
                for cases in loaded.values() for c in cases if c.op == "elementwise" and c.group == "spec_example"}
    assert len(examples) == 11, f"spec-003 examples={len(examples)}, but should be 11"
    assert examples[((3, 1, 5), (4, 4, 5))] == (None, "numpy_dim")
    assert examples[((1, 5, 3), (5, 2, 1, 3))] == ((5, 2, 5, 3), None)


@pytest.mark.parametrize("name", list(functions.FUNCTIONS))
def test_each_function_is_fed_values_whose_results_are_exact(name):
    """Computed in float64 (or int64) and in the fed type, the results agree: nothing rounds or overflows."""
    f = functions.FUNCTIONS[name]
    shapes = {f"input{k}": (64,) for k in range(f.arities[0])}
    for dtype in f.dtypes:
        fed = values.inputs(f.values, name, shapes, dtype, "salt")
        got = np.asarray(f.compute(*fed.values()))
        if dtype == "bool" or f.values in ("bits", "select", "comparison"):
            continue  # no arithmetic: exact by construction
        wide = [a.astype(np.float64 if a.dtype.kind == "f" else np.int64) for a in fed.values()]
        with np.errstate(invalid="ignore", over="ignore"):
            again = np.asarray(f.compute(*wide)).astype(got.dtype)
        assert np.array_equal(got.view(f"u{got.itemsize}"), again.view(f"u{got.itemsize}")), \
            f"{name} {dtype}: {got.tolist()}, but the wide result is {again.tolist()}"


def test_select_condition_is_boolean_and_the_rest_is_the_swept_type():
    fed = values.inputs("select", "select", {"input0": (4,), "input1": (4,), "input2": ()}, "i32", "s")
    assert [a.dtype.name for a in fed.values()] == ["bool", "int32", "int32"]
    assert fed["input2"].shape == ()


def test_versions_are_the_functions_a_case_runs():
    p = params.parse({"shapes": [[2], [2]]})
    assert "add" in params.versions(p) and "select" not in params.versions(p) and "prelu" not in params.versions(p)
    p3 = params.parse({"shapes": [[2], [2], [2]]})
    assert params.versions(p3) == ("add", "maximum", "minimum", "select")
    uni = params.parse({"shapes": [[2], [2]], "direction": "unidirectional"})
    assert params.versions(uni) == ("prelu",)
    assert params.problems(params.parse({"shapes": [[2], [2]], "functions": ["select"]}), True) == \
        "functions: select takes 3 inputs, the case gives 2"
    assert ops.get("elementwise").label("add") == "elementwise add"


CASE = """\
group: rule
cases:
  - id: ew_test_case
    op: elementwise
    shapes: [[2, 3], [3]]
    expect: {shape: [2, 3]}
    spec_ref: "003_38ca088f58e9a6c7.txt#Rules"
"""


def test_a_case_that_contradicts_the_rules_is_an_error_at_its_line(tmp_path):
    path = tmp_path / "cases" / "ew.yaml"
    path.parent.mkdir()
    path.write_text(CASE.replace("[[2, 3], [3]]", "[[2, 3], [4]]"))
    with pytest.raises(CaseFileError, match=r"ew.yaml:3: .*but the reference rejects it \[numpy_dim\]"):
        load_file(path, tmp_path)
    path.write_text(CASE.replace("expect: {shape: [2, 3]}", "auto_broadcast: none\n    expect: {reject: numpy_dim}"))
    with pytest.raises(CaseFileError, match=r"expect.reject=numpy_dim, but the reference rejects for rule "
                                            r"none_shapes_differ"):
        load_file(path, tmp_path)
    path.write_text(CASE.replace("[[2, 3], [3]]", "[[2, 3], [3], [1], [1]]"))
    with pytest.raises(CaseFileError, match="shapes"):
        load_file(path, tmp_path)
    path.write_text(CASE)
    (case,) = load_file(path, tmp_path)
    assert (case.id, case.expect_shape, case.params.shapes) == ("ew_test_case", (2, 3), ((2, 3), (3,)))


# --- traits that model how a runtime computes a function (known differences: conformance/known/*.yaml) ---

def test_the_runtime_models_of_the_bitshift_traits_give_what_openvino_gives():
    """The values OpenVINO 2026.4's CPU plugin gave for these inputs (the openvino-onnx reproducers)."""
    u8, u32 = np.uint8, np.uint32
    assert traits._shifted_u8_saturated(np.array([255, 128, 3], u8), np.array([1, 1, 2], u8)).tolist() == [255, 255, 12]
    assert traits._shifted_u8_rounded(np.array([255, 3, 5, 7], u8), np.array([1, 2, 1, 1], u8)).tolist() == \
        [128, 1, 2, 4]
    got = traits._shifted_u32_as_int32_in_f32(np.array([0xFFFFFFFF, 0x13A3FF26, 0x80000001, 7], u32),
                                              np.array([1, 0, 1, 1], u32))
    assert [hex(v) for v in got.tolist()] == ["0x0", "0x13a3ff20", "0xc0000000", "0x3"]
    left = traits._beyond_int32(np.left_shift)(np.array([0xFFFFFFFF, 3], u32), np.array([1, 4], u32))
    assert [hex(v) for v in left.tolist()] == ["0x7fffffff", "0x30"]


TRAIT_ROWS = [  # (trait, shapes, holds): a case where it holds first, then where it must not
    ("mean_f32_output_shows_plus_zero_added", [[2, 1, 2, 1, 2, 1, 2, 1], [1, 2, 1, 2, 1, 2, 1, 2]], True),
    ("mean_f32_output_shows_plus_zero_added", [[4, 3], [3]], False),  # no -0.0 + -0.0 among the values fed
    ("bitshift_left_u8_output_shows_saturation", [[4, 3], [3]], True),
    ("bitshift_left_u8_output_shows_saturation", [[2, 3, 5], []], False),  # no value fed overflows 8 bits
    ("bitshift_left_u8_output_shows_saturation", [[2, 0], [2, 0]], False),  # no element
    ("bitshift_left_u8_output_shows_saturation", [[2, 3], [2, 4]], False),  # rejected: nothing computed
    ("bitshift_right_u8_output_shows_rounding", [[4, 3], [3]], True),
    ("bitshift_right_u8_output_shows_rounding", [[], []], False),  # the one value fed shifts to an integer
    ("bitshift_right_u32_output_shows_int32_f32_division", [[4, 3], [3]], True),
    ("bitshift_right_u32_output_shows_int32_f32_division", [[0], [1]], False),
    ("bitshift_left_u32_output_beyond_int32", [[4, 3], [3]], True),
    ("bitshift_left_u32_output_beyond_int32", [[2, 3], [1]], "direction"),  # unidirectional: no bitshift run
    ("bitshift_right_u32_output_beyond_int32", [[5, 1, 3], [2, 3]], True),
    ("bitshift_right_u32_output_beyond_int32", [[4, 3], [3]], False),  # every shift of a value >= 2**31 is > 0
    ("empty_as_scalar_valid", [[0], [3]], True),  # rejected [numpy_dim], but a scalar broadcasts to (3,)
    ("empty_as_scalar_valid", [[0, 1], [2, 3]], True),
    ("empty_as_scalar_valid", [[0], [2], [3]], False),  # 2 against 3 stays
    ("empty_as_scalar_valid", [[2, 3], [2, 4]], False),
    ("slope_1d_on_channel", [[3, 2, 5], [2]], True),
    ("slope_1d_on_channel", [[2, 4], [2]], False),  # axis 1 is 4
    ("slope_1d_on_channel", [[2, 1, 2], [2]], False),
    ("slope_1d_length_once_in_first", [[2, 4], [2]], True),
    ("slope_1d_length_once_in_first", [[2, 2, 5], [2]], False),  # found twice
    ("first_axis1_is_1", [[2, 1, 2], [2]], True),
    ("first_axis1_is_1", [[1], [1]], False),  # rank 1
    ("select_else_selection_scalar_in_merge", [[1], [2, 5, 4, 5, 3], [5, 1]], True),
    ("select_else_selection_scalar_in_merge", [[], [2, 3], []], True),  # the else-selection has one element
    ("select_else_selection_scalar_in_merge", [[2, 4], [2, 4], [2, 4]], False),
    ("select_else_selection_scalar_in_merge", [[4, 1], [4, 1], [1, 3]], False),  # then-selection the scalar one
]


@pytest.mark.parametrize(("trait", "shapes", "holds"), TRAIT_ROWS,
                         ids=[f"{t}-{'-'.join('x'.join(map(str, s)) or 'scalar' for s in shapes)}"
                              for t, shapes, _ in TRAIT_ROWS])
def test_elementwise_traits_hold_where_they_should(trait, shapes, holds):
    raw = {"shapes": shapes}
    if holds == "direction":
        raw["direction"] = "unidirectional"
    got = traits.TRAITS[trait][0](params.parse(raw))
    assert got is (holds is True), f"{trait}({shapes})={got}, but should be {holds is True}"


def test_scalar_first_1d_second_names_scalar_data_with_a_1d_slope():
    from conformance.ops.elementwise import params, traits

    def holds(*shapes):
        return traits.TRAITS["scalar_first_1d_second"][0](params.parse({"shapes": [list(s) for s in shapes]}))

    assert holds((), (1,)) and holds((), (4,))
    assert not holds((), ()) and not holds((), (2, 3)) and not holds((1,), ()) and not holds((3,), (3,))


@pytest.mark.parametrize(("shapes", "changes", "valid_as_scalar"), [
    ([[0], [1]], True, False), ([[0], [3]], False, True), ([[2, 0], [0]], False, False),
    ([[0, 3], []], False, False), ([[2, 3], [0, 1]], False, False), ([[0], [0]], True, False)])
def test_empty_vector_traits_take_inputs_of_shape_0_only(shapes, changes, valid_as_scalar):
    """OpenVINO 2025.0's ONNX frontend makes only an initializer of shape (0,) a scalar: the traits that describe it."""
    from conformance.ops.elementwise import params, traits

    p = params.parse({"shapes": shapes})
    assert traits.TRAITS["empty_vector_as_scalar_changes_output"][0](p) is changes
    assert traits.TRAITS["empty_vector_as_scalar_valid"][0](p) is valid_as_scalar
