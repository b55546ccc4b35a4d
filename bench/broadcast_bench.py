"""Broadcast speed: local_broadcast (out=, fresh, view) against numpy, OpenVINO, ONNX Runtime and the fill limit.

    python -m bench.broadcast_bench [--quick] [--sizes 4K,1M,256M] [--patterns inner,scalar] [--out PATH]

For every pattern and output size, every implementation is built once, checked once for the exact output
bytes, then timed round-robin: each repeat calls every implementation once (in a new random order), so
load from other processes spreads over all of them alike. A sample of a fast call is a loop of calls
lasting MIN_SAMPLE_S. Reported per implementation: the median and the best of the repeats, as GB/s of
output written and as the ratio to the fill limit (the faster of ``preallocated.fill(v)`` and
``np.copyto(preallocated, v)`` in the same run). Compare within one run: on a shared machine timings drift
between runs, and other processes only ever add time, so the best repeat is the steadier estimate.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from statistics import median
from typing import Any

import numpy as np

from bench.peers import Case, Runner, limit_runners, local_runners, numpy_runners, onnxruntime_runners, openvino_runners

Shapes = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...] | None, str]


def _inner(n: int) -> Shapes:
    return (n // 256, 1), (n // 256, 256), None, "numpy"


def _outer(n: int) -> Shapes:
    return (256,), (n // 256, 256), None, "numpy"


def _middle(n: int) -> Shapes:
    return (8, 1, 128), (8, n // 1024, 128), None, "numpy"


def _scalar(n: int) -> Shapes:
    return (), (n // 1024, 1024), None, "numpy"


def _nchw_bias(n: int) -> Shapes:
    side = min(64, 2 ** (int(math.log2(n // 64)) // 2))
    return (1, 64, 1, 1), (n // (64 * side * side), 64, side, side), None, "numpy"


def _explicit(n: int) -> Shapes:
    width = min(16, n // 256)
    return (16, 16), (n // (256 * width), 16, 16, width), (1, 2), "explicit"


# Each pattern as a function of the output's element count n (a power of two, at least 1024).
PATTERNS: dict[str, tuple[Callable[[int], Shapes], str]] = {
    "inner": (_inner, "inner axis: (R, 1) -> (R, 256)"),
    "outer": (_outer, "outer axis: (256,) -> (R, 256)"),
    "middle": (_middle, "middle axis: (8, 1, 128) -> (8, R, 128)"),
    "scalar": (_scalar, "scalar fill: () -> (R, 1024)"),
    "nchw_bias": (_nchw_bias, "NCHW bias: (1, 64, 1, 1) -> (N, 64, H, W), H = W <= 64"),
    "explicit": (_explicit, "explicit, axes_mapping [1, 2]: (16, 16) -> (N, 16, 16, W)"),
}
DEFAULT_SIZES = "4K,64K,1M,16M,64M,256M"
QUICK_SIZES = "4K,64K,1M"
MIN_SAMPLE_S = 0.001
PAUSE_S = 0.002
# Peers that return a new (or their own) output per call, the bar for local_fresh; and those given ours.
FRESH_PEERS = ("numpy_copy", "openvino", "onnxruntime")
OUT_PEERS = ("numpy_copyto", "openvino_out", "onnxruntime_iobind")
ORDER = ("local_out", "local_fresh", "local_view", "local_out_1t", "local_fresh_1t", "numpy_copy", "numpy_copyto",
         "openvino", "openvino_out", "onnxruntime", "onnxruntime_iobind", "limit_fresh")


def parse_size(text: str) -> int:
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    text = text.strip().upper().removesuffix("IB").removesuffix("B")
    size = int(text[:-1]) * units[text[-1]] if text[-1:] in units else int(text)
    if size <= 0 or size & (size - 1):
        raise ValueError(f"size={text}, but should be a power of two (4K, 1M, ...)")
    return size


def default_repeats(size: int) -> int:
    return 21 if size <= 1 << 20 else 15 if size <= 16 << 20 else 9 if size <= 64 << 20 else 7


def same_bytes(got: Any, expected: np.ndarray) -> bool:
    got = np.asarray(got)
    if got.shape != expected.shape or got.dtype != expected.dtype:
        return False
    bits = np.dtype(f"u{expected.itemsize}")  # NaN-safe, -0.0-aware: compare the bit patterns
    return bool(np.array_equal(got.view(bits), expected.view(bits)))


def build(case: Case, ov_threads: int | None) -> tuple[list[Runner], dict[str, str]]:
    buffer = np.empty(case.shape, case.data.dtype)  # shared by every out= style call and the limits
    buffer.fill(0)
    runners = local_runners(case, buffer) + numpy_runners(case, buffer) + limit_runners(case, buffer)
    skipped: dict[str, str] = {}
    for names, make in ((("openvino", "openvino_out"), lambda: openvino_runners(case, ov_threads)),
                        (("onnxruntime", "onnxruntime_iobind"), lambda: onnxruntime_runners(case))):
        try:
            runners += make()
        except ImportError as e:
            skipped.update(dict.fromkeys(names, f"not installed: {e}"))
    return runners, skipped


def _sample(runner: Runner, count: int) -> float:
    """Seconds per call, over a loop of `count` calls."""
    start = time.perf_counter()
    for _ in range(count):
        runner.call()
    return (time.perf_counter() - start) / count


def measure(runners: list[Runner], repeats: int) -> dict[str, tuple[list[float], int]]:
    """Per runner: the time of one call in each repeat, and the loop length of a sample. Round-robin: each
    repeat calls every runner once, in a new random order, after a pause: ONNX Runtime's and OpenVINO's
    worker threads spin on a core for a while after their call, and would slow whatever runs next."""
    # Loop lengths from warm calls: a first call pays one-off costs (page faults of a new allocation).
    loops = {r.name: max(1, math.ceil(MIN_SAMPLE_S / max(min(_sample(r, 1) for _ in range(3)), 1e-9)))
             for r in runners}
    times: dict[str, list[float]] = {r.name: [] for r in runners}
    order = random.Random(len(runners) * repeats)
    gc.disable()
    try:
        for _ in range(repeats):
            for runner in order.sample(runners, len(runners)):
                time.sleep(PAUSE_S)
                times[runner.name].append(_sample(runner, loops[runner.name]))
    finally:
        gc.enable()
    return {name: (samples, loops[name]) for name, samples in times.items()}


def run_case(pattern: str, size: int, dtype: np.dtype, repeats: int, ov_threads: int | None) -> dict[str, Any]:
    data_shape, target, axes, mode = PATTERNS[pattern][0](size // dtype.itemsize)
    rng = np.random.default_rng(size)
    data = rng.standard_normal(data_shape).astype(dtype) if dtype.kind == "f" else \
        rng.integers(0, 100, data_shape).astype(dtype)
    case = Case(pattern, np.asarray(data), target, axes, mode)
    runners, skipped = build(case, ov_threads)
    expected = np.broadcast_to(case.aligned, case.shape)
    correct = {r.name: None if r.group == "limit" else same_bytes(r.call(), expected) for r in runners}
    timed = measure(runners, repeats)
    best = {name: min(samples) for name, (samples, _) in timed.items()}
    mid = {name: median(samples) for name, (samples, _) in timed.items()}
    # The limit: the faster of fill and copyto of a value into the preallocated output.
    best_limit, mid_limit = min(best["limit_fill"], best["limit_copyto"]), min(mid["limit_fill"], mid["limit_copyto"])
    impls = {}
    for runner in runners:
        name = runner.name
        samples, loops = timed[name]
        impls[name] = {
            "group": runner.group, "median_s": mid[name], "best_s": best[name],
            "gbps": case.nbytes / mid[name] / 1e9, "gbps_best": case.nbytes / best[name] / 1e9,
            "ratio_to_limit": mid_limit / mid[name], "ratio_to_limit_best": best_limit / best[name],
            "ratio_to_fresh_limit": mid["limit_fresh"] / mid[name], "correct": correct[name], "loops": loops,
            "samples_s": samples, "note": runner.note}
    del runners
    gc.collect()
    return {"pattern": pattern, "description": PATTERNS[pattern][1], "size_bytes": size, "dtype": dtype.name,
            "data_shape": list(data_shape), "target_shape": list(target),
            "axes_mapping": None if axes is None else list(axes), "mode": mode, "repeats": repeats,
            "limit_s": mid_limit, "limit_best_s": best_limit, "limit_gbps": case.nbytes / mid_limit / 1e9,
            "limit_gbps_best": case.nbytes / best_limit / 1e9, "impls": impls, "skipped": skipped,
            "targets": targets(size, impls)}


def targets(size: int, impls: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The issue's targets for this case, judged on the medians; None where a target does not apply to the
    size."""
    big, tiny = size >= 1 << 20, size <= 4 << 10
    speed = {name: i["ratio_to_limit"] for name, i in impls.items()}
    peers = [name for name in FRESH_PEERS if name in impls]
    best_peer = max(peers, key=speed.__getitem__) if peers else None
    fresh, numpy_copy = speed["local_fresh"], speed["numpy_copy"]
    out_peers = [name for name in OUT_PEERS if name in impls]
    best_out_peer = max(out_peers, key=speed.__getitem__) if out_peers else None
    return {
        "out_at_least_0.9_limit": speed["local_out"] >= 0.9 if big else None,
        "fresh_best_peer": best_peer,
        "fresh_speedup_vs_best_peer": fresh / speed[best_peer] if best_peer else None,
        "fresh_at_least_best_peer": fresh >= speed[best_peer] if big and best_peer else None,
        "out_best_peer": best_out_peer,
        "out_speedup_vs_best_out_peer": speed["local_out"] / speed[best_out_peer] if best_out_peer else None,
        "tiny_no_slower_than_numpy_copy": (fresh >= numpy_copy and speed["local_out"] >= numpy_copy)
        if tiny else None,
    }


def human(size: int) -> str:
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if size >= 1 << shift and size % (1 << shift) == 0:
            return f"{size >> shift}{unit}"
    return str(size)


SHORT_NAMES = {"local_out": "out", "local_fresh": "fresh", "local_view": "view", "local_out_1t": "out_1t",
               "local_fresh_1t": "fresh_1t", "numpy_copy": "np_copy", "numpy_copyto": "np_copyto", "openvino": "ov",
               "openvino_out": "ov_out", "onnxruntime": "ort", "onnxruntime_iobind": "ort_iobind",
               "limit_fresh": "lim_fresh"}


def _num(value: float) -> str:
    return f"{value:.2f}" if value < 10 else f"{value:.1f}" if value < 100 else f"{value / 1000:.1f}k" \
        if value >= 1000 else f"{value:.0f}"


def table(results: list[dict[str, Any]]) -> str:
    """Per pattern, two rows per size: GB/s and ratio to the fill limit from the medians, and from the best
    repeats (other processes only ever add time: the best repeat is the least disturbed one)."""
    names = [n for n in ORDER if any(n in r["impls"] for r in results)]
    lines = ["cells: GB/s ratio-to-fill-limit; 'med' rows from the medians (targets judged on them), 'best' rows "
             "from each one's best repeat"]
    for pattern in dict.fromkeys(r["pattern"] for r in results):
        rows = [r for r in results if r["pattern"] == pattern]
        lines += ["", f"{pattern}: {rows[0]['description']}",
                  " ".join([f"{'size':>9}", *(f"{SHORT_NAMES[n]:>11}" for n in names), f"{'limit':>6}", " targets"])]
        for r in rows:
            t = r["targets"]
            marks = [f"{k.split('_')[0]}:{'ok' if t[k] else 'MISS'}" for k in
                     ("out_at_least_0.9_limit", "fresh_at_least_best_peer", "tiny_no_slower_than_numpy_copy")
                     if t[k] is not None]
            for row, gbps, ratio, limit in (("med", "gbps", "ratio_to_limit", "limit_gbps"),
                                            ("best", "gbps_best", "ratio_to_limit_best", "limit_gbps_best")):
                cells = [f"{human(r['size_bytes']):>4} {row:>4}"]
                for n in names:
                    i = r["impls"].get(n)
                    cell = "-" if i is None else f"{_num(i[gbps])} {_num(i[ratio])}" + \
                        ("" if i["correct"] in (True, None) else "!")
                    cells.append(f"{cell:>11}")
                lines.append(" ".join([*cells, f"{_num(r[limit]):>6}", " " + " ".join(marks) if row == "med" else ""]))
    lines.append("! = wrong output bytes")
    return "\n".join(lines)


def versions() -> dict[str, str | None]:
    found: dict[str, str | None] = {"python": platform.python_version(), "numpy": np.__version__}
    for name in ("openvino", "onnxruntime"):
        try:
            found[name] = __import__(name).__version__
        except ImportError:
            found[name] = None
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.broadcast_bench", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"sizes {QUICK_SIZES} and 7 repeats")
    parser.add_argument("--sizes", help=f"comma-separated output sizes in bytes, powers of two (default "
                        f"{DEFAULT_SIZES})")
    parser.add_argument("--patterns", default=",".join(PATTERNS), help="comma-separated, of: " + ", ".join(PATTERNS))
    parser.add_argument("--dtype", default="float32", help="element type (default float32)")
    parser.add_argument("--repeats", type=int,
                        help="repeats per case (default 21 up to 1M, 15 to 16M, 9 to 64M, 7 above; 7 with --quick)")
    parser.add_argument("--ov-threads", type=int, help="OpenVINO INFERENCE_NUM_THREADS (default: its own)")
    parser.add_argument("--out", type=Path, default=Path("reports/bench.json"), help="results JSON file")
    args = parser.parse_args(argv)
    dtype = np.dtype(args.dtype)
    try:
        sizes = [parse_size(s) for s in (args.sizes or (QUICK_SIZES if args.quick else DEFAULT_SIZES)).split(",")]
    except ValueError as e:
        parser.error(str(e))
    patterns = args.patterns.split(",")
    unknown = [p for p in patterns if p not in PATTERNS]
    if unknown:
        parser.error(f"patterns={unknown}, but should be among {list(PATTERNS)}")
    if min(sizes) < 1024 * dtype.itemsize:
        parser.error(f"sizes={min(sizes)}, but should be at least {1024 * dtype.itemsize} (1024 elements)")
    import local_broadcast.kernel as kernel

    results = []
    load_before = os.getloadavg()
    started = time.perf_counter()
    for size in sizes:
        for pattern in patterns:
            repeats = args.repeats or (7 if args.quick else default_repeats(size))
            results.append(run_case(pattern, size, dtype, repeats, args.ov_threads))
            print(f"  {pattern} {human(size)} done ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    report = {"meta": {"versions": versions(), "machine": platform.machine(), "cpus": cpus(),
                       "local_threads": kernel.MAX_THREADS, "dtype": dtype.name, "min_sample_s": MIN_SAMPLE_S,
                       "seconds": time.perf_counter() - started, "argv": sys.argv[1:] if argv is None else argv,
                       "loadavg_before": load_before, "loadavg_after": os.getloadavg(),
                       "method": "per case: each implementation built once and its output bytes checked; then "
                                 "repeats of round-robin calls in a random order, a pause of PAUSE_S before each "
                                 "sample, a sample looping calls for MIN_SAMPLE_S; medians and best repeats",
                       "pause_s": PAUSE_S},
              "results": results}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1))
    print(table(results))
    print(f"\nwrote {args.out}")
    return 0 if all(i["correct"] in (True, None) for r in results for i in r["impls"].values()) else 1


def cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


if __name__ == "__main__":
    sys.exit(main())
