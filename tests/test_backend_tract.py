"""The tract backend: the ONNX Expand models of every ONNX backend, loaded from a file by tract's Python package."""

from __future__ import annotations

import numpy as np
import pytest

import reference
from conformance.backends import BUILTIN, load
from conformance.backends.tract import TractBackend
from conformance.data import make_data
from conformance.run import paths
from tests import builders

needs_tract = pytest.mark.skipif(TractBackend().unavailable() is not None, reason=str(TractBackend().unavailable()))


def request(values: np.ndarray, target: tuple[int, ...], **path: str) -> object:
    return builders.request(values, target, mode="bidirectional",
                            path={"opset": "13", "shape": "initializer", "data": "input", "context": "alone", **path})


def test_tract_is_built_in_with_the_onnx_axes():
    assert BUILTIN["tract"] == "conformance.backends.tract:TractBackend"
    backend = load("tract")
    assert backend.name == "tract" and [a.name for a in backend.path_axes()] == ["opset", "shape", "data", "context"]
    labels = [paths.label(backend.path_axes(), p) for p in backend.paths_for(builders.case("bidirectional"))]
    assert "opset13-init" in labels and "opset8-computed-add" in labels and "opset13-input-datainit" in labels
    (why,) = backend.paths_for(builders.case("numpy")).values()
    assert "bidirectional rule only" in why


def test_strings_and_bfloat16_are_not_applicable_with_the_reason():
    backend = TractBackend()
    valid = builders.case("bidirectional")
    path = next(iter(backend.paths_for(valid)))
    assert "no string type" in backend.why_not(valid, path, "string")
    assert "no bfloat16" in backend.why_not(valid, (("opset", "13"), *path[1:]), "bf16")
    assert backend.why_not(valid, path, "f16") is None


@needs_tract
@pytest.mark.parametrize("shape", ["initializer", "computed"])
@pytest.mark.parametrize("data_path", ["input", "initializer"])
@pytest.mark.parametrize("context", ["alone", "Transpose"])
@pytest.mark.parametrize("dtype", ["bool", "u8", "i64", "f16", "f64"])
@pytest.mark.parametrize(("data_shape", "target"), [((3, 1), (2, 1, 4)), ((1,), (0,)), ((), (2, 3))])
def test_a_valid_expand_gives_the_references_bytes(shape, data_path, context, dtype, data_shape, target):
    data = make_data(data_shape, dtype)
    outcome = TractBackend().run(request(data, target, shape=shape, data=data_path, context=context))
    expected = reference.broadcast(data, list(target), None, "bidirectional")
    assert outcome.error is None, outcome.error
    assert outcome.output.dtype == expected.dtype and outcome.output.shape == expected.shape
    assert outcome.output.tobytes() == expected.tobytes()
    assert outcome.declared_shape == expected.shape  # tract's typed model declares it


@needs_tract
def test_a_broken_rule_is_a_rejection_naming_tracts_error():
    outcome = TractBackend().run(request(make_data((3,), "f32"), (2, 2)))
    assert outcome.output is None and outcome.stage == "compile" and outcome.error.startswith("TractError: ")


@needs_tract
def test_a_shape_fed_at_run_time_is_refused():
    """What the known entry tract-expand-shape-input-refused records."""
    outcome = TractBackend().run(request(make_data((3,), "f32"), (2, 3), shape="input"))
    assert outcome.output is None and "shape input is variable" in outcome.error


@needs_tract
def test_shared_models_keep_each_result_and_fall_back_when_one_is_refused():
    backend = TractBackend()
    requests = [request(make_data((3,), "f32"), (2, 3)), request(make_data((2, 1), "u8"), (2, 5), data="initializer")]
    outcomes = backend.run_many(requests)
    assert [o.output.shape for o in outcomes] == [(2, 3), (2, 5)]
    refused = request(make_data((3,), "f32"), (2, 2))
    *kept, last = backend.run_many([*requests, refused])  # the shared model is refused: each runs alone
    assert [o.output.shape for o in kept] == [(2, 3), (2, 5)] and last.output is None and last.error


@needs_tract
def test_a_shape_only_check_is_declared_without_running():
    shape_only = builders.request(np.empty((0,), np.float32), (2**40, 3), mode="bidirectional", shape_only=True,
                                  data_shape=(1, 3), path={"opset": "13", "shape": "computed", "data": "input",
                                                           "context": "alone"})
    assert TractBackend().declare(shape_only).declared_shape == (2**40, 3)


def test_a_missing_tract_is_a_skip_with_the_reason():
    class Absent(TractBackend):
        package = "tract-not-installed-here"

    assert Absent().unavailable() == "package 'tract-not-installed-here' is not installed"


@pytest.mark.parametrize(("data_shape", "target", "holds"), [
    ((3,), (-1, 3), True),  # -1 faces no data dimension: tract aborts
    ((1,), (2**31, 0), True),  # 2**31 is negative as an int32
    ((1,), (2**32, 0), False),  # 0 as an int32: a wrong shape, no abort
    ((3,), (2, -1), False),  # -1 faces 3: tract refuses it with an error
    ((1,), (-5,), True),  # faces a 1
])
def test_the_trait_of_shape_values_tract_reads_as_negative_dimensions(data_shape, target, holds):
    from conformance.ops.broadcast import traits

    case = builders.case("bidirectional", data_shape, target)
    assert traits.holds("target_negative_in_int32_unmatched", case.params) is holds
