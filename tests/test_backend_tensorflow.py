"""The tensorflow backend: tf.broadcast_to and tf.broadcast_dynamic_shape eagerly, in tf.function with target_shape's
length unknown or known, and under jit_compile; shape-only checks by tracing; a missing tensorflow is a skip with the
reason."""

from __future__ import annotations

import numpy as np
import pytest

import reference
from conformance.backends import BUILTIN, load
from conformance.backends.tensorflow import TensorflowBackend
from conformance.data import make_data
from conformance.run import paths
from tests import builders

needs_tf = pytest.mark.skipif(TensorflowBackend().unavailable() is not None,
                              reason=str(TensorflowBackend().unavailable()))
EXECUTIONS = ["eager", "function", "function_rank", "xla"]
# (mode, data shape, target_shape)
VALID = [("numpy", (3,), (2, 3)), ("numpy", (), (2, 0)), ("numpy", (1, 4), (2, 3, 4)),
         ("bidirectional", (3, 1), (2, 1, 4)), ("bidirectional", (1,), (0,)), ("bidirectional", (2, 3), (3,))]


def test_tensorflow_is_built_in_with_its_axis():
    assert BUILTIN["tensorflow"] == "conformance.backends.tensorflow:TensorflowBackend"
    backend = load("tensorflow")
    assert backend.name == "tensorflow" and [a.name for a in backend.path_axes()] == ["execution"]
    labels = [paths.label(backend.path_axes(), p) for p in backend.paths_for(builders.case())]
    assert labels == ["", "fn", "fnrank", "xla"]  # eager is the default, left out of ids


def test_what_tensorflow_cannot_be_given_is_not_applicable_with_the_reason():
    backend = TensorflowBackend()
    (why,) = backend.paths_for(builders.case("explicit", (3,), (3, 2), (0,))).values()
    assert "no explicit broadcast" in why
    (why,) = backend.paths_for(builders.case("numpy", axes_mapping=(1,))).values()
    assert "no axes_mapping" in why
    dynamic = backend.paths_for(builders.case(data_shape=(None,)))
    assert "every dimension known" in dynamic[(("execution", "eager"),)]
    assert dynamic[(("execution", "function"),)] is None  # a TensorSpec dimension None
    path = (("execution", "eager"),)
    assert backend.why_not(builders.case(), path, "string") is None and backend.why_not(builders.case(), path, "i4") \
        is None
    xla = (("execution", "xla"),)
    for one_element in (builders.case("numpy", (), ()), builders.case("bidirectional", (1,), ())):
        assert "old content" in backend.why_not(one_element, xla, "i4")  # its padding nibble is chance
        assert backend.why_not(one_element, xla, "u8") is None and backend.why_not(one_element, path, "i4") is None
    assert backend.why_not(builders.case(), xla, "u4") is None  # (2, 3): wrong, a known difference
    assert backend.shape_type_rule(path, "i64") is None and backend.shape_type_rule(path, "i32") is None
    assert backend.shape_type_rule(path, "u64").startswith("tf_shape_int32_int64")


@needs_tf
@pytest.mark.parametrize("execution", EXECUTIONS)
@pytest.mark.parametrize(("mode", "shape", "target"), VALID)
@pytest.mark.parametrize("dtype", ["f32", "i64", "u8", "bool", "f8e4m3", "string"])
def test_each_mode_gives_the_references_bytes(execution, mode, shape, target, dtype):
    if execution == "xla" and dtype == "string":
        pytest.skip("XLA has no strings: the known difference tf-xla-no-string-type")
    data = make_data(shape, dtype)
    outcome = TensorflowBackend().run(builders.request(data, target, mode=mode, path={"execution": execution}))
    expected = reference.broadcast(data, list(target), None, mode)
    assert outcome.error is None, outcome.error
    assert outcome.output.dtype == expected.dtype and outcome.output.shape == expected.shape
    if dtype == "string":
        assert outcome.output.tolist() == expected.tolist()
    else:
        assert outcome.output.tobytes() == expected.tobytes()


@needs_tf
def test_a_zero_dimensional_string_output_comes_back_as_str():
    outcome = TensorflowBackend().run(builders.request(np.array("é", "<U8"), (), path={"execution": "eager"}))
    assert outcome.output.dtype.kind == "U" and outcome.output.shape == () and outcome.output.item() == "é"


@needs_tf
@pytest.mark.parametrize(("execution", "declared"), [("eager", (2, 3)), ("function", None),
                                                    ("function_rank", (None, 3)), ("xla", None)])
def test_a_traced_path_declares_what_its_graph_infers(execution, declared):
    outcome = TensorflowBackend().run(builders.request(make_data((3,), "f32"), (2, 3),
                                                       path={"execution": execution}))
    assert outcome.output.shape == (2, 3) and outcome.declared_shape == declared


@needs_tf
@pytest.mark.parametrize(("execution", "stage"), [("eager", "validate"), ("function", "infer"),
                                                  ("function_rank", "infer"), ("xla", "infer")])
@pytest.mark.parametrize("mode", ["numpy", "bidirectional"])
def test_a_broken_rule_is_a_rejection(execution, stage, mode):
    # data (2, 1): a dimension 1 keeps function_rank's BroadcastTo in the graph (Grappler removes one whose
    # inferred shape is the data's: tf-grappler-removes-broadcast-to-inferred-as-data); 3 is no multiple of 2 (XLA
    # tiles multiples: tf-xla-broadcast-to-tiles-multiples)
    outcome = TensorflowBackend().run(builders.request(make_data((2, 1), "f32"), (3, 4), mode=mode,
                                                       path={"execution": execution}))
    assert outcome.output is None and "Incompatible shapes" in outcome.error or "Invalid shape" in outcome.error
    assert outcome.stage == stage


@needs_tf
@pytest.mark.parametrize("execution", EXECUTIONS)
def test_a_shape_type_tensorflow_does_not_take_is_refused_while_tracing(execution):
    outcome = TensorflowBackend().run(builders.request(make_data((3,), "f32"), np.array([2, 3], np.int8),
                                                       path={"execution": execution}))
    assert outcome.output is None and "int8" in outcome.error
    assert outcome.stage == ("validate" if execution == "eager" else "compile")


@needs_tf
def test_with_the_length_known_grappler_returns_the_data_for_an_invalid_target():
    """What tf-grappler-removes-broadcast-to-inferred-as-data records; with the length unknown the kernel refuses."""
    data = make_data((3,), "f32")
    known = TensorflowBackend().run(builders.request(data, (2,), path={"execution": "function_rank"}))
    assert known.error is None and known.output.tobytes() == data.tobytes()
    unknown = TensorflowBackend().run(builders.request(data, (2,), path={"execution": "function"}))
    assert unknown.output is None and "Incompatible shapes" in unknown.error


@needs_tf
def test_xla_tiles_a_target_that_is_a_multiple_of_the_data():
    """What tf-xla-broadcast-to-tiles-multiples records; eagerly the kernel refuses it."""
    data = np.array([1.0, 2.0], np.float32)
    tiled = TensorflowBackend().run(builders.request(data, (6,), path={"execution": "xla"}))
    assert tiled.output.tolist() == [1.0, 2.0, 1.0, 2.0, 1.0, 2.0]
    assert TensorflowBackend().run(builders.request(data, (6,), path={"execution": "eager"})).output is None


@needs_tf
def test_a_shape_only_check_traces_without_allocating():
    backend = TensorflowBackend()
    eager = builders.request(np.empty((0,), np.float32), (2**62, 3), mode="bidirectional", shape_only=True,
                             data_shape=(1, 3), path={"execution": "eager"})
    assert backend.declare(eager).declared_shape == (2**62, 3)
    traced = builders.request(np.empty((0,), np.float32), (2**62, 3), shape_only=True, data_shape=(1, 3),
                              path={"execution": "function_rank"})
    assert backend.declare(traced).declared_shape == (None, 3)  # the values are an argument: unknown when tracing
    dynamic = builders.request(np.empty((0,), np.float32), (2, 3), shape_only=True, data_shape=(None, 3),
                               path={"execution": "function"})
    assert backend.declare(dynamic).declared_shape is None
    refused = builders.request(np.empty((0,), np.float32), (2**62, 2), shape_only=True, data_shape=(3,),
                               path={"execution": "eager"})
    outcome = backend.declare(refused)
    assert outcome.declared_shape is None and outcome.stage == "compile" and "Dimensions must be equal" in \
        outcome.error


CASES = builders.small_numpy_case("[f32, i4]")


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    return builders.project(pytester, monkeypatch, CASES)


def run(project: pytest.Pytester, *args: str) -> dict:
    return builders.run_backend(project, "tensorflow", *args)


@needs_tf
def test_a_run_on_tensorflow_passes_a_small_case_on_every_path(project):
    data = run(project)
    verdicts = {c["id"].split("::")[-1]: c["verdict"] for c in data["checks"]}
    # i4: no CPU kernel (eager, tf.function), data read as packed under XLA; known differences
    assert verdicts == {"small_numpy[tensorflow-f32]": "pass", "small_numpy[tensorflow-fn-f32]": "pass",
                        "small_numpy[tensorflow-fnrank-f32]": "pass", "small_numpy[tensorflow-xla-f32]": "pass",
                        "small_numpy[tensorflow-i4]": "known_difference",
                        "small_numpy[tensorflow-fn-i4]": "known_difference",
                        "small_numpy[tensorflow-fnrank-i4]": "known_difference",
                        "small_numpy[tensorflow-xla-i4]": "known_difference"}


def test_a_missing_tensorflow_is_a_skip_with_the_reason(project):
    # tensorflow made unimportable in the harness, as where it is not installed: a None in sys.modules stops the import
    project.makeconftest("import sys\nsys.modules['tensorflow'] = None\n")
    data = run(project)
    assert {c["verdict"] for c in data["checks"]} == {"skipped"}
    message = data["checks"][0]["message"]
    assert "tensorflow cannot be imported" in message or "broadcast-conformance[tensorflow]" in message


def test_a_tensorflow_not_installed_names_the_extra(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(TensorflowBackend, "version", lambda self: None)
    assert TensorflowBackend().unavailable() == ("package 'tensorflow-cpu' is not installed "
                                                 "(pip install 'broadcast-conformance[tensorflow]')")


@pytest.mark.parametrize(("mode", "data_shape", "target", "holds"), [
    ("numpy", (3,), (2,), True),  # 3 > 1, the target as long as the data: inferred (3,)
    ("numpy", (2, 3), (5, 7), True),
    ("numpy", (3,), (2, 3), False),  # a longer target: a leading unknown dimension
    ("numpy", (1, 3), (2, 3), False),  # a data dimension 1: unknown
    ("numpy", (0,), (5,), False),  # 0 is not above 1: unknown
    ("bidirectional", (2, 3), (3,), True),  # no longer than the data
    ("bidirectional", (2, 3), (1, 2, 3), False),
    ("numpy", (None, 3), (2, 3), False),
])
def test_the_trait_of_a_shape_tensorflow_infers_as_the_datas(mode, data_shape, target, holds):
    from conformance.ops.broadcast import traits

    case = builders.case(mode, data_shape, target, expect_reject="any")
    assert traits.holds("inferred_as_data_without_target_values", case.params) is holds


@pytest.mark.parametrize(("data_shape", "target", "holds"), [
    ((2,), (6,), True), ((3,), (0,), True), ((2, 3), (4, 6), True), ((2, 3), (2, 6), True),
    ((2,), (3,), False),  # no multiple
    ((2,), (2,), False),  # valid
    ((3,), (-3,), False),  # negative: XLA refuses it later
    ((3,), (-1, 3), False),  # a negative value facing no data dimension too
    ((0,), (0,), False),  # valid
    ((2, 3), (6,), False),  # the target is shorter: refused for the rank
])
def test_the_trait_of_a_target_xla_tiles(data_shape, target, holds):
    from conformance.ops.broadcast import traits

    case = builders.case("numpy", data_shape, target, expect_reject="any")
    assert traits.holds("target_tiles_data", case.params) is holds


@pytest.mark.parametrize(("data_shape", "target", "holds"), [
    ((1, 2, 1, 4, 1, 6, 1, 8, 1, 10), (1, 2, 3, 4, 5, 6, 7, 8, 9, 10), True),  # 9 runs
    ((1, 2, 3, 4, 5, 1, 1, 1, 1, 1), (1, 2, 3, 4, 5, 6, 7, 8, 9, 10), False),  # 2 runs
    ((2, 1, 2, 1, 2, 1), (2, 3, 2, 3, 2, 3), True),  # 6 runs
    ((2, 1, 2, 1, 2), (2, 3, 2, 3, 2), False),  # 5 runs
    ((2, 1, 1, 2, 1, 2, 1), (2, 1, 3, 2, 3, 2, 3), True),  # a 1 facing a 1 is dropped: 6 runs
    ((), (2, 3, 2, 3, 2, 3), False),  # a scalar is filled
    ((2, 1, 2, 1, 2, 1), (2, 0, 2, 3, 2, 3), False),  # empty
])
def test_the_trait_of_a_broadcast_beyond_the_kernels_5_dimensions(data_shape, target, holds):
    from conformance.ops.broadcast import traits

    case = builders.case("numpy", data_shape, target)
    assert traits.holds("bcast_runs_over_5", case.params) is holds
