"""A run stopped with Ctrl-C, SIGTERM or SIGKILL keeps every finished check, and its report says it is
incomplete."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

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


def test_a_killed_run_leaves_no_results_or_report_of_another_run(tmp_path: Path) -> None:
    """From its first line on, a run moves the last run's results file and report aside (results.previous.json,
    index.previous.html): killed, it leaves its stream, and nothing that belongs to another run looks current."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.json").write_text("the last run's results")
    (out / "index.html").write_text("the last run's report")
    proc = start_run(tmp_path)
    wait_for_checks(proc, out / "results.jsonl", 5)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=60)
    assert not (out / "results.json").exists() and not (out / "index.html").exists()
    assert (out / "results.previous.json").read_text() == "the last run's results"
    assert (out / "index.previous.html").read_text() == "the last run's report"


def test_a_second_run_on_the_same_results_path_is_refused(tmp_path: Path) -> None:
    """Two runs writing one stream made one file with two headers and a torn line in the middle, which rendered as
    one green run. The second is refused before it runs (a lock the system releases when the first ends)."""
    proc = start_run(tmp_path)
    stream = tmp_path / "out" / "results.jsonl"
    try:
        wait_for_checks(proc, stream, 3)
        second = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "conformance.plugin", "-p", "no:cacheprovider", "-q",
             "--backend", "local", "--results", "out/results.json", "--report", "none"],
            cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120)
        output = proc.communicate(timeout=300)[0].decode()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert second.returncode == pytest.ExitCode.USAGE_ERROR, second.stdout + second.stderr
    assert "out/results.json: another run is writing it (it holds " in second.stderr
    assert proc.returncode == 0, output
    streamed = load_stream(stream).to_json()  # one run's stream: an error if anything else was written into it
    assert streamed["run"]["complete"] is True and len(streamed["checks"]) == 80


LOCAL_RUN = [sys.executable, "-m", "pytest", "-p", "conformance.plugin", "-p", "no:cacheprovider", "-q",
             "--backend", "local", "--generated-examples", "0", "--results", "out/results.json",
             "--report", "out/index.html"]


def test_a_full_disk_keeps_what_was_written_and_writes_what_fits(tmp_path: Path) -> None:
    """A file size limit (RLIMIT_FSIZE, the write fails as on a full disk) that the stream and the results file
    outgrow mid-run and the report does not: the stream keeps its lines up to then, the report is written, no
    results file of another run is left in place, the summary names each file not written, the run is not green."""
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "many.yaml").write_text(CASES.replace("slow_", "many_"))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run(LOCAL_RUN, cwd=tmp_path, env=env, check=True, capture_output=True, timeout=300)
    out = tmp_path / "out"
    sizes = {p.name: p.stat().st_size for p in out.iterdir() if not p.name.endswith(".lock")}
    assert sizes["index.html"] < min(sizes["results.json"], sizes["results.jsonl"]), sizes
    limit = (sizes["index.html"] + min(sizes["results.json"], sizes["results.jsonl"])) // 2

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit then fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    done = subprocess.run(LOCAL_RUN, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
                          preexec_fn=limited)
    assert done.returncode == pytest.ExitCode.INTERNAL_ERROR, done.stdout + done.stderr
    assert "out/results.jsonl: File too large; its lines up to then are kept" in done.stdout
    assert "could not write " in done.stdout and "out/results.json: File too large" in done.stdout
    assert "out/index.html" in done.stdout.split("could not")[0]
    assert not (out / "results.json").exists()  # the last run's went aside, this run's did not fit
    assert (out / "results.previous.json").stat().st_size == sizes["results.json"]
    kept = load_stream(out / "results.jsonl").to_json()  # torn where the limit cut it
    assert 0 < len(kept["checks"]) < 1440
    html = (out / "index.html").read_text()
    assert all(f"many_{i}" in html for i in range(40))  # the report holds every check, not just the streamed ones


def start_xdist_run(tmp_path: Path) -> subprocess.Popen[bytes]:
    (tmp_path / "cases").mkdir(exist_ok=True)
    (tmp_path / "cases" / "slow.yaml").write_text(CASES)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "conformance.plugin", "-p", "no:cacheprovider", "-q", "-n", "2",
         "--backend", "tests.fake_backends:SlowBackend", "--dtype", "f32", "--results", "out/results.json",
         "--report", "out/index.html", "--generated-examples", "0"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def stopped(proc: subprocess.Popen[bytes], stop: Any) -> str:
    try:
        stop()
        return proc.communicate(timeout=120)[0].decode()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


@pytest.mark.parametrize("target", ["controller", "process group"])
def test_sigterm_under_xdist_stops_the_run_and_makes_nothing_up(tmp_path: Path, target: str) -> None:
    """SIGTERM to the controller used to be ignored to the end of the run; to the whole process group (a service
    manager, `kill -- -PGID`) it killed the harness's forkserver and the check workers, so the check in flight
    became a crash (signal 15) or an error (ConnectionRefusedError), and xdist workers died with their items. Now
    either stops the run after the items in progress, every check recorded is one that ran to its verdict, and
    every item (a case on a backend: 2 checks here) is whole."""
    proc = start_xdist_run(tmp_path)
    wait_for_checks(proc, tmp_path / "out" / "results.jsonl", 6)
    output = stopped(proc, lambda: os.kill(proc.pid, signal.SIGTERM) if target == "controller"
                     else os.killpg(proc.pid, signal.SIGTERM))
    # that it stopped is said by what ran (fewer than the 40 cases, below), not by a time (the machine's load decides
    # that: 12.9 s once on a busy 2-core machine)
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    assert data["run"]["complete"] is False, output
    assert {c["verdict"] for c in data["checks"]} == {"pass"}, [c["message"] for c in data["checks"]]
    per_case: dict[str, int] = {}
    for c in data["checks"]:
        per_case[c["case"]] = per_case.get(c["case"], 0) + 1
    assert set(per_case.values()) == {2} and 3 <= len(per_case) < 40, per_case
    assert "Incomplete run" in (tmp_path / "out" / "index.html").read_text()


@pytest.mark.parametrize("gap", [0.0, 0.05, 0.2])
def test_two_quick_interrupts_never_mark_a_partial_run_complete(tmp_path: Path, gap: float) -> None:
    """Ctrl-C twice: the second came while pytest handled the first and the run was written as complete, with no
    banner and the unrun cases simply absent. Whatever is written now says the run is incomplete."""
    proc = start_run(tmp_path)
    stream = tmp_path / "out" / "results.jsonl"
    wait_for_checks(proc, stream, 5)

    def twice() -> None:
        proc.send_signal(signal.SIGINT)
        time.sleep(gap)
        proc.send_signal(signal.SIGINT)

    output = stopped(proc, twice)
    results = tmp_path / "out" / "results.json"
    if results.exists():
        assert json.loads(results.read_text())["run"]["complete"] is False, output
        assert "Incomplete run" in (tmp_path / "out" / "index.html").read_text()
    assert load_stream(stream).run.complete is False, output


def test_under_xdist_the_stream_is_the_controllers_alone(tmp_path: Path) -> None:
    """Each xdist worker recorded its own reports too, opening <results>.jsonl afresh: the stream of every `-n`
    run (the README's command) was overwritten in the middle, NUL bytes and torn lines that no reader could load.
    Now only the controller writes it, and it holds what the results file holds; a broken case file's collection
    error once, though every worker collects it."""
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "broken.yaml").write_text("group: rule\ncases: []\n")
    proc = start_xdist_run(tmp_path)
    output = stopped(proc, lambda: None)
    streamed = load_stream(tmp_path / "out" / "results.jsonl").to_json()
    final = load(tmp_path / "out" / "results.json").to_json()
    assert streamed["run"]["complete"] is True and final["run"]["complete"] is True, output
    assert [c["id"] for c in streamed["checks"]] == [c["id"] for c in final["checks"]] and len(final["checks"]) == 80
    assert [e["file"] for e in streamed["collection_errors"]] == ["cases/broken.yaml"]
