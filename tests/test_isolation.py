"""Checks run in worker processes: a dying or hanging backend costs one check, and the pool goes on."""

from __future__ import annotations

import pickle
import time
from pathlib import Path

import numpy as np
import pytest

from conformance.backends import Request
from conformance.run.isolation import WorkerPool, describe_exit
from tests.builders import request as broadcast_request


def request(shape=(3, 1)) -> Request:
    return broadcast_request(np.zeros(shape, np.float32), [2, 3, 1], path={"op": "v3"})


@pytest.fixture(scope="module")
def pool():
    p = WorkerPool(timeout=20)
    yield p
    p.close()


@pytest.mark.parametrize("backend, expected", [
    ("tests.fake_backends:SegfaultBackend", "signal 11 (SIGSEGV)"),
    ("tests.fake_backends:AbortBackend", "signal 6 (SIGABRT)"),
    ("tests.fake_backends:FpeBackend", "signal 8 (SIGFPE)"),
])
def test_a_dying_worker_is_a_crash_and_the_pool_goes_on(pool, backend, expected):
    outcome = pool.run(backend, request())
    assert outcome.crash == expected and outcome.stage == "worker" and outcome.output is None
    after = pool.run("local", request())
    assert after.crash is None and after.output is not None and after.output.shape == (2, 3, 1)


def test_a_hanging_check_times_out_and_the_pool_goes_on():
    p = WorkerPool(timeout=2)
    try:
        outcome = p.run("tests.fake_backends:HangBackend", request())
        assert outcome.timeout == 2 and outcome.crash is None
        assert p.run("local", request()).output is not None
    finally:
        p.close()


def test_a_fresh_check_can_be_given_fewer_seconds_than_the_pool():
    """A known hang's entry gives its checks its own timeout (conformance/known: ``timeout``)."""
    p = WorkerPool(timeout=60)
    try:
        start = time.monotonic()
        outcome = p.run_fresh("tests.fake_backends:HangBackend", request(), timeout=1)
        assert outcome.timeout == 1 and time.monotonic() - start < 30
        assert p.run_fresh("local", request()).output is not None  # the pool's own timeout otherwise
    finally:
        p.close()


def test_an_exception_in_the_adapter_is_an_adapter_error(pool):
    outcome = pool.run("tests.fake_backends:RaisingBackend", request())
    assert outcome.adapter_error is not None and "KeyError: 'a bug in the adapter'" in outcome.adapter_error


def test_a_rejection_is_not_an_error(pool):
    bad = broadcast_request(np.zeros((3,), np.float32), [2], path={"op": "v3"})
    outcome = pool.run("local", bad)
    assert outcome.error is not None and outcome.rule == "numpy_dim" and outcome.stage == "validate"


def test_the_worker_keeps_its_state_between_checks(pool):
    # the same backend instance serves consecutive checks: runtimes are loaded once per worker
    first = pool.run("local", request())
    second = pool.run("local", request((1, 1)))
    assert first.output is not None and second.output is not None


@pytest.mark.parametrize("code, text", [(-11, "signal 11 (SIGSEGV)"), (-8, "signal 8 (SIGFPE)"),
                                        (3, "exit code 3"), (-99, "signal 99")])
def test_describe_exit(code, text):
    assert describe_exit(code) == text


def test_allocating_beyond_the_memory_limit_is_out_of_memory():
    p = WorkerPool(timeout=60, memory_limit=2 * 2**30)
    try:
        outcome = p.run("tests.fake_backends:HogBackend", request())
        assert outcome.out_of_memory is not None and "MemoryError" in outcome.out_of_memory
        assert p.run("local", request()).output is not None
    finally:
        p.close()


def test_garbage_on_stdout_does_not_disturb_the_result(pool, capfd):
    outcome = pool.run("tests.fake_backends:NoisyBackend", request())
    assert outcome.output is not None and outcome.output.shape == (2, 3, 1)


@pytest.mark.parametrize("backend, fragment", [
    ("tests.fake_backends:ExitingBackend", "SystemExit: 3"),
    ("tests.fake_backends:ExoticExceptionBackend", "_Unpicklable: carries a lock"),
])
def test_exotic_exceptions_are_adapter_errors(pool, backend, fragment):
    outcome = pool.run(backend, request())
    assert outcome.adapter_error is not None and fragment in outcome.adapter_error
    assert pool.run("local", request()).output is not None


@pytest.mark.parametrize("backend, expected", [
    ("tests.fake_backends:SegfaultBackend", "signal 11 (SIGSEGV)"),
    ("tests.fake_backends:AbortBackend", "signal 6 (SIGABRT)"),
])
def test_a_check_run_alone_reports_its_signal(pool, backend, expected):
    # a fresh process for one check, as when a worker was already gone before it took its task
    assert pool.run_alone(backend, request()).crash == expected
    assert pool.run_alone("local", request()).output is not None


def test_a_check_run_alone_times_out():
    p = WorkerPool(timeout=2)
    try:
        assert p.run_alone("tests.fake_backends:HangBackend", request()).timeout == 2
    finally:
        p.close()


FORKSERVER_THREADS = """
import os
from multiprocessing import forkserver
import numpy as np
from conformance.backends import BUILTIN, Request, load
from conformance.run.isolation import WorkerPool

pool = WorkerPool(timeout=60, preload=tuple(dict.fromkeys(m for name in BUILTIN for m in load(name).preload)))
request = Request(op="broadcast", path={"op": "v3"}, inputs={"data": np.zeros((3, 1), np.float32),
                  "target_shape": np.array([2, 3, 1]), "axes_mapping": None}, attrs={"mode": "numpy"})
assert pool.run("local", request).output is not None
tasks = f"/proc/{forkserver._forkserver._forkserver_pid}/task"
print(len(os.listdir(tasks)), sorted(open(f"{tasks}/{t}/comm").read().strip() for t in os.listdir(tasks)))
pool.close()
"""


@pytest.mark.parametrize("telemetry", ["on", "off"])
def test_the_forkserver_holds_no_thread_when_it_forks(telemetry):
    """A fork while another thread holds a lock leaves the child waiting forever. Importing openvino starts a
    telemetry thread pool (not when the environment says CI=true), which conformance.run.quiesce shuts down; numpy's
    OpenBLAS pool stops itself before each fork. The real forkserver, preloaded for every built-in backend, holds
    one thread once it has forked a worker."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "CI"} | ({"CI": "true"} if telemetry == "off" else {})
    out = subprocess.run([sys.executable, "-c", FORKSERVER_THREADS], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1], env=env, timeout=120)
    assert out.stdout.split()[0] == "1", out.stdout


CORE_DUMP = """
import resource
import numpy as np
from conformance.backends import Request
from conformance.run.isolation import WorkerPool

hard = resource.getrlimit(resource.RLIMIT_CORE)[1]
resource.setrlimit(resource.RLIMIT_CORE, (hard, hard))
pool = WorkerPool(timeout=60)
request = Request(op="broadcast", path={"op": "v3"}, inputs={"data": np.zeros((3, 1), np.float32),
                  "target_shape": np.array([2, 3, 1]), "axes_mapping": None}, attrs={"mode": "numpy"})
print(pool.run("tests.fake_backends:SegfaultBackend", request).crash)
pool.close()
"""


def test_a_crashing_worker_writes_no_core_dump(tmp_path):
    """Core dumps allowed in the harness (its soft ulimit -c raised to the hard one), and the kernel writing them
    to the working directory: the worker's crash is reported, and no core file is written."""
    import os
    import resource
    import subprocess
    import sys

    pattern = Path("/proc/sys/kernel/core_pattern").read_text().strip()
    if pattern.startswith("|") or "/" in pattern or resource.getrlimit(resource.RLIMIT_CORE)[1] == 0:
        pytest.skip(f"the kernel would not write a core dump to the working directory here ({pattern!r})")
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", CORE_DUMP], capture_output=True, text=True, check=True,
                         cwd=tmp_path, env=os.environ | {"PYTHONPATH": str(root)}, timeout=120)
    assert out.stdout.strip() == "signal 11 (SIGSEGV)", out
    assert not [p.name for p in tmp_path.iterdir()]


MAIN_SCRIPT = """
import os
import numpy as np
from conformance.backends import Request
from conformance.run.isolation import WorkerPool

with open(os.environ["MAIN_RUNS"], "a") as runs:  # no __name__ guard: each run of this script adds a line
    runs.write(f"{os.getpid()}\\n")
if os.getpid() == int(open(os.environ["MAIN_RUNS"]).readline()):
    pool = WorkerPool(timeout=60)
    request = Request(op="broadcast", path={"op": "v3"}, inputs={"data": np.zeros((3, 1), np.float32),
                      "target_shape": np.array([2, 3, 1]), "axes_mapping": None}, attrs={"mode": "numpy"})
    print(pool.run("local", request).output.shape)
    pool.close()
"""


def test_a_worker_does_not_run_the_harness_main_script(tmp_path):
    """Run from a script (the ``pytest`` console script is one), the worker must not execute it again, as
    multiprocessing does by default: that costs an import of pytest in every replaced worker."""
    import os
    import subprocess
    import sys

    script, runs = tmp_path / "main_script.py", tmp_path / "runs.txt"
    script.write_text(MAIN_SCRIPT)
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True, cwd=root,
                         env=os.environ | {"MAIN_RUNS": str(runs), "PYTHONPATH": str(root)}, timeout=120)
    assert out.stdout.strip() == "(2, 3, 1)", out
    assert len(runs.read_text().split()) == 1, "the script ran again in the worker"


WORKER_IMPORTS = """
import importlib
import json
import sys
for module in ["conformance.run.isolation", *json.loads(sys.argv[1])]:
    importlib.import_module(module)  # what the forkserver imports
import numpy as np
from conformance.run.isolation import run_check
from tests.builders import request
before = set(sys.modules)
for name, path in json.loads(sys.argv[2]).items():
    outcome = run_check(name, request(np.ones((2, 1), np.float32), (2, 3), mode="bidirectional", path=path))
    assert outcome.output is not None and outcome.output.shape == (2, 3), (name, path, outcome)
print(sorted(m for m in sys.modules if m not in before))
"""


def test_a_fresh_worker_imports_nothing_for_its_first_check():
    """Each check that fails, and each a known difference describes (several thousand a run), runs in a worker
    forked for it alone, so what that worker imports is paid per check: every built-in backend's preload names
    its own module, and loading the backends imports nothing the harness alone needs (the generated checks'
    hypothesis strategy cost 210 ms in each such worker)."""
    import json
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    from conformance.backends import BUILTIN, load
    from tests.builders import case

    installed = [name for name in BUILTIN if load(name).unavailable() is None]  # jax and tensorflow are extras
    preload = [m for name in installed for m in load(name).preload]  # as the harness learns it
    valid = case("bidirectional", (2, 1), (2, 3))
    paths = {name: dict(next(iter(load(name).paths_for(valid)))) for name in installed}
    out = subprocess.run([sys.executable, "-c", WORKER_IMPORTS, json.dumps(preload), json.dumps(paths)],
                         capture_output=True, text=True, cwd=root,
                         env=os.environ | {"PYTHONPATH": str(root)}, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]", out.stdout


def _request(max_output_bytes=None):
    return Request(op="broadcast", path={"op": "v3"}, inputs={"data": np.zeros((3, 1), np.float32),
                   "target_shape": np.array([2, 3, 1]), "axes_mapping": None}, attrs={"mode": "numpy"},
                   max_output_bytes=max_output_bytes)


def _within(seconds, call):
    """call() in a thread; its result, or a failure if it is still waiting after ``seconds``."""
    import threading

    done = {}
    thread = threading.Thread(target=lambda: done.setdefault("result", call()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still waiting after {seconds} s"
    return done["result"]


def test_a_worker_stopped_in_the_middle_of_sending_is_a_timeout():
    """The harness polled for the first byte, then read the rest with no deadline: a worker stopped after a few
    bytes of its reply held the run forever. Every read now has the check's deadline."""
    pool = WorkerPool(timeout=2)
    try:
        outcome = _within(60, lambda: pool.run("tests.fake_backends:StallsMidSendBackend", _request()))
        assert outcome.timeout == 2 and outcome.stage == "worker"
        assert pool.run("local", _request()).output.shape == (2, 3, 1)  # the run goes on
    finally:
        pool.close()


def test_an_output_over_the_limit_is_judged_from_its_shape_not_received():
    """64 MiB of output for a check whose limit is 1 MiB (the output budget): the worker sends its shape, type and
    size; nothing of it is received."""
    from conformance.judge import judge_outcome

    pool = WorkerPool(timeout=60)
    try:
        outcome = pool.run("tests.fake_backends:HugeOutputBackend", _request(max_output_bytes=2**20))
    finally:
        pool.close()
    assert outcome.output is None and outcome.withheld == ((4096, 4096), "f32", 64 * 2**20)
    verdict = judge_outcome(np.zeros((2, 3, 1), np.float32), None, outcome)
    assert (verdict.verdict, verdict.message) == ("wrong_shape", "out.shape=(4096, 4096), but should be (2, 3, 1) "
                                                  "(an output of 67108864 bytes, more than the output budget: "
                                                  "judged from its shape, not received)")


def test_a_small_message_cannot_expand_in_the_harness():
    """A backend's objects are made plain in the worker, and the harness unpickles no class: an output whose pickle
    would make 1 TiB of bytes in the process that loads it arrives as the text of the object."""
    from conformance.run import wire

    pool = WorkerPool(timeout=60)
    try:
        outcome = pool.run("tests.fake_backends:ExpandingOutputBackend", _request())
    finally:
        pool.close()
    assert outcome.output.dtype == object and outcome.output.shape == ()
    assert str(outcome.output[()]).startswith("<tests.fake_backends._Expands object") and "_Expands" in outcome.stage
    with pytest.raises(pickle.UnpicklingError, match="only plain data is read"):
        wire.loads(pickle.dumps(np.zeros(3)))


def test_processes_a_backend_starts_end_with_its_worker():
    pool = WorkerPool(timeout=60)
    try:
        outcome = pool.run("tests.fake_backends:ChildStartingBackend", _request())
        child = int(outcome.error.split()[1])
        assert _alive(child)
    finally:
        pool.close()
    deadline = time.monotonic() + 10
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child)


def _alive(pid):
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"
