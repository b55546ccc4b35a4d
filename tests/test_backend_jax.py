"""The jax backend: jnp.broadcast_to, lax.broadcast_in_dim and jnp.broadcast_shapes, eager and under jax.jit, with
jax's 64-bit mode on and off; shape-only checks through jax.eval_shape; a missing jax is a skip with the reason."""

from __future__ import annotations

import numpy as np
import pytest

import reference
from conformance.backends import BUILTIN, load
from conformance.backends.jax import JaxBackend
from conformance.data import make_data
from conformance.run import paths
from tests import builders

needs_jax = pytest.mark.skipif(JaxBackend().unavailable() is not None, reason=str(JaxBackend().unavailable()))
PATHS = [{"execution": e, "x64": "on"} for e in ("eager", "jit")]
# (mode, data shape, target_shape, axes_mapping)
VALID = [("numpy", (3,), (2, 3), None), ("numpy", (), (2, 0), None), ("explicit", (3,), (3, 2), (0,)),
         ("explicit", (1, 4), (2, 3, 4), (1, 2)), ("bidirectional", (3, 1), (2, 1, 4), None),
         ("bidirectional", (1,), (0,), None)]


def test_jax_is_built_in_with_its_axes():
    assert BUILTIN["jax"] == "conformance.backends.jax:JaxBackend"
    backend = load("jax")
    assert backend.name == "jax" and [a.name for a in backend.path_axes()] == ["execution", "x64"]
    labels = [paths.label(backend.path_axes(), p) for p in backend.paths_for(builders.case())]
    assert labels == ["", "x32", "jit", "jit-x32"]  # eager and x64 on are the defaults, left out of ids


def test_the_cpu_feature_of_the_bf16_entry_is_read_from_the_kernels_list(tmp_path):
    from conformance.backends.jax import cpu_flags

    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nflags\t\t: fpu sse2 avx512f avx512_bf16 amx_tile\n\nprocessor\t: 1\n")
    assert cpu_flags(("avx512_bf16", "amx_bf16"), str(info)) == ("cpu:avx512_bf16",)
    info.write_text("processor\t: 0\nflags\t\t: fpu sse2 avx512f\n")
    assert cpu_flags(("avx512_bf16",), str(info)) == ()  # the entry is then not loaded: another CPU, not measured
    assert cpu_flags(("avx512_bf16",), str(tmp_path / "absent")) == ()


def test_what_jax_cannot_be_given_is_not_applicable_with_the_reason():
    backend = JaxBackend()
    valid = builders.case()
    path = next(iter(backend.paths_for(valid)))
    assert "no string element type" in backend.why_not(valid, path, "string")
    assert backend.why_not(valid, path, "i4") is None and backend.why_not(valid, path, "f8e5m2") is None
    (why,) = backend.paths_for(builders.case(data_shape=(None,))).values()
    assert "concrete shapes" in why
    (why,) = backend.paths_for(builders.case("numpy", axes_mapping=(1,))).values()
    assert "no axes_mapping" in why


@needs_jax
@pytest.mark.parametrize("path", PATHS, ids=lambda p: p["execution"])
@pytest.mark.parametrize(("mode", "shape", "target", "axes"), VALID)
@pytest.mark.parametrize("dtype", ["f32", "i64", "bf16", "i4"])
def test_each_mode_gives_the_references_bytes(path, mode, shape, target, axes, dtype):
    """Every bit of the reference's output, but for what a known difference records: in bf16, on a CPU with
    AVX512-BF16, XLA stores some broadcasts through vcvtneps2bf16, which turns a subnormal into a zero of its sign and
    quiets a signalling NaN (jax-cpu-bf16-broadcast-flushes-subnormals). Whether a shape goes that way is LLVM's
    choice of loop, not a rule of the inputs (the entry says why it lists cases), so this test cannot know which of
    its bf16 rows lose them; instead of skipping bf16 it allows, element by element, the reference's bits or exactly
    the entry's change of them, and nothing else: any other difference (a wrong element, another change of a
    special) still fails. The suite's run holds jax to the entry itself, as a strict expected failure."""
    data = make_data(shape, dtype)
    outcome = JaxBackend().run(builders.request(data, target, axes, mode, path=path))
    expected = reference.broadcast(data, list(target), None if axes is None else list(axes), mode)
    assert outcome.error is None, outcome.error
    assert outcome.output.dtype == expected.dtype and outcome.output.shape == expected.shape
    if dtype == "bf16":
        got, want = outcome.output.view(np.uint16), expected.view(np.uint16)
        assert np.array_equal((got == want) | (got == _as_the_bf16_entry_says(want)), np.ones(want.shape, bool)), \
            f"bits {got[got != want]}, but should be {want[got != want]}"
    else:
        assert outcome.output.tobytes() == expected.tobytes()


def _as_the_bf16_entry_says(bits: np.ndarray) -> np.ndarray:
    """bf16 bits as jax-cpu-bf16-broadcast-flushes-subnormals changes them: a subnormal (exponent 0, mantissa not 0)
    becomes the zero of its sign, a signalling NaN (exponent all ones, mantissa not 0, quiet bit 0x40 clear) gets its
    quiet bit set, every other bit kept; any other value is unchanged."""
    exponent, mantissa = bits & 0x7F80, bits & 0x007F
    subnormal = (exponent == 0) & (mantissa != 0)
    signalling = (exponent == 0x7F80) & (mantissa != 0) & ((bits & 0x0040) == 0)
    return np.where(subnormal, bits & 0x8000, np.where(signalling, bits | 0x0040, bits)).astype(np.uint16)


def test_the_bf16_entrys_change_is_that_of_vcvtneps2bf16_on_the_specials():
    """The allowance above is as narrow as the entry: subnormals to signed zeros, signalling NaNs quieted with their
    payload and sign, and every other value (normals, zeros, infinities, quiet NaNs) untouched."""
    bits = np.array([0x0001, 0x807F, 0x7F81, 0xFFBF, 0x7FC1, 0x0080, 0x8000, 0x7F80, 0x3F80], np.uint16)
    assert _as_the_bf16_entry_says(bits).tolist() == [0x0000, 0x8000, 0x7FC1, 0xFFFF, 0x7FC1, 0x0080, 0x8000,
                                                     0x7F80, 0x3F80]


@needs_jax
@pytest.mark.parametrize("execution", ["eager", "jit"])
def test_without_64_bit_mode_int64_data_comes_back_int32(execution):
    """What the known entry jax-x64-off-64-bit-made-32-bit records: jax's default configuration."""
    data = make_data((3,), "i64")
    outcome = JaxBackend().run(builders.request(data, (2, 3), path={"execution": execution, "x64": "off"}))
    assert outcome.output.dtype == np.int32
    on = JaxBackend().run(builders.request(data, (2, 3), path={"execution": execution, "x64": "on"}))
    assert on.output.dtype == np.int64 and on.output.tobytes() == np.broadcast_to(data, (2, 3)).tobytes()


@needs_jax
@pytest.mark.parametrize(("mode", "target", "axes", "stage"), [("numpy", (2,), None, "validate"),
                                                               ("explicit", (3, 2), (0, 1), "validate"),
                                                               ("bidirectional", (2, 2), None, "validate")])
@pytest.mark.parametrize("execution", ["eager", "jit"])
def test_a_broken_rule_is_a_rejection(mode, target, axes, stage, execution):
    data = make_data((3,), "f32") if mode != "explicit" else make_data((2, 3), "f32")
    outcome = JaxBackend().run(builders.request(data, target, axes, mode, path={"execution": execution, "x64": "on"}))
    assert outcome.output is None and outcome.error
    assert outcome.stage == ("trace" if execution == "jit" else stage)


@needs_jax
@pytest.mark.parametrize("execution", ["eager", "jit"])
def test_unsorted_broadcast_dimensions_are_a_transpose(execution):
    """What the known entry jax-broadcast-in-dim-unsorted-axes-accepted records: the spec rejects [1, 0]."""
    data = make_data((2, 3), "f32")
    outcome = JaxBackend().run(builders.request(data, (3, 2), (1, 0), "explicit",
                                                path={"execution": execution, "x64": "on"}))
    assert outcome.error is None and outcome.output.tobytes() == np.ascontiguousarray(data.T).tobytes()


@needs_jax
def test_a_shape_only_check_is_declared_by_eval_shape_without_allocating():
    request = builders.request(np.empty((0,), np.float32), (2**62, 3), mode="bidirectional", shape_only=True,
                               data_shape=(1, 3), path={"execution": "eager", "x64": "on"})
    assert JaxBackend().declare(request).declared_shape == (2**62, 3)
    refused = builders.request(np.empty((0,), np.float32), (2**62, 2), mode="numpy", shape_only=True,
                               data_shape=(3,), path={"execution": "eager", "x64": "on"})
    outcome = JaxBackend().declare(refused)
    assert outcome.declared_shape is None and "Incompatible types for broadcasting" in outcome.error


@needs_jax
def test_run_many_shares_one_jitted_function_and_keeps_each_result():
    backend = JaxBackend()
    path = {"execution": "jit", "x64": "on"}
    requests = [builders.request(make_data(shape, "u8"), target, axes, mode, path=path)
                for mode, shape, target, axes in VALID]
    shared = backend.run_many(requests)
    alone = [backend.run(r) for r in requests]
    assert [o.output.tobytes() for o in shared] == [o.output.tobytes() for o in alone]
    assert [o.output.shape for o in shared] == [(2, 3), (2, 0), (3, 2), (2, 3, 4), (2, 3, 4), (0,)]
    # one refusal: the whole call raises, and the harness runs each alone
    with pytest.raises(Exception, match="Incompatible types for broadcasting"):
        backend.run_many([*requests, builders.request(make_data((3,), "u8"), (2,), path=path)])


CASES = builders.small_numpy_case("[f32, i64]")


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    return builders.project(pytester, monkeypatch, CASES)


def run(project: pytest.Pytester, *args: str) -> dict:
    return builders.run_backend(project, "jax", *args)


@needs_jax
def test_a_run_on_jax_passes_a_small_case_on_every_path(project):
    data = run(project)
    verdicts = {c["id"].split("::")[-1]: c["verdict"] for c in data["checks"]}
    # x64 off: int64 data comes back int32, the known difference of jax's default configuration
    assert verdicts == {"small_numpy[jax-f32]": "pass", "small_numpy[jax-i64]": "pass",
                        "small_numpy[jax-jit-f32]": "pass", "small_numpy[jax-jit-i64]": "pass",
                        "small_numpy[jax-x32-f32]": "pass", "small_numpy[jax-x32-i64]": "known_difference",
                        "small_numpy[jax-jit-x32-f32]": "pass", "small_numpy[jax-jit-x32-i64]": "known_difference"}


def test_a_missing_jax_is_a_skip_with_the_reason(project):
    # jax made unimportable in the harness, as where it is not installed: a None in sys.modules stops the import
    project.makeconftest("import sys\nsys.modules['jax'] = None\n")
    data = run(project)
    assert {c["verdict"] for c in data["checks"]} == {"skipped"}
    assert "jax cannot be imported" in data["checks"][0]["message"]


def test_a_jax_not_installed_names_the_extra():
    class Absent(JaxBackend):
        package = "jax-not-installed-here"

    assert Absent().unavailable() == ("package 'jax-not-installed-here' is not installed "
                                      "(pip install 'broadcast-conformance[jax]')")


@pytest.mark.parametrize(("data_shape", "target", "axes", "holds"), [
    ((2, 3), (3, 2), (1, 0), True),  # jax transposes
    ((2, 1), (3, 2), (1, 0), True),  # a 1 stretched, in the wrong order
    ((2, 3), (3, 2), (0, 1), False),  # sorted: explicit_dim breaks it, and jax refuses it
    ((2, 3), (2, 3), (1, 0), False),  # 2 against 3 once transposed: jax refuses it
    ((2, 3), (3, 2), (1, 1), False),  # a duplicate
    ((2, 3), (3, 2), (2, 0), False),  # out of range
])
def test_the_trait_of_unsorted_broadcast_dimensions_jax_accepts(data_shape, target, axes, holds):
    from conformance.ops.broadcast import traits

    case = builders.case("explicit", data_shape, target, axes)
    assert traits.holds("unsorted_axes_otherwise_valid", case.params) is holds


@pytest.mark.parametrize(("data_shape", "target", "holds"), [((2, 3), (2, 3), True), ((2, 3), (3, 2), True),
                                                             ((), (), False), ((3,), (2, 3), False)])
def test_the_trait_of_empty_broadcast_dimensions_jax_returns_the_operand_for(data_shape, target, holds):
    from conformance.ops.broadcast import traits

    case = builders.case("explicit", data_shape, target, ())
    assert traits.holds("empty_axes_for_data_of_target_rank", case.params) is holds
