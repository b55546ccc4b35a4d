"""A run stopped with Ctrl-C, SIGTERM or SIGKILL keeps every finished check, and its report says it is
incomplete."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conformance.results.files import load, load_stream

ROOT = Path(__file__).resolve().parents[1]

CASES = "group: rule\ncases:\n" + "".join(f"""\
  - id: slow_{i}
    mode: numpy
    data_shape: [3]
    target_shape: [2, 3]
    expect: {{shape: [2, 3]}}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
""" for i in range(40))


def start_run(tmp_path: Path) -> subprocess.Popen[bytes]:
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "slow.yaml").write_text(CASES)
    (tmp_path / "test_conformance.py").write_text("")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "conformance.plugin", "-p", "no:cacheprovider", "-q",
         "--backend", "tests.fake_backends:SlowBackend", "--dtype", "f32", "--results", "out/results.json",
         "--report", "out/index.html"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
        # a shell starts background jobs with SIGINT ignored, and Python keeps that: restore Ctrl-C
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def streamed_checks(path: Path) -> list[dict]:
    return load_stream(path).to_json()["checks"] if path.exists() and path.stat().st_size else []


def wait_for_checks(proc: subprocess.Popen[bytes], stream: Path, count: int) -> None:
    deadline = time.monotonic() + 120
    while len(streamed_checks(stream)) < count:
        assert proc.poll() is None, proc.stdout.read().decode() if proc.stdout else ""
        assert time.monotonic() < deadline, "the run never got going"
        time.sleep(0.1)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_run_writes_everything_it_finished(tmp_path: Path, sig: signal.Signals) -> None:
    proc = start_run(tmp_path)
    stream = tmp_path / "out" / "results.jsonl"
    wait_for_checks(proc, stream, 5)
    proc.send_signal(sig)
    try:
        output = proc.communicate(timeout=120)[0].decode()
    finally:  # never leave a run behind, even when this test fails
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    finished = streamed_checks(stream)
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    assert data["run"]["complete"] is False, output
    assert 5 <= len(data["checks"]) < 80
    assert [c["id"] for c in data["checks"]] == [c["id"] for c in finished]
    assert all(c["verdict"] == "pass" for c in data["checks"])
    assert "Incomplete run" in (tmp_path / "out" / "index.html").read_text()


def test_a_killed_run_keeps_its_finished_checks_in_the_stream(tmp_path: Path) -> None:
    proc = start_run(tmp_path)
    stream = tmp_path / "out" / "results.jsonl"
    wait_for_checks(proc, stream, 5)
    os.killpg(proc.pid, signal.SIGKILL)  # the run and its workers, with no chance to clean up
    proc.communicate(timeout=60)
    finished = streamed_checks(stream)
    assert len(finished) >= 5
    assert not (tmp_path / "out" / "results.json").exists()
    report = tmp_path / "partial.html"
    subprocess.run([sys.executable, "-m", "conformance", "report", str(stream), "-o", str(report)], check=True,
                   cwd=ROOT, capture_output=True)
    html = report.read_text()
    assert "Incomplete run" in html
    assert all(c["case"] in html for c in finished)


def test_a_complete_run_closes_its_stream(tmp_path: Path) -> None:
    proc = start_run(tmp_path)
    proc.communicate(timeout=300)
    streamed = load(tmp_path / "out" / "results.jsonl").to_json()
    final = load(tmp_path / "out" / "results.json").to_json()
    assert streamed["run"]["complete"] is True and final["run"]["complete"] is True
    assert [c["id"] for c in streamed["checks"]] == [c["id"] for c in final["checks"]]
    assert len(final["checks"]) == 80 and set(streamed["cases"]) == set(final["cases"])
