"""Checks that share work (one compiled model for the checks of a case) keep their own verdicts: a crash in a
shared batch is pinned on the check that causes it, and the real runtimes give the same verdict for every
check whether models are shared or built one per check (--uncached)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

CASES = """\
group: rule
cases:
  - id: share_valid
    mode: numpy
    data_shape: [3, 1]
    target_shape: [2, 3, 4]
    expect: {shape: [2, 3, 4]}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
    dtypes: [f32, i64, u8]
  - id: share_reject
    mode: numpy
    data_shape: [3]
    target_shape: [2]
    expect: {reject: numpy_dim}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
"""


def run_suite(cwd: Path, *args: str, env: dict[str, str] | None = None, results: Path | None = None) -> dict:
    """The suite in cwd (a pytester directory, or the project itself with --cases), its results file read."""
    results = results or cwd / "out" / "results.json"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--results", str(results), "--report", "none",
         "--generated-examples", "0", *args], cwd=cwd, capture_output=True, text=True, timeout=900, env=env)
    assert run.returncode in (0, 1), run.stdout[-3000:] + run.stderr[-3000:]
    return json.loads(results.read_text())


def verdicts(data: dict) -> dict[str, str]:
    return {c["id"]: c["verdict"] for c in data["checks"]}


@pytest.fixture
def suite_dir(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makepyfile(test_conformance="")
    (pytester.path / "cases").mkdir()
    (pytester.path / "cases" / "share.yaml").write_text(CASES)
    return pytester.path


@pytest.mark.parametrize("xdist", [[], ["-n", "2"]], ids=["one-process", "xdist"])
def test_a_crash_in_a_shared_batch_is_pinned_on_its_check(suite_dir: Path, xdist: list[str]) -> None:
    data = run_suite(suite_dir, "-p", "conformance.plugin", "--backend", "tests.fake_backends:CrashOnI64Backend",
                     *xdist)
    got = {(c["case"], c["variant"], c["dtype"]): c["verdict"] for c in data["checks"]}
    assert got[("share_valid", "v3", "i64")] == "crash"
    assert got[("share_valid", "v1", "i64")] == "crash"
    others = {k: v for k, v in got.items() if k[2] != "i64"}
    assert others and set(others.values()) == {"pass"}, others


def test_checks_of_a_case_share_one_call_unless_uncached(suite_dir: Path) -> None:
    import os

    log = suite_dir / "batches.txt"
    env = {**os.environ, "BATCH_LOG": str(log)}
    run_suite(suite_dir, "-p", "conformance.plugin", "--backend", "tests.fake_backends:CountingBackend", env=env)
    # share_valid: 2 variants (v1, v3) x 3 dtypes in one call; the rejection runs alone
    assert log.read_text().split() == ["6"]
    log.unlink()
    run_suite(suite_dir, "-p", "conformance.plugin", "--backend", "tests.fake_backends:CountingBackend", "--uncached",
              env=env)
    assert not log.exists()


def test_a_batch_spans_the_next_cases_of_the_backend(suite_dir: Path) -> None:
    import os

    second = CASES.split("  - id: share_reject")[0].split("cases:\n", 1)[1].replace("share_valid", "share_valid_too")
    (suite_dir / "cases" / "share.yaml").write_text(CASES + second)
    log = suite_dir / "batches.txt"
    run_suite(suite_dir, "-p", "conformance.plugin", "--backend", "tests.fake_backends:CountingBackend",
              env={**os.environ, "BATCH_LOG": str(log)})
    # both valid cases (2 variants x 3 dtypes each) in one call; the rejection between them runs alone
    assert log.read_text().split() == ["12"]


@pytest.mark.parametrize("xdist", [[], ["-n", "2"]], ids=["one-process", "xdist"])
def test_a_failure_in_a_shared_model_is_decided_by_the_check_alone(suite_dir: Path, xdist: list[str]) -> None:
    data = run_suite(suite_dir, "-p", "conformance.plugin", "--backend", "tests.fake_backends:SharedModelBugBackend",
                     *xdist)
    got = {(c["case"], c["variant"], c["dtype"]): (c["verdict"], c["model"]) for c in data["checks"]
           if c["case"] == "share_valid"}
    assert got[("share_valid", "v3", "i64")] == ("pass", "shared, then fresh worker")
    assert got[("share_valid", "v1", "i64")] == ("pass", "shared, then fresh worker")
    assert got[("share_valid", "v3", "f32")] == ("pass", "shared")
    uncached = run_suite(suite_dir, "-p", "conformance.plugin", "--backend",
                         "tests.fake_backends:SharedModelBugBackend", "--uncached")
    assert {c["model"] for c in uncached["checks"] if c["verdict"] == "pass"} <= {"own", "own, fresh worker"}


@pytest.mark.parametrize("xdist", [[], ["-n", "2"]], ids=["one-process", "xdist"])
def test_no_verdict_depends_on_the_checks_before_it_in_its_worker(suite_dir: Path, xdist: list[str]) -> None:
    """A backend that computes wrongly after its first check in a process (as a runtime whose earlier check
    changed the thread's floating-point mode would): every failing outcome of a worker that had run other checks
    is computed again in a fresh one, and that decides."""
    data = run_suite(suite_dir, "-p", "conformance.plugin", "--backend", "tests.fake_backends:SpoiledAfterFirstBackend",
                     "--uncached", *xdist)
    valid = [c for c in data["checks"] if c["case"] != "share_reject"]
    assert {c["verdict"] for c in valid} == {"pass"}
    assert {c["model"] for c in valid} == {"own, fresh worker", "own, then fresh worker"}


@pytest.mark.parametrize("mode", [[], ["--uncached"], ["-n", "2"]], ids=["shared", "uncached", "xdist"])
def test_no_check_runs_after_a_failure_in_its_worker(suite_dir: Path, mode: list[str]) -> None:
    """A backend whose first failure in a process hides its bug from every later check there: the worker that
    gave a failing outcome is replaced, and the outcomes computed with it in one shared model are computed again,
    so every check of the bug fails (before, only the first in each worker did)."""
    (suite_dir / "cases" / "more.yaml").write_text(CASES.replace("share_", "more_").replace("[2, 3, 4]", "[5, 3, 2]"))
    data = run_suite(suite_dir, "-p", "conformance.plugin", "--backend",
                     "tests.fake_backends:HiddenAfterFailureBackend", *mode)
    i64 = [c for c in data["checks"] if c["dtype"] == "i64" and c["case"].endswith("_valid")]
    assert len(i64) == 4
    assert {c["verdict"] for c in i64} == {"wrong_values"}, [(c["id"], c["verdict"], c["model"]) for c in i64]


def test_a_backend_whose_lone_and_shared_runs_disagree_is_caught(suite_dir: Path) -> None:
    """A sample of the passing shared checks is computed on a model of its own as well: a backend that is right
    in a shared model and wrong alone fails those checks (each then confirmed in a fresh worker)."""
    from conformance.run.execute import sampled_alone

    many = "group: rule\ncases:\n" + "".join(
        f"  - id: lone_{k}\n    mode: numpy\n    data_shape: [{k}, 1]\n    target_shape: [2, {k}, 3]\n"
        f"    expect: {{shape: [2, {k}, 3]}}\n    spec_ref: \"003_38ca088f58e9a6c7.txt#Examples\"\n"
        f"    dtypes: [i64, u8]\n"
        for k in range(1, 41))
    (suite_dir / "cases" / "lone.yaml").write_text(many)
    data = run_suite(suite_dir, "-p", "conformance.plugin", "--backend", "tests.fake_backends:LoneModelBugBackend")
    checks = [c for c in data["checks"] if c["case"].startswith("lone_")]
    sampled = [c for c in checks if sampled_alone(c["id"].split("::")[1])]
    assert {c["dtype"] for c in sampled} == {"i64", "u8"}  # both kinds are in the sample
    assert {(c["dtype"], c["verdict"], c["model"]) for c in sampled} == {
        ("i64", "wrong_values", "own, then fresh worker"), ("u8", "pass", "shared, also own")}
    assert {(c["verdict"], c["model"]) for c in checks if c not in sampled} == {("pass", "shared")}


SAMPLE_FILES = ["spec_broadcast_rules.yaml", "scalars_zero_size.yaml", "bidirectional_rules.yaml",
                "explicit_rules.yaml"]


@pytest.mark.parametrize("backend", ["openvino", "openvino-onnx", "onnxruntime", "onnx-reference"])
def test_shared_and_one_per_check_models_give_the_same_verdicts(tmp_path: Path, backend: str) -> None:
    """The real runtimes, on cases with known crashes, wrong values and rejections among them."""
    cases = tmp_path / "cases"
    cases.mkdir()
    for name in SAMPLE_FILES:
        shutil.copy(ROOT / "cases" / name, cases / name)
    args = ["conformance", "--cases", str(cases), "--backend", backend, "--dtype", "f32", "--dtype", "i64",
            "--dtype", "u8"]
    shared = verdicts(run_suite(ROOT, *args, results=tmp_path / "shared.json"))
    alone = verdicts(run_suite(ROOT, *args, "--uncached", results=tmp_path / "alone.json"))
    assert shared.keys() == alone.keys() and len(shared) > 50
    differ = {k: (shared[k], alone[k]) for k in shared if shared[k] != alone[k]}
    assert not differ, differ
    assert "known_difference" in shared.values() or backend in ("onnxruntime", "onnx-reference")


def test_openvino_still_miscomputes_a_rank7_broadcast_after_a_rank6_one_in_one_model() -> None:
    """Why a failure in a shared model is recomputed alone (conformance/batching.py): OpenVINO's CPU plugin fills
    the rank-7 output of this two-output model with uninitialised memory, and computes either alone right. When
    this test fails, OpenVINO got it right: say so in batching.py's docstring (the recomputation stays)."""
    ov = pytest.importorskip("openvino")
    import numpy as np
    import openvino.opset3 as ops

    def outputs(targets: list[list[int]]) -> list[np.ndarray]:
        params, nodes, feeds = [], [], []
        for k, target in enumerate(targets):
            data, shape = ops.parameter([], np.float32), ops.parameter([len(target)], np.int64)
            params += [data, shape]
            nodes.append(ops.broadcast(data, shape, broadcast_spec="BIDIRECTIONAL"))
            feeds += [np.array(10.0 * (k + 1), np.float32), np.array(target, np.int64)]
        compiled = ov.Core().compile_model(ov.Model(nodes, params), "CPU")
        return [np.array(compiled(feeds)[k]) for k in range(len(targets))]

    rank6, rank7 = [2, 1, 2, 1, 3, 2], [1, 2, 1, 2, 1, 3, 2]
    (alone,) = outputs([rank7])
    assert alone.shape == tuple(rank7) and (alone == 10.0).all()
    first, second = outputs([rank6, rank7])
    assert first.shape == tuple(rank6) and (first == 10.0).all()
    assert second.shape == tuple(rank7)
    assert not (second == 20.0).all(), f"OpenVINO {ov.__version__} computes the shared model right now"
