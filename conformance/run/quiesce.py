"""Imported last by the forkserver that forks every worker process: it must hold no thread that could be inside
an import or a lock when it forks, or the child waits on that lock forever (seen: a worker hung in importlib's
module lock, no check timeout could reach it). Importing openvino sends a telemetry event from a thread pool,
and the sending thread imports multiprocessing and starts a process, for up to 3 s
(openvino_telemetry/backend/backend_ga4.py). So every thread pool the preloaded modules started is shut down
here, after its work is done; a later submit to it fails, which the telemetry sender ignores. (With CI=true in the
environment, openvino sends nothing and starts no pool.) The one other thread, numpy's OpenBLAS pool, stops itself
before each fork (its pthread_atfork handler), so the forkserver holds one thread when it forks
(tests/test_isolation.py checks it with the telemetry on and off).
"""

from __future__ import annotations

import gc
from concurrent.futures import ThreadPoolExecutor


def quiesce() -> int:
    """Shut down every ThreadPoolExecutor of this process, waiting for the work they run; returns how many."""
    pools = [obj for obj in gc.get_objects() if isinstance(obj, ThreadPoolExecutor)]
    for pool in pools:
        pool.shutdown(wait=True, cancel_futures=True)
    return len(pools)


quiesce()
