"""The options of `pytest conformance`, and their values checked before anything runs."""

from __future__ import annotations

import math
import re
import zlib
from pathlib import Path

import pytest

from conformance import ops
from conformance.backends import BUILTIN
from conformance.data import DTYPES
from conformance.run import generated


def add(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "Broadcast conformance")
    group.addoption("--backend", action="append", default=None, metavar="NAME",
                    help=f"backend to run: {', '.join(BUILTIN)}, an installed plug-in's entry-point name, "
                         "onnx-backend:MODULE or module:Class (repeatable; default: all built-in)")
    group.addoption("--op", action="append", default=None, metavar="OP",
                    help="only cases of this op: broadcast, elementwise, or an op package's name (repeatable)")
    group.addoption("--mode", action="append", default=None, choices=["numpy", "explicit", "bidirectional"],
                    help="only Broadcast cases of this mode (repeatable)")
    group.addoption("--dtype", action="append", default=None, metavar="DTYPE",
                    help="only these element types, e.g. f32 (repeatable)")
    group.addoption("--path", action="append", default=None, metavar="AXIS=VALUE",
                    help="only the paths with this value of this axis, e.g. target_shape=Parameter (repeatable; "
                         "values of one axis add up; --list-paths shows every backend's axes)")
    group.addoption("--device", action="append", default=None, metavar="DEVICE",
                    help="also run every check of the OpenVINO backends on this device, e.g. AUTO, HETERO:CPU, GPU, "
                         "NPU (repeatable; CPU always runs; a device the machine lacks is not applicable, with the "
                         "reason)")
    group.addoption("--provider", action="append", default=None, metavar="PROVIDER",
                    help="also run every check of the onnxruntime backend on this execution provider, e.g. "
                         "CUDAExecutionProvider (repeatable; alone, with the CPU fallback off; CPUExecutionProvider "
                         "always runs; one onnxruntime lacks is not applicable, with the reason)")
    group.addoption("--paths", default="default", choices=["default", "all"],
                    help="which paths of each case run: default (every path for the spec's examples, rules and "
                         "interpretations, every pair of axis values for the other cases) or all")
    group.addoption("--list-paths", action="store_true",
                    help="print every backend's path axes and their values, and run nothing")
    group.addoption("--cases", default=None, metavar="DIR", help="case directory (default: <rootdir>/cases)")
    group.addoption("--known", action="append", default=[], metavar="FILE",
                    help="extra known-differences file, named <backend>.yaml (repeatable)")
    group.addoption("--check-timeout", type=float, default=120.0, metavar="SECONDS",
                    help="per-check timeout; the worker is killed and replaced (default 120)")
    group.addoption("--worker-memory", type=float, default=8192, metavar="MIB",
                    help="address-space limit of each worker process in MiB; 0 for none (default 8192)")
    group.addoption("--output-budget", type=float, default=256, metavar="MIB",
                    help="a check whose output would exceed this is shape-only: nothing is allocated "
                         "(positive; default 256)")
    group.addoption("--check", action="append", default=None, metavar="GLOB",
                    help="only the checks whose name within their case matches, e.g. 'openvino-opset3-const-i64' "
                         "or '*-i64' (repeatable; a failure prints the command that reruns just its check)")
    group.addoption("--uncached", action="store_true",
                    help="build, compile and run one model per check, one check per worker call: the slow path, "
                         "kept to measure against and to rule out shared models as the cause of a verdict")
    group.addoption("--shard", default=None, metavar="K/N",
                    help="run the K-th of N deterministic slices of the cases (1 <= K <= N), e.g. for N CI jobs; "
                         "`python3 -m conformance report` merges their results files into one page")
    group.addoption("--generated-examples", type=int, default=generated.DEFAULT_EXAMPLES, metavar="N",
                    help="inputs hypothesis draws and runs per backend (default %(default)s; 0: none; thousands for "
                         "a long search)")
    group.addoption("--generated-seed", type=int, default=generated.DEFAULT_SEED, metavar="SEED",
                    help="seed of the generated inputs (default %(default)s, so every run draws the same ones)")
    group.addoption("--results", default=None, metavar="PATH",
                    help="results file to write (default reports/results.json; for a run of part of the suite, "
                         "reports/runs/<time>/results.json, so that reports/ keeps the last full run)")
    group.addoption("--report", default=None, metavar="PATH",
                    help="HTML report to write (default reports/index.html, or beside the results of a run of part "
                         "of the suite; 'none' to skip)")
    group.addoption("--bench", default="reports/bench.json", metavar="BENCH.json",
                    help="benchmark results (python3 -m bench.broadcast_bench) to chart in the report; the default "
                         "file is shown when it exists ('none' to leave it out)")
    group.addoption("--compare", default=None, metavar="OLD.json",
                    help="an earlier results file: the report lists new failures, fixes and other changed verdicts "
                         "since it (read when the run starts, so it may be the --results file of the last run)")


# A worker is a fork of a process that holds Python, numpy and the runtimes: below this address space it cannot
# run a check at all (each check would be out_of_memory or a crash, a verdict on the limit, not the backend)
MIN_WORKER_MEMORY_MIB = 1024


def validate(config: pytest.Config, backend_names: set[str]) -> None:
    """Option values checked before anything runs; a usage error names the option and what it takes."""
    timeout = config.getoption("check_timeout")
    if not (math.isfinite(timeout) and timeout > 0):
        raise pytest.UsageError(f"--check-timeout {timeout:g}: give a positive, finite number of seconds "
                                f"(default 120)")
    memory = config.getoption("worker_memory")
    if not (memory == 0 or (math.isfinite(memory) and memory >= MIN_WORKER_MEMORY_MIB)):
        raise pytest.UsageError(f"--worker-memory {memory:g}: give at least {MIN_WORKER_MEMORY_MIB} MiB (a worker "
                                f"holds Python, numpy and the runtimes), or 0 for no limit (default 8192)")
    budget = config.getoption("output_budget")
    if not (math.isfinite(budget) and budget > 0):  # 0 would make every check shape-only: a wrong backend green
        raise pytest.UsageError(f"--output-budget {budget:g}: give a positive number of MiB (default 256); "
                                f"a check whose output exceeds it only declares its shape")
    unknown = [d for d in config.getoption("dtype") or () if d not in DTYPES]
    if unknown:
        raise pytest.UsageError(f"--dtype {unknown[0]}: no such element type; the suite's are "
                                f"{', '.join(DTYPES)}")
    for name in config.getoption("op") or ():
        try:
            ops.get(name)
        except (ImportError, ValueError) as e:  # OpNotFound is a ValueError
            raise pytest.UsageError(f"--op {name}: {e}") from None
    for name in config.getoption("known"):
        stem = Path(name).stem
        if not Path(name).is_file():
            raise pytest.UsageError(f"--known {name}: no such file")
        if stem not in backend_names:
            raise pytest.UsageError(f"--known {name}: a known-differences file is named after the backend it is "
                                    f"for (<backend>.yaml), and no backend of this run is named {stem!r} "
                                    f"(this run's: {', '.join(sorted(backend_names))})")


def part_of_the_suite(config: pytest.Config, cases_dir: Path) -> bool:
    """The run leaves checks out (``leaves_checks_out``) or backends: --backend."""
    return leaves_checks_out(config, cases_dir) or bool(config.getoption("backend"))


def leaves_checks_out(config: pytest.Config, cases_dir: Path) -> bool:
    """The run's options or arguments leave checks of its backends out: -k, -m, --check, --path, --dtype, --op, --mode,
    --shard, or test ids and files other than the whole suite's (``whole_suite``)."""
    option = config.option
    return bool(option.keyword or option.markexpr or any(config.getoption(name) for name in
                                                         ("check", "path", "dtype", "op", "mode", "shard"))
                or any("::" in arg or Path(arg).resolve() not in whole_suite(config, cases_dir)
                       for arg in config.args))


def whole_suite(config: pytest.Config, cases_dir: Path) -> tuple[Path, ...]:
    """The arguments that name every case: the case directory, the project, and this package (`pytest
    conformance`, the README's command, whose conftest loads the plugin)."""
    return cases_dir, config.rootpath, Path(__file__).resolve().parents[1]


def parse_shard(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    m = re.fullmatch(r"(\d+)/(\d+)", text.strip())
    if not m or not 1 <= int(m[1]) <= int(m[2]):
        raise pytest.UsageError(f"--shard {text}: give K/N with 1 <= K <= N, e.g. --shard 2/4")
    return int(m[1]), int(m[2])


def shard_of(case_id: str, shards: int) -> int:
    """The shard (1..N) a case belongs to: a hash of its id, the same on every machine and run, so N jobs
    with --shard 1/N .. N/N run every case exactly once; all checks of a case stay together."""
    return zlib.crc32(case_id.encode()) % shards + 1
