"""Realistic results documents for the report tests, built through conformance.results.record (so they are in
its layout, FORMAT), as JSON the tests may alter.

Two runs: an older OpenVINO alone (with onnxruntime not installed, so its checks are skipped), and a main
run with a newer OpenVINO, ONNX Runtime and the local implementation. Merged, they show three backends, one
of them at two versions, six cases in two case files and every verdict at least once.

Every (case, column) gets one check per path x dtype, passing unless VERDICTS_BY_CELL says otherwise;
the tests count on these numbers, so change them together.

with_upstream() adds cases mirrored from two upstream suites (one case from both) to the main run, and bench()
is a small benchmark file in the layout of bench/broadcast_bench.py.
"""

from __future__ import annotations

import copy
from typing import Any

from conformance.results.files import FORMAT, merge  # noqa: F401  (FORMAT: the tests name it as sample.FORMAT)
from conformance.results.record import Actual, BackendInfo, CaseRecord, CheckRecord, Expected, Results, RunInfo

# Each backend's two paths in these runs: label (as in check ids) -> path axes.
PATHS: dict[str, dict[str, dict[str, str]]] = {
    "openvino": {"opset3-const": {"opset": "3", "target_shape": "Constant"},
                 "opset3-param": {"opset": "3", "target_shape": "Parameter"}},
    "onnxruntime": {"opset13-init": {"opset": "13", "shape": "initializer"},
                    "opset13-input": {"opset": "13", "shape": "input"}},
    "local": {"v3": {"op": "v3"}, "expand": {"op": "expand"}}}
VARIANTS = {backend: tuple(paths) for backend, paths in PATHS.items()}
DTYPES = ("f32", "i64")
NUMPY_FILE = "cases/numpy_mode.yaml"
OTHER_FILE = "cases/explicit_bidirectional.yaml"
KNOWN_LINK = "https://github.com/microsoft/onnxruntime/issues/00000"


def _case(case_id: str, file: str, line: int, group: str, mode: str, data_shape: list[int],
          target_shape: list[int], expect: dict[str, Any], *, axes_mapping: list[int] | None = None,
          description: str | None = None, interpretation: str | None = None,
          source: str | None = None) -> dict[str, Any]:
    text = [f"- id: {case_id}"]
    if description:
        text.append(f'  description: "{description}"')
    text += [f"  mode: {mode}", "  versions: [3]", f"  data_shape: {data_shape}",
             f"  target_shape: {target_shape}"]
    if axes_mapping is not None:
        text.append(f"  axes_mapping: {axes_mapping}")
    key, value = next(iter(expect.items()))
    text.append(f"  expect: {{{key}: {value}}}")
    if interpretation:
        text.append(f'  interpretation: "{interpretation}"')
    text.append(f'  spec_ref: "000_ece0cbba5cb063a0.txt#{mode}"')
    return CaseRecord(file=file, line=line, group=group, op="broadcast",
                      params={"mode": mode, "versions": [3], "data_shape": data_shape, "target_shape": target_shape,
                              "axes_mapping": axes_mapping},
                      expect=expect, spec_ref=f"000_ece0cbba5cb063a0.txt#{mode}", description=description,
                      source=source, interpretation=interpretation, text="\n".join(text) + "\n").to_json()


CASES: dict[str, dict[str, Any]] = {
    "numpy_spec_example": _case("numpy_spec_example", NUMPY_FILE, 8, "spec_example", "numpy", [16, 1, 1],
                                [1, 16, 50, 50], {"shape": [1, 16, 50, 50]},
                                description="Broadcast-3 example 1: data (16, 1, 1) to [1, 16, 50, 50]"),
    "numpy_rank_too_small": _case("numpy_rank_too_small", NUMPY_FILE, 17, "rule", "numpy", [2, 3], [3],
                                  {"reject": "numpy_rank"}, description="target rank below data rank"),
    "numpy_zero_dim": _case("numpy_zero_dim", NUMPY_FILE, 25, "edge", "numpy", [0, 1], [0, 3],
                            {"shape": [0, 3]}, description="a zero-size dimension stays zero"),
    "explicit_spec_example": _case("explicit_spec_example", OTHER_FILE, 6, "spec_example", "explicit", [16],
                                   [1, 16, 50, 50], {"shape": [1, 16, 50, 50]}, axes_mapping=[1],
                                   description="Broadcast-3 example 2: data (16) with axes_mapping [1]"),
    "bidirectional_zero_vs_one": _case(
        "bidirectional_zero_vs_one", OTHER_FILE, 15, "interpretation", "bidirectional", [1, 3], [0, 1],
        {"shape": [0, 3]},
        interpretation="A dimension 0 against 1 gives 0, as in numpy: the spec's 'equal or one of them is 1' "
                       "allows it, and nothing says the larger value wins."),
    "bidirectional_found_i64": _case("bidirectional_found_i64", OTHER_FILE, 26, "found", "bidirectional",
                                     [3, 1], [2, 1, 6], {"shape": [2, 3, 6]}, source="found by this suite",
                                     description="i64 data broadcast along two axes"),
}


def _actual(shape: list[int | None] | None = None, dtype: str | None = None, *, declared: list | None = None,
            error: str | None = None, stage: str | None = None) -> Actual:
    return Actual(shape=shape, dtype=dtype, declared_shape=declared, error=error, stage=stage)


# (case, column) -> {(variant index, dtype): (verdict, extra fields)}; unlisted checks pass.
_NA = ("not_applicable", {"message": "ONNX Expand has no explicit mode (axes_mapping)"})
VERDICTS_BY_CELL: dict[tuple[str, str], dict[tuple[int, str], tuple[str, dict[str, Any]]]] = {
    ("numpy_zero_dim", "openvino@2024.6.0"): {(1, "f32"): ("wrong_shape", {
        "message": "declared out.shape=(?, 1), but should be (0, 3) [Broadcast-3 numpy, data (0, 1), "
                   "target_shape [0, 3] @ openvino 2024.6.0]",
        "actual": _actual([0, 3], "f32", declared=[None, 1])})},
    ("bidirectional_zero_vs_one", "openvino@2024.6.0"): {(1, d): ("rejected_valid", {
        "message": "rejected, but should be accepted with out.shape=(0, 3) [Broadcast-3 bidirectional, "
                   "data (1, 3), target_shape [0, 1] @ openvino 2024.6.0]",
        "actual": _actual(stage="validate",
                          error="Check 'result_shape' failed: Broadcast incorrect target shape")})
        for d in DTYPES},
    ("bidirectional_found_i64", "openvino@2024.6.0"): {(v, d): ("wrong_values", {
        "message": f"out[1, 2, 5]=0, but should be 7 [Broadcast-3 bidirectional, data (3, 1), target_shape "
                   f"[2, 1, 6] @ openvino 2024.6.0, {d}]",
        "actual": _actual([2, 3, 6], d), "first_diff": {"index": [1, 2, 5], "expected": "7", "actual": "0"}})
        for v in (0, 1) for d in DTYPES},
    ("numpy_zero_dim", "openvino@2025.0.0"): {
        (0, "i64"): ("timeout", {"message": "no result within 60.0 s [Broadcast-3 numpy @ openvino 2025.0.0]",
                                 "actual": _actual(error="timeout after 60.0 s", stage="worker")}),
        (1, "f32"): ("wrong_dtype", {
            "message": "out.dtype=f64, but should be f32 [Broadcast-3 numpy @ openvino 2025.0.0]",
            "actual": _actual([0, 3], "f64", declared=[0, 3])})},
    ("explicit_spec_example", "openvino@2025.0.0"): {(1, "f32"): ("error", {
        "message": "adapter failed: TypeError: 'NoneType' object is not subscriptable\n"
                   "  File \"conformance/backends/openvino.py\", line 61, in run"})},
    ("numpy_rank_too_small", "onnxruntime@1.18.1"): {(v, d): ("known_difference", {
        "message": "accepted, but should be rejected (numpy_rank) [Broadcast-3 numpy, data (2, 3), "
                   "target_shape [3] @ onnxruntime 1.18.1]",
        "known": {"reason": "ONNX Expand is bidirectional: a target of lower rank is allowed",
                  "link": KNOWN_LINK, "reproducer": "python -c 'import onnx; ...'"}})
        for v in (0, 1) for d in DTYPES},
    ("numpy_zero_dim", "onnxruntime@1.18.1"): {(1, d): ("crash", {
        "message": "the worker died: signal SIGSEGV (-11) [Broadcast-3 numpy, data (0, 1) @ onnxruntime]",
        "actual": _actual(error="signal SIGSEGV (-11)", stage="infer")}) for d in DTYPES},
    ("explicit_spec_example", "onnxruntime@1.18.1"): {(v, d): _NA for v in (0, 1) for d in DTYPES},
    ("bidirectional_found_i64", "onnxruntime@1.18.1"): {(v, "i64"): ("wrong_values", {
        "message": "out[0, 1, 0]=-1, but should be 2 [Broadcast-3 bidirectional, data (3, 1) @ onnxruntime]",
        "actual": _actual([2, 3, 6], "i64"),
        "first_diff": {"index": [0, 1, 0], "expected": "2", "actual": "-1"}})
        for v in (0, 1)},
    ("numpy_rank_too_small", "local"): {(0, "i64"): ("accepted_invalid", {
        "message": "accepted with out.shape=(2, 3), but should be rejected (numpy_rank) [Broadcast-3 numpy "
                   "@ local]",
        "actual": _actual([2, 3], "i64")})},
}


UPSTREAM_FILE = "cases/upstream.yaml"
SUITE_OV = "openvinotoolkit/openvino src/core/tests/type_prop/broadcast.cpp"
SUITE_ORT = "microsoft/onnxruntime onnxruntime/test/providers/cpu/tensor/expand_test.cc"
UPSTREAM_CASES: dict[str, dict[str, Any]] = {
    # A test's own text may hold "; " and ": ": only "<owner/repo> <path>:" starts another source.
    "up_type_prop": _case("up_type_prop", UPSTREAM_FILE, 5, "upstream", "numpy", [2, 3], [4, 2, 3],
                          {"shape": [4, 2, 3]},
                          source=f"{SUITE_OV}: BroadcastTests.broadcast_numpy (typed: v1, v3; data {{2, 3}})"),
    "up_expand_3x1": _case("up_expand_3x1", UPSTREAM_FILE, 14, "upstream", "bidirectional", [3, 1], [2, 1, 6],
                           {"shape": [2, 3, 6]},
                           source=f"{SUITE_ORT}: ExpandOpTest.Expand_3x1; {SUITE_ORT}: ExpandOpTest.Expand_3x1_int64"),
    "up_both": _case("up_both", UPSTREAM_FILE, 23, "upstream", "bidirectional", [1, 3], [3, 1], {"shape": [3, 3]},
                     source=f"{SUITE_OV}: BroadcastTests.broadcast_bidirectional; "
                            f"{SUITE_ORT}: ExpandOpTest.Strided (contiguous output; Strided 2D)"),
}
UPSTREAM_VERDICTS: dict[tuple[str, str], dict[tuple[int, str], tuple[str, dict[str, Any]]]] = {
    ("up_type_prop", "openvino@2025.0.0"): {(0, "f32"): ("wrong_values", {
        "message": "out[0, 0, 1]=0, but should be 1 [Broadcast-3 numpy @ openvino 2025.0.0]"})},
    ("up_both", "onnxruntime@1.18.1"): {(v, d): ("known_difference", {
        "message": "a known difference", "known": {"id": "ort-strided", "reason": "strided output"}})
        for v in (0, 1) for d in DTYPES},
    ("up_expand_3x1", "local"): {(v, "i64"): _NA for v in (0, 1)},
}


def check(case_id: str, backend: str, version: str | None, variant: str, dtype: str,
          verdict: str = "pass", **extra: Any) -> dict[str, Any]:
    """One check record's JSON; `variant` is the path's label (a label of no path in PATHS: the local backend's
    op of that name, else no axes), and `extra` overrides any field."""
    case = {**CASES, **UPSTREAM_CASES}.get(case_id, {"file": "cases/extra.yaml", "expect": {"shape": [1]}})
    node = f"{case['file']}::{case_id}[{backend}-{variant}-{dtype}]"
    expect = case["expect"]
    path = PATHS.get(backend, {}).get(variant, {"op": variant} if backend == "local" else {})
    return CheckRecord(**{"id": node, "case": case_id, "backend": backend, "backend_version": version,
                          "op": "broadcast", "path": path, "variant": variant, "dtype": dtype, "shape_dtype": "i64",
                          "verdict": verdict, "expected": Expected(dtype=dtype, **expect), "duration": 0.21,
                          "model": "own", "rerun": f"python -m pytest '{node}' --backends {backend}",
                          **extra}).to_json()


def _checks(backend: str, version: str | None, verdict: str | None = None, cases: dict[str, Any] = CASES,
            by_cell: dict[tuple[str, str], Any] = VERDICTS_BY_CELL) -> list[dict[str, Any]]:
    col = f"{backend}@{version}" if version else backend
    out = []
    for case_id in cases:
        special = by_cell.get((case_id, col), {})
        for i, variant in enumerate(VARIANTS[backend]):
            for dtype in DTYPES:
                v, extra = special.get((i, dtype), (verdict or "pass", {}))
                if verdict == "skipped":
                    extra = {"message": "package 'onnxruntime' is not installed"}
                out.append(check(case_id, backend, version, variant, dtype, v, **extra))
    return out


def _run(started: str, finished: str, commit: str, packages: dict[str, str], wall_time: float) -> RunInfo:
    return RunInfo(started=started, finished=finished, complete=True, suite_commit=commit, python="3.11.7",
                   platform="Linux-6.1.0-x86_64-with-glibc2.36", cpu="AMD EPYC 7763 (16 cores)",
                   argv=["pytest", "-n", "8", "--results", "reports/results.json"], wall_time=wall_time,
                   packages={"numpy": "2.1.3", **packages})


def older_run() -> dict[str, Any]:
    """OpenVINO 2024.6 alone; onnxruntime was not installed on that machine, so its checks were skipped."""
    return Results(run=_run("2025-01-10T09:00:00+00:00", "2025-01-10T09:03:12+00:00", "4f2a9c1",
                            {"openvino": "2024.6.0"}, 192.4),
                   backends={"openvino": BackendInfo(version="2024.6.0", available=True),
                             "onnxruntime": BackendInfo(available=False,
                                                        reason="package 'onnxruntime' is not installed")},
                   cases=copy.deepcopy(CASES),
                   checks=_checks("openvino", "2024.6.0") + _checks("onnxruntime", None, "skipped")).to_json()


def main_run() -> dict[str, Any]:
    """OpenVINO 2025.0, ONNX Runtime 1.18.1 and the local implementation, with a collection error."""
    return Results(run=_run("2025-02-03T14:20:05+00:00", "2025-02-03T14:31:40+00:00", "9c0d1e7",
                            {"openvino": "2025.0.0", "onnxruntime": "1.18.1"}, 695.0),
                   backends={"openvino": BackendInfo(version="2025.0.0", available=True),
                             "onnxruntime": BackendInfo(version="1.18.1", available=True),
                             "local": BackendInfo(available=True)},
                   cases=copy.deepcopy(CASES),
                   checks=[*_checks("openvino", "2025.0.0"), *_checks("onnxruntime", "1.18.1"),
                           *_checks("local", None)],
                   unmatched_known=[{"backend": "onnxruntime",
                                     "entry": {"case": "numpy_removed_case", "reason": "fixed in 1.17"}}],
                   collection_errors=[{"file": OTHER_FILE, "line": 40,
                                       "message": "duplicate case id 'explicit_spec_example' (first at "
                                                  f"{OTHER_FILE}:6)"}]).to_json()


def merged() -> dict[str, Any]:
    return merge([Results.from_json(older_run()), Results.from_json(main_run())]).to_json()


def with_upstream() -> dict[str, Any]:
    """The main run and three upstream cases: up_type_prop from SUITE_OV, up_expand_3x1 from SUITE_ORT (named
    twice) and up_both from both, with the verdicts of UPSTREAM_VERDICTS."""
    run = main_run()
    run["cases"].update(copy.deepcopy(UPSTREAM_CASES))
    for backend, version in (("openvino", "2025.0.0"), ("onnxruntime", "1.18.1"), ("local", None)):
        run["checks"] += _checks(backend, version, cases=UPSTREAM_CASES, by_cell=UPSTREAM_VERDICTS)
    return run


BENCH_SIZES = (4096, 1 << 20, 16 << 20)
# GB/s of each implementation at each size (fill limit: limit_fill), per pattern; ONNX Runtime is not
# installed for "outer", and local_fresh gave wrong bytes there at 1 MiB.
BENCH_GBPS: dict[str, dict[str, tuple[float, ...]]] = {
    "inner": {"local_out": (0.6, 15.8, 13.9), "local_fresh": (0.64, 15.4, 12.2), "local_view": (0.8, 213.0, 3610.0),
              "numpy_copy": (0.51, 15.1, 12.1), "numpy_copyto": (0.49, 15.6, 12.7), "openvino": (0.03, 0.68, 1.61),
              "onnxruntime": (0.22, 8.42, 12.4), "limit_fill": (5.2, 16.0, 14.7), "limit_copyto": (3.2, 21.7, 14.5)},
    "outer": {"local_out": (0.7, 17.7, 12.9), "local_fresh": (0.7, 16.0, 13.3), "local_view": (1.3, 202.0, 3440.0),
              "numpy_copy": (0.55, 15.5, 11.9), "numpy_copyto": (0.52, 14.8, 12.6), "openvino": (0.02, 2.83, 7.09),
              "limit_fill": (5.17, 21.2, 13.6), "limit_copyto": (3.22, 21.4, 14.6)},
}


def bench() -> dict[str, Any]:
    """A benchmark file as bench/broadcast_bench.py writes it, with round numbers to check the report against."""
    results = []
    for size in BENCH_SIZES:
        for pattern, gbps in BENCH_GBPS.items():
            i = BENCH_SIZES.index(size)
            limit = max(gbps["limit_fill"][i], gbps["limit_copyto"][i])
            impls = {name: {"group": "limit" if name.startswith("limit") else "local" if name.startswith("local")
                            else "peer", "median_s": size / (g[i] * 1e9), "gbps": g[i], "ratio_to_limit": g[i] / limit,
                            "correct": None if name.startswith("limit") else
                            not (pattern == "outer" and name == "local_fresh" and size == 1 << 20),
                            "note": f"how {name} was timed"} for name, g in gbps.items()}
            peers = [p for p in ("numpy_copy", "openvino", "onnxruntime") if p in impls]
            best = max(peers, key=lambda p: impls[p]["gbps"])
            ratio = {k: v["ratio_to_limit"] for k, v in impls.items()}
            big = size >= 1 << 20
            results.append({
                "pattern": pattern, "description": f"{pattern} axis", "size_bytes": size, "dtype": "float32",
                "data_shape": [size // 1024, 1], "target_shape": [size // 1024, 256], "axes_mapping": None,
                "mode": "numpy", "repeats": 7, "limit_s": size / (limit * 1e9), "limit_gbps": limit, "impls": impls,
                "skipped": {} if "onnxruntime" in impls else {"onnxruntime": "not installed: No module named x"},
                "targets": {"out_at_least_0.9_limit": ratio["local_out"] >= 0.9 if big else None,
                            "fresh_best_peer": best,
                            "fresh_speedup_vs_best_peer": ratio["local_fresh"] / ratio[best],
                            "fresh_at_least_best_peer": ratio["local_fresh"] >= ratio[best] if big else None,
                            "tiny_no_slower_than_numpy_copy": (ratio["local_fresh"] >= ratio["numpy_copy"] and
                                                               ratio["local_out"] >= ratio["numpy_copy"])
                            if size <= 4096 else None}})
    return {"meta": {"versions": {"python": "3.11.7", "numpy": "2.1.3", "openvino": "2025.0.0", "onnxruntime": None},
                     "machine": "x86_64", "cpus": 16, "local_threads": 4, "dtype": "float32", "seconds": 95.5,
                     "argv": ["--sizes", "4K,1M,16M"], "loadavg_before": [0.5, 0.4, 0.3],
                     "loadavg_after": [1.0, 0.6, 0.4], "method": "round-robin medians"},
            "results": results}
