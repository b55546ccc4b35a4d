"""Paths as data: a backend's axes and values make its checks and their ids; --path selects, --list-paths
shows them; a value added to an axis is a new set of checks, and the ids of the others do not change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.backends import Axis, load
from conformance.run import paths
from conformance.run.plan import plan
from tests import builders
from tests.fake_backends import TwoLayoutsBackend

ROOT = Path(__file__).resolve().parents[1]


def test_a_path_label_is_made_from_the_axes_in_one_place():
    axes = load("openvino").path_axes()[:2]  # opset, target_shape: the axes of its first paths
    assert [paths.label(axes, p) for p in paths.every_path(axes)] == [
        "opset1-const", "opset1-param", "opset1-shapeof", "opset3-const", "opset3-param", "opset3-shapeof"]
    assert paths.describe((("opset", "3"), ("target_shape", "Parameter"))) == "opset 3, target_shape Parameter"


class WithAView(TwoLayoutsBackend):
    """The same backend, one value more on its "output" axis: data, nothing else."""

    axes = (*TwoLayoutsBackend.axes[:-1], Axis("output", ("fresh", "view"), default="fresh"))


def test_a_value_added_to_an_axis_adds_checks_and_keeps_the_other_ids():
    case = builders.case("numpy", (3,), (2, 3), dtypes=("f32",))
    before = [c.part for c in plan(case, TwoLayoutsBackend(), "x", None)]
    after = [c.part for c in plan(case, WithAView(), "x", None)]
    assert before == ["two-layouts-v1-f32", "two-layouts-v3-f32"]  # the default value is left out of ids
    assert after == ["two-layouts-v1-f32", "two-layouts-v1-view-f32", "two-layouts-v3-f32", "two-layouts-v3-view-f32"]
    checks = plan(case, WithAView(), "x", None, {"output": {"view"}})
    assert [c.path for c in checks] == [(("op", "v1"), ("output", "view")), (("op", "v3"), ("output", "view"))]


def test_a_malformed_path_selection_says_how_to_write_it():
    with pytest.raises(ValueError, match="give AXIS=VALUE"):
        paths.parse_selection(["opset"])


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    return builders.project(
        pytester, monkeypatch,
        "group: rule\ncases:\n  - id: small\n    mode: numpy\n    data_shape: [3]\n    target_shape: [2, 3]\n"
        "    expect: {shape: [2, 3]}\n    spec_ref: \"003_38ca088f58e9a6c7.txt#Examples\"\n    dtypes: [f32]\n",
        test_module=False)


def test_path_options_select_and_list(project):
    args = ("-p", "conformance.plugin", "-p", "no:cacheprovider", "--generated-examples", "0", "--report", "none")
    listed = project.runpytest_subprocess(*args, "--backend", "openvino", "--backend", "local", "--list-paths")
    listed.stdout.fnmatch_lines(["openvino:", "  opset: 1 (opset1), 3 (opset3)*",
                                 "  target_shape: Constant (const), Parameter (param)*", "local:",
                                 "  op: v1, v3, v0,*"])
    assert listed.ret == 0
    project.runpytest_subprocess(*args, "--backend", "openvino", "--path", "target_shape=Parameter", "--path",
                                 "opset=3", "--results", "out.json")
    data = json.loads((project.path / "out.json").read_text())
    assert data["checks"] and all(c["path"]["opset"] == "3" and c["path"]["target_shape"] == "Parameter"
                                  and c["variant"].startswith("opset3-param") for c in data["checks"])
    assert data["unmatched_known"] == []  # a restricted run: no entry is called stale


def test_a_default_run_covers_every_pair_of_axis_values_and_all_paths_on_request():
    axes = [Axis("a", ("1", "2", "3")), Axis("b", ("x", "y")), Axis("c", ("p", "q")), Axis("d", ("u", "v", "w"))]
    every = list(paths.every_path(axes))
    chosen = paths.pairwise(every)
    assert len(chosen) < len(every)
    pairs = {(p[i], p[j]) for p in every for i in range(4) for j in range(i + 1, 4)}
    assert pairs == {(p[i], p[j]) for p in chosen for i in range(4) for j in range(i + 1, 4)}
    assert paths.covering(every, "upstream") == chosen
    assert paths.covering(every, "rule") == every and paths.covering(every, "upstream", everything=True) == every
    two = list(paths.every_path(axes[:2]))
    assert paths.pairwise(two) == two  # with two axes, every pair is every path


def test_a_default_run_keeps_the_paths_of_earlier_runs():
    """Paths whose added axes are at their defaults keep their ids: the pairwise choice always takes them, so a
    run compares with one from before those axes existed."""
    axes = [Axis("a", ("1", "2", "3")), Axis("b", ("x", "y")), Axis("c", ("p", "q"), default="p"),
            Axis("d", ("u", "v", "w"), default="u")]
    every = list(paths.every_path(axes))
    before = [p for p in every if dict(p)["c"] == "p" and dict(p)["d"] == "u"]
    assert not set(before) <= set(paths.pairwise(every))  # without the seed, greedy drops some of them
    chosen = paths.covering(every, "upstream", axes=axes)
    assert set(before) <= set(chosen)
    pairs = {(p[i], p[j]) for p in every for i in range(4) for j in range(i + 1, 4)}
    assert pairs == {(p[i], p[j]) for p in chosen for i in range(4) for j in range(i + 1, 4)}


def test_a_default_run_samples_the_element_types_of_a_new_path_and_all_paths_sweep_them_all():
    """On a path a newer axis adds, a case takes SAMPLED_TYPES of its types, chosen by a hash of the case and the
    path, so that a group's cases take every type there between them; the paths as before take every type."""
    from conformance.run.plan import SAMPLED_TYPES, dtypes_for

    def types(case: object, every: bool = False) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for c in plan(case, WithAView(), "x", None, every_path=every):  # type: ignore[arg-type]
            found.setdefault(dict(c.path or ())["output"], []).append(c.dtype or "")
        return found

    cases = [builders.case("numpy", (3,), (2, 3), case_id=f"c{i}") for i in range(40)]
    sweep = dtypes_for(cases[0], None)
    assert len(sweep) > SAMPLED_TYPES
    for case in cases:
        found = types(case)
        assert found["fresh"] == sweep + sweep  # both opsets, every type
        assert len(found["view"]) == 2 * SAMPLED_TYPES and set(found["view"]) < set(sweep)
        assert types(case, every=True)["view"] == sweep + sweep
    assert {d for case in cases for d in types(case)["view"]} == set(sweep)
    assert types(cases[0])["view"] == types(cases[0])["view"]  # the same every time
    listed = builders.case("numpy", (3,), (2, 3), dtypes=("u8", "f32", "i64", "f16", "bool"))
    assert types(listed)["view"] == 2 * ["u8", "f32", "i64", "f16", "bool"]  # a case's own list: all of them


def test_the_cases_of_a_group_take_every_type_on_every_path_value_between_them():
    """The sampled types leave gaps in small groups (one case, three types); type_coverage gives each (group, axis
    value, type) that a case of the group can take on a default path to the first case and path that can, so that
    a group's checks take every such pair. Checked on the suite's own cases, for every built-in backend."""
    from conformance.cases import load_all
    from conformance.run.plan import type_coverage

    loaded, errors = load_all(ROOT / "cases", ROOT)
    assert not errors
    cases = [case for file_cases in loaded.values() for case in file_cases]
    for name in ("openvino", "openvino-onnx", "onnxruntime", "onnx-reference", "jax", "tract", "tensorflow", "torch"):
        backend = load(name)
        extras = type_coverage(cases, backend)
        possible, taken, taken_without = set(), set(), set()
        for case in cases:
            for check in plan(case, backend, name, None, extras=extras):
                if check.path and check.not_applicable is None:
                    taken |= {(case.group, axis, value, check.dtype) for axis, value in check.path}
            for check in plan(case, backend, name, None):
                if check.path and check.not_applicable is None:
                    taken_without |= {(case.group, axis, value, check.dtype) for axis, value in check.path}
            applicable = backend.paths_for(case)
            for path in paths.covering(list(applicable), case.group, backend.chooses_paths(), backend.path_axes()):
                if () in applicable or applicable[path] is not None:
                    continue
                for dtype in case.dtypes or plan_dtypes(case, backend.op_version(path, case.op)):
                    for on_target, absent in backend.targeted(path):  # on the run's device or provider
                        if absent is None and backend.why_not(case, on_target, dtype) is None:
                            possible |= {(case.group, axis, value, dtype) for axis, value in on_target}
        if name not in ("jax", "tract"):  # those two: the sampling alone happens to cover every pair
            assert possible - taken_without, f"{name}: the sampling alone already covers every pair (nothing to test)"
        assert taken == possible, f"{name}: pairs no check takes: {sorted(possible - taken)[:10]}"


def plan_dtypes(case, version=None):
    from conformance.run.plan import dtypes_for

    return dtypes_for(case, None, version)  # an elementwise case's types are its function's (the path's version)
