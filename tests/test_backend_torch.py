"""The torch backend: torch.broadcast_to and Tensor.expand (numpy mode), torch.broadcast_shapes (bidirectional), eager
and under torch.compile (aot_eager, inductor); shape-only checks on the meta device; a missing torch is a skip with
the reason."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import reference
from conformance.backends import BUILTIN, load
from conformance.backends.torch import TorchBackend, to_numpy, to_torch
from conformance.data import make_data
from conformance.run import paths
from tests import builders

needs_torch = pytest.mark.skipif(TorchBackend().unavailable() is not None, reason=str(TorchBackend().unavailable()))
# (mode, data shape, target_shape)
VALID = [("numpy", (3,), (2, 3)), ("numpy", (), (2, 0)), ("numpy", (1, 4), (2, 3, 4)),
         ("bidirectional", (3, 1), (2, 1, 4)), ("bidirectional", (1,), (0,)), ("bidirectional", (2, 3), (3,))]


def path(execution: str = "eager", call: str = "broadcast_to") -> dict[str, str]:
    return {"call": call, "execution": execution}


def test_torch_is_built_in_with_its_axes():
    assert BUILTIN["torch"] == "conformance.backends.torch:TorchBackend"
    backend = load("torch")
    assert backend.name == "torch" and [a.name for a in backend.path_axes()] == ["call", "execution"]
    labels = [paths.label(backend.path_axes(), p) for p in backend.paths_for(builders.case(group="spec_example"))]
    assert labels == ["", "aot", "inductor", "expand", "expand-aot", "expand-inductor"]  # defaults left out of ids


def test_inductor_is_the_spec_examples_only_unless_every_path_is_asked_for():
    """Inductor compiles a C++ kernel per check (~1 s): a default run takes it for the spec's examples alone."""
    backend = TorchBackend()
    rule = builders.case(group="rule")
    assert {dict(p)["execution"] for p in backend.paths_for(rule)} == {"eager", "aot_eager"}
    assert {dict(p)["execution"] for p in backend.paths_for(rule, every=True)} == {"eager", "aot_eager", "inductor"}
    assert backend.chooses_paths()


def test_what_torch_cannot_be_given_is_not_applicable_with_the_reason():
    backend = TorchBackend()
    valid = builders.case()
    first = next(iter(backend.paths_for(valid)))
    assert "no string element type" in backend.why_not(valid, first, "string")
    assert "shell dtype" in backend.why_not(valid, first, "i4") and "shell dtype" in backend.why_not(valid, first, "u4")
    assert all(backend.why_not(valid, first, t) is None for t in ("bf16", "f8e4m3", "f8e5m2", "u16", "u32", "u64"))
    (why,) = backend.paths_for(builders.case("explicit", (3,), (3, 2), (0,))).values()
    assert "no broadcast with an axes mapping" in why
    (why,) = backend.paths_for(builders.case(data_shape=(None,))).values()
    assert "concrete shape" in why
    (why,) = backend.paths_for(builders.case("numpy", axes_mapping=(1,))).values()
    assert "no axes_mapping" in why


@needs_torch
@pytest.mark.parametrize("dtype", ["bool", "i8", "u16", "u32", "u64", "f8e4m3", "f8e5m2", "f16", "bf16", "f32", "f64"])
def test_data_crosses_into_torch_and_back_bit_for_bit(dtype):
    """NaN payloads, signalling NaNs, signed zeros and subnormals included: bfloat16 and float8 cross as their bits."""
    data = make_data((4, 5), dtype)
    back = to_numpy(to_torch(data), data.dtype)
    assert back.dtype == data.dtype and back.tobytes() == data.tobytes()


# inductor compiles a C++ kernel per shape and type (~1 s): one call and one type of it here
RUNS = [(e, c, t) for e in ("eager", "aot_eager") for c in ("broadcast_to", "expand")
        for t in ("f32", "u64", "bf16", "f8e5m2")] + [("inductor", "expand", "bf16")]


@needs_torch
@pytest.mark.parametrize(("execution", "call", "dtype"), RUNS, ids="-".join)
@pytest.mark.parametrize(("mode", "shape", "target"), VALID)
def test_each_mode_gives_the_references_bytes(execution, call, dtype, mode, shape, target):
    data = make_data(shape, dtype)
    outcome = TorchBackend().run(builders.request(data, target, mode=mode, path=path(execution, call)))
    expected = reference.broadcast(data, list(target), None, mode)
    assert outcome.error is None, outcome.error
    assert outcome.output.dtype == expected.dtype and outcome.output.shape == expected.shape
    assert outcome.output.tobytes() == expected.tobytes()
    assert outcome.output.flags.c_contiguous and outcome.declared_shape == expected.shape


@needs_torch
@pytest.mark.parametrize(("mode", "target"), [("numpy", (2,)), ("numpy", (2, 0)), ("bidirectional", (2, 2))])
@pytest.mark.parametrize("execution", ["eager", "aot_eager"])
def test_a_broken_rule_is_a_rejection(mode, target, execution):
    outcome = TorchBackend().run(builders.request(make_data((3,), "f32"), target, mode=mode, path=path(execution)))
    assert outcome.output is None and outcome.error
    assert outcome.stage == ("trace" if execution == "aot_eager" else "validate")


@needs_torch
@pytest.mark.parametrize("execution", ["eager", "aot_eager"])
@pytest.mark.parametrize("call", ["broadcast_to", "expand"])
def test_minus_1_keeps_the_data_dimension(execution, call):
    """What torch-expand-minus-1-keeps-dimension records (documented)."""
    data = make_data((1, 3), "f32")
    outcome = TorchBackend().run(builders.request(data, (2, -1, -1), path=path(execution, call)))
    assert outcome.error is None and outcome.output.shape == (2, 1, 3)
    assert outcome.output.tobytes() == np.broadcast_to(data, (2, 1, 3)).tobytes()
    leading = TorchBackend().run(builders.request(data, (-1, 1, 3), path=path(execution, call)))
    assert leading.error and "-1" in leading.error  # not in a new leading dimension


@needs_torch
def test_a_negative_size_beside_a_zero_is_a_shape_without_an_output():
    """torch-expand-negative-size-beside-zero: eagerly a tensor of shape (-2, 0), which numpy cannot hold; compiled,
    refused."""
    data = make_data((1,), "f32")
    eager = TorchBackend().run(builders.request(data, (-2, 0)))
    assert eager.error is None and eager.output is None and eager.declared_shape == (-2, 0)
    assert TorchBackend().run(builders.request(data, (-2, 0), path=path("aot_eager"))).error


@needs_torch
@pytest.mark.parametrize("execution", ["eager", "aot_eager", "inductor"])
def test_an_accepted_output_beyond_the_budget_is_its_shape_without_a_copy(execution):
    """[2**62, -1] is accepted (the documented -1): eagerly a view of 2**62 elements, never copied; compiled, the
    shape of the trace on the meta device, the compiled function's copy never run."""
    request = builders.request(make_data((1,), "f32"), (2**62, -1), path=path(execution))
    outcome = TorchBackend().run(dataclasses.replace(request, max_output_bytes=2**20))
    assert outcome.error is None and outcome.output is None and outcome.declared_shape == (2**62, 1)
    small = TorchBackend().run(dataclasses.replace(builders.request(make_data((1,), "f32"), (2, -1),
                                                                    path=path(execution)), max_output_bytes=2**20))
    assert small.output.shape == (2, 1)


@needs_torch
@pytest.mark.parametrize("execution", ["eager", "aot_eager"])
def test_an_int_is_a_size_to_expand_and_a_shape_to_broadcast_shapes_not_to_broadcast_to(execution):
    """torch-expand-rank-0-size-accepted and torch-broadcast-shapes-rank-0-shape-accepted."""
    data = make_data((1,), "f32")
    target = np.asarray(3, np.int64)
    assert TorchBackend().run(builders.request(data, target, path=path(execution, "expand"))).output.shape == (3,)
    assert TorchBackend().run(builders.request(data, target, path=path(execution))).error
    both = TorchBackend().run(builders.request(make_data((2, 1), "f32"), target, mode="bidirectional",
                                               path=path(execution)))
    assert both.output.shape == (2, 3)


@needs_torch
@pytest.mark.parametrize("execution", ["eager", "aot_eager", "inductor"])
def test_a_shape_only_check_is_declared_on_the_meta_device(execution):
    request = builders.request(np.empty((0,), np.float32), (2**61, 3), mode="bidirectional", shape_only=True,
                               data_shape=(1, 3), path=path(execution))
    assert TorchBackend().declare(request).declared_shape == (2**61, 3)
    refused = builders.request(np.empty((0,), np.float32), (2**61, 2), shape_only=True, data_shape=(3,),
                               path=path(execution))
    outcome = TorchBackend().declare(refused)
    assert outcome.declared_shape is None and outcome.error
    beyond = builders.request(np.empty((0,), np.float32), (2**62, 2), shape_only=True, data_shape=(1,),
                              path=path(execution))
    assert "numel: integer multiplication overflow" in TorchBackend().declare(beyond).error  # the known entry
    no_element = builders.request(np.empty((0,), np.float32), (2, 0), mode="bidirectional", shape_only=True,
                                  data_shape=(2**62, 2, 2, 0), path=path(execution))
    refused = TorchBackend().declare(no_element)  # the data's sizes overflow before the 0: torch cannot make it
    assert refused.stage == "build" and "Storage size calculation overflowed" in refused.error


@needs_torch
@pytest.mark.parametrize("execution", ["aot_eager", "inductor"])
def test_run_many_shares_one_compiled_function_and_keeps_each_result(execution):
    backend = TorchBackend()
    requests = [builders.request(make_data(shape, "u8"), target, mode=mode, path=path(execution))
                for mode, shape, target in VALID]
    shared = backend.run_many(requests)
    alone = [backend.run(r) for r in requests]
    assert [o.output.tobytes() for o in shared] == [o.output.tobytes() for o in alone]
    assert [o.output.shape for o in shared] == [(2, 3), (2, 0), (2, 3, 4), (2, 3, 4), (0,), (2, 3)]
    with pytest.raises(Exception, match="expand"):  # one refusal: the whole call raises, the harness runs each alone
        backend.run_many([*requests, builders.request(make_data((3,), "u8"), (2,), path=path(execution))])


CASES = builders.small_numpy_case("[bf16]", """\
  - id: minus_one
    mode: numpy
    data_shape: [1]
    target_shape: [2, -1]
    expect: {reject: target_shape_negative}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
""")


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    return builders.project(pytester, monkeypatch, CASES)


def run(project: pytest.Pytester, *args: str) -> dict:
    return builders.run_backend(project, "torch", *args)


@needs_torch
def test_a_run_on_torch_passes_a_small_case_and_knows_the_minus_1(project):
    data = run(project)
    verdicts = {c["id"].split("::")[-1]: c["verdict"] for c in data["checks"]}
    assert verdicts == {"small_numpy[torch-bf16]": "pass", "small_numpy[torch-aot-bf16]": "pass",
                        "small_numpy[torch-expand-bf16]": "pass", "small_numpy[torch-expand-aot-bf16]": "pass",
                        "minus_one[torch-f32]": "known_difference", "minus_one[torch-aot-f32]": "known_difference",
                        "minus_one[torch-expand-f32]": "known_difference",
                        "minus_one[torch-expand-aot-f32]": "known_difference"}


def test_a_missing_torch_is_a_skip_with_the_reason(project):
    # torch made unimportable in the harness, as where it is not installed: a None in sys.modules stops the import
    project.makeconftest("import sys\nsys.modules['torch'] = None\n")
    data = run(project)
    assert {c["verdict"] for c in data["checks"]} == {"skipped"}
    assert "torch cannot be imported" in data["checks"][0]["message"]


def test_a_torch_not_installed_names_the_install():
    class Absent(TorchBackend):
        package = "torch-not-installed-here"

    assert "pip install torch==2.13.0 'broadcast-conformance[torch]'" in Absent().unavailable()


@pytest.mark.parametrize(("data_shape", "target", "holds"), [
    ((1,), (2, -1), True), ((1, 3), (2, -1, -1), True), ((3,), (-1,), True),
    ((3,), (-1, 3), False),  # -1 in a new leading dimension: torch refuses it
    ((2, 3), (4, -1), False),  # 2 against 4: invalid with the -1 kept too
    ((3,), (2, 3), False),  # no -1
])
def test_the_trait_of_a_minus_1_torch_keeps(data_shape, target, holds):
    from conformance.ops.broadcast import traits

    assert traits.holds("minus_1_keeps_data_dims", builders.case("numpy", data_shape, target).params) is holds


@pytest.mark.parametrize(("mode", "data_shape", "target", "holds"), [
    ("numpy", (1,), (-2, 0), True), ("numpy", (), (-5, 0, 3), True), ("numpy", (1, 3), (-2, 0, -1), True),
    ("numpy", (3,), (-2, 0), False),  # 0 against 3: refused whatever the -2
    ("numpy", (1,), (-2, 3), False),  # no zero: the element count overflows, torch refuses it
    ("numpy", (1,), (-2**62, 2, 0), False),  # 2**64 - 2**62 times 2 overflows before the 0: refused
    ("numpy", (1,), (2, -2**62, 0), False),  # and after a 2 too
    ("numpy", (1,), (0, -2**62, 2), True),  # 0 first: the product stays 0
    ("numpy", (1,), (-1, 0), False),  # only -1, in a new leading dimension: refused
    ("bidirectional", (1,), (-2, 0), False),  # torch.broadcast_shapes refuses a negative size
])
def test_the_trait_of_a_negative_size_beside_a_zero(mode, data_shape, target, holds):
    from conformance.ops.broadcast import traits

    assert traits.holds("negative_size_beside_zero", builders.case(mode, data_shape, target).params) is holds
