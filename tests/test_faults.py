"""Every kind of misbehaving backend in one run: each check gets its own verdict, every other check's result
is kept, and the results file holds every check of the plan (none lost), with and without xdist."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

CASES = """\
group: rule
cases:
  - id: fault_valid
    mode: numpy
    data_shape: [3, 1]
    target_shape: [2, 3, 4]
    expect: {shape: [2, 3, 4]}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
    dtypes: [f32, i64]
  - id: fault_reject
    mode: numpy
    data_shape: [3]
    target_shape: [2]
    expect: {reject: numpy_dim}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
"""

# backend -> the verdict each of its checks must get (both cases: the fault happens whatever the input)
FAULTS = {
    "segfault": ("SegfaultBackend", "crash", "signal 11 (SIGSEGV)"),
    "abort": ("AbortBackend", "crash", "signal 6 (SIGABRT)"),
    "fpe": ("FpeBackend", "crash", "signal 8 (SIGFPE)"),
    "hang": ("HangBackend", "timeout", "timeout after 3 s"),
    "sleepy": ("SleepyBackend", "timeout", "timeout after 3 s"),
    "hog": ("HogBackend", "out_of_memory", "MemoryError"),
    "raising": ("RaisingBackend", "error", "KeyError"),
    "exiting": ("ExitingBackend", "error", "SystemExit: 3"),
    "exotic": ("ExoticExceptionBackend", "error", "_Unpicklable"),
    "garbage": ("GarbageOutcomeBackend", "error", "returned str, not an Outcome"),
}


@pytest.mark.parametrize("xdist", [[], ["-n", "2"]], ids=["one-process", "xdist"])
def test_every_fault_is_its_own_verdict_and_nothing_is_lost(pytester: pytest.Pytester, monkeypatch, xdist):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makepyfile(test_conformance="")
    (pytester.path / "cases").mkdir()
    (pytester.path / "cases" / "faults.yaml").write_text(CASES)
    backends = [arg for name, (cls, _, _) in FAULTS.items() for arg in ("--backend", f"tests.fake_backends:{cls}")]
    # a plain subprocess, not pytester's: the noisy backend writes bytes that are not text to the terminal
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "conformance.plugin", "-p", "no:cacheprovider", *backends,
         "--backend", "tests.fake_backends:NoisyBackend", "--backend", "local", "--check-timeout", "3",
         "--worker-memory", "1024", "--generated-examples", "0", "--results", "out/results.json",
         "--report", "out/index.html", *xdist],
        cwd=pytester.path, capture_output=True, timeout=600)
    assert run.returncode == 1, run.stdout[-3000:]  # the faulty backends fail their checks
    data = json.loads((pytester.path / "out" / "results.json").read_text())
    checks = {(c["case"], c["backend"], c["variant"], c["dtype"]): c for c in data["checks"]}
    # the plan: 10 faulty backends x (2 + 1 checks), and noisy + local x 2 variants x (2 + 1)
    assert len(data["checks"]) == len(checks) == 10 * 3 + 2 * 2 * 3
    for name, (_, verdict, fragment) in FAULTS.items():
        for key in [("fault_valid", name, "v3", "f32"), ("fault_valid", name, "v3", "i64"),
                    ("fault_reject", name, "v3", "f32")]:
            check = checks[key]
            assert check["verdict"] == verdict, (key, check["message"])
            assert fragment in (check["message"] or "") + str(check["actual"]), (key, check)
    for name in ("noisy", "local"):
        assert all(c["verdict"] == "pass" for k, c in checks.items() if k[1] == name)
    assert data["run"]["complete"] is True
    html = (pytester.path / "out" / "index.html").read_text()
    assert "signal 11 (SIGSEGV)" in html and "out_of_memory" in html
