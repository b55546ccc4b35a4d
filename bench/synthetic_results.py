"""A synthetic results file of any size, shaped like a full default run (five backends, their path axes, every
element type, ~79 % pass, ~12 % not applicable, ~9 % known differences, a few failures of each kind), for measuring
the report at the scale of runs to come. Deterministic: the same size and seed give the same file.

    python3 -m bench.synthetic_results --checks 200000 -o /tmp/synthetic.json
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Any

from conformance.results import files as results_file
from conformance.results.record import FORMAT

BACKENDS: dict[str, tuple[str, dict[str, tuple[str, ...]]]] = {
    "openvino": ("2026.4.1", {"opset": ("1", "3"), "target_shape": ("Constant", "Parameter", "ShapeOf"),
                              "data": ("Parameter", "Dynamic", "Constant", "Folded"),
                              "context": ("alone", "BitwiseXor", "Add", "Transpose"), "source": ("python", "IR")}),
    "openvino-onnx": ("2026.4.1", {"opset": ("8", "13"), "shape": ("initializer", "input", "computed"),
                                   "context": ("alone", "Add", "Transpose"),
                                   "source": ("bytes", "file", "convert_model")}),
    "onnxruntime": ("1.32.0", {"opset": ("8", "13"), "shape": ("initializer", "input"),
                               "data": ("input", "initializer"), "optimization": ("all", "disabled")}),
    "onnx-reference": ("1.23.2", {"opset": ("8", "13"), "shape": ("initializer", "input"),
                                  "source": ("bytes", "file")}),
    "local": ("0.1.0", {"op": ("v1", "v3", "v0", "expand")}),
}
DTYPES = ("bool", "i4", "u4", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f8e4m3", "f8e5m2", "f16",
          "bf16", "f32", "f64", "string")
FILES = ("cases/spec_examples.yaml", "cases/numpy_rules.yaml", "cases/explicit_rules.yaml",
         "cases/bidirectional_rules.yaml", "cases/interpretations.yaml", "cases/edges_ranks.yaml",
         "cases/edges_zero.yaml", "cases/upstream_openvino.yaml", "cases/upstream_onnx.yaml", "cases/found.yaml")
GROUPS = {"cases/spec_examples.yaml": "spec_example", "cases/interpretations.yaml": "interpretation",
          "cases/upstream_openvino.yaml": "upstream", "cases/upstream_onnx.yaml": "upstream",
          "cases/found.yaml": "found"}
MODES = ("numpy", "explicit", "bidirectional")
KNOWN = [{"id": f"kd-{backend}-{i}", "reason": f"{backend} known divergence {i}: " + "a long explanation. " * 12,
          "link": f"https://github.com/example/{backend}/issues/{1000 + i}",
          "reproducer": None, "verdict": "wrong_values", "match": {}, "where": f"conformance/known/{backend}.yaml"}
         for backend in BACKENDS for i in range(4)]
FAILURES = ("wrong_values", "wrong_shape", "crash", "rejected_valid", "accepted_invalid", "timeout", "error")


def _label(axes: dict[str, tuple[str, ...]], path: dict[str, str]) -> str:
    """A short label of a path, values other than each axis's first (its default) only, as check ids name it."""
    parts = [f"{axis[:2]}{value[:5].lower()}" for axis, value in path.items() if value != axes[axis][0]]
    return "-".join([f"opset{path['opset']}" if "opset" in path else "", *parts]).strip("-") or "default"


def _paths(rng: random.Random, backend: str, n: int) -> list[dict[str, str]]:
    axes = BACKENDS[backend][1]
    return [{axis: rng.choice(values) for axis, values in axes.items()} for _ in range(n)]


def _case(i: int, rng: random.Random) -> tuple[str, dict[str, Any]]:
    file = FILES[i % len(FILES)]
    mode = MODES[i % 3]
    case_id = f"syn_{mode[:2]}_{i:05d}"
    data_shape = [rng.randint(0, 4) for _ in range(rng.randint(0, 4))]
    target = [rng.randint(1, 6) for _ in range(len(data_shape) + rng.randint(0, 2))]
    description = f"{mode}: data {tuple(data_shape)} to {target}, case {i} of the synthetic run"
    text = (f"  - id: {case_id}\n    description: \"{description}\"\n    mode: {mode}\n"
            f"    data_shape: {data_shape}\n    target_shape: {target}\n    expect: {{shape: {target}}}\n")
    group = GROUPS.get(file, "rule" if "rules" in file else "edge")
    return case_id, {"file": file, "line": 10 + 9 * (i // len(FILES)), "group": group, "op": "broadcast",
                     "params": {"mode": mode, "versions": [3], "data_shape": data_shape, "target_shape": target,
                                "axes_mapping": [0] if mode == "explicit" else None},
                     "expect": {"shape": target}, "spec_ref": f"000_ece0cbba5cb063a0.txt#{mode}",
                     "description": description,
                     "source": ("openvinotoolkit/openvino src/core/tests/type_prop/broadcast.cpp: "
                                f"broadcast_{i}" if group == "upstream" else None),
                     "interpretation": ("A reading the spec leaves open, taken one way." if group == "interpretation"
                                        else None),
                     "text": text}


def _check(case_id: str, case: dict[str, Any], backend: str, path: dict[str, str], dtype: str, verdict: str,
           rng: random.Random) -> dict[str, Any]:
    version, axes = BACKENDS[backend]
    label = _label(axes, path)
    node = f"{case['file']}::{case_id}[{backend}-{label}-{dtype}]"
    shape = case["expect"]["shape"]
    check: dict[str, Any] = {
        "id": node, "case": case_id, "backend": backend, "op": "broadcast", "backend_version": version,
        "path": path, "variant": label, "dtype": dtype, "shape_dtype": "i64", "verdict": verdict, "message": None,
        "expected": {"shape": shape, "dtype": dtype}, "first_diff": None, "known": None,
        "actual": {"shape": shape, "dtype": dtype, "declared_shape": shape, "error": None, "stage": None,
                   "rule": None},
        "duration": round(rng.uniform(0.5, 60), 3), "model": "shared",
        "rerun": (f"python3 -m pytest -p conformance.plugin '{case['file']}::{case_id}[{backend}]' "
                  f"--check {backend}-{label}-{dtype}")}
    if verdict == "not_applicable":
        check["message"] = f"{backend} has no {dtype} on this path"
        check["actual"] = None
    elif verdict == "known_difference":
        known = KNOWN[list(BACKENDS).index(backend) * 4 + rng.randrange(4)]
        check["known"] = known
        check["message"] = f"known difference {known['id']}: {known['reason']}"
        check["first_diff"] = {"index": [0] * len(shape), "expected": "-0.0 (0x80000000)",
                               "actual": "0.0 (0x00000000)", "count": 2, "size": 8}
    elif verdict != "pass":
        check["message"] = f"{verdict}: out.shape={shape}, but should be {shape} [{node}]\nsecond line of detail"
        if verdict in ("crash", "error", "timeout"):
            check["actual"] = {"shape": None, "dtype": None, "declared_shape": None,
                               "error": f"Exception from src/inference/src/infer_request.cpp:224:\n{verdict} {node}",
                               "stage": "infer"}
    return check


def synthetic(checks: int = 200_000, seed: int = 0, failures: int = 60) -> dict[str, Any]:
    """A results document of about `checks` checks (exactly, when it divides evenly), `failures` of them failing."""
    rng = random.Random(seed)
    per_case = 76  # about the real run's checks per case
    n_cases = max(1, checks // per_case)
    cases = dict(_case(i, rng) for i in range(n_cases))
    out: list[dict[str, Any]] = []
    backend_share = {"openvino": 26, "openvino-onnx": 20, "onnxruntime": 16, "onnx-reference": 10, "local": 4}
    for case_id, case in cases.items():
        for backend, n in backend_share.items():
            for path in _paths(rng, backend, max(1, n // 4)):
                for dtype in rng.sample(DTYPES, 4):
                    if len(out) >= checks:
                        break
                    r = rng.random()
                    verdict = "pass" if r < 0.79 else "not_applicable" if r < 0.91 else "known_difference"
                    out.append(_check(case_id, case, backend, path, dtype, verdict, rng))
    while len(out) < checks:  # fill up to the exact count with passing checks on the local backend
        case_id = rng.choice(list(cases))
        out.append(_check(case_id, cases[case_id], "local", {"op": "v3"}, f"u{8 * (1 + len(out) % 8)}", "pass", rng))
    for i in rng.sample(range(len(out)), failures):
        c = out[i]
        out[i] = _check(c["case"], cases[c["case"]], c["backend"], c["path"], c["dtype"], FAILURES[i % len(FAILURES)],
                        rng)
    run = {"started": "2026-12-01T10:00:00+00:00", "finished": "2026-12-01T10:20:00+00:00", "complete": True,
           "suite_commit": "0" * 40, "python": "3.11.7", "platform": "Linux", "cpu": "synthetic",
           "command": "python3 -m bench.synthetic_results", "wall_time": 1200.0,
           "packages": {"numpy": "2.4.6", "openvino": "2026.4.1", "onnxruntime": "1.32.0", "onnx": "1.23.2"}}
    return {"format": FORMAT, "run": run,
            "backends": {b: {"version": v, "available": True, "reason": None} for b, (v, _) in BACKENDS.items()},
            "cases": cases, "checks": out, "unmatched_known": [], "collection_errors": []}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checks", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-o", "--out", type=Path, required=True)
    args = parser.parse_args(argv)
    data = synthetic(args.checks, args.seed)
    results_file.save(args.out, data)
    print(f"{args.out}: {len(data['checks'])} checks, {len(data['cases'])} cases")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
