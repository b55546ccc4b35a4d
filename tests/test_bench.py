"""A smoke run of bench/broadcast_bench.py on tiny sizes: the JSON it writes, and that every timed
implementation gave the exact output bytes. No timing is asserted: this machine's timings are noise."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from bench import broadcast_bench
from bench.broadcast_bench import PATTERNS, main, parse_size, same_bytes

IMPLS = {"local_out", "local_fresh", "local_view", "local_out_1t", "local_fresh_1t", "numpy_copy", "numpy_copyto",
         "limit_fill", "limit_copyto", "limit_fresh"}
PEERS = {"openvino": {"openvino", "openvino_out"}, "onnxruntime": {"onnxruntime", "onnxruntime_iobind"}}


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    path = tmp_path_factory.mktemp("bench") / "bench.json"
    saved, broadcast_bench.MIN_SAMPLE_S = broadcast_bench.MIN_SAMPLE_S, 0.0  # one call per sample: no timing here
    try:
        assert main(["--sizes", "4K,8K", "--repeats", "2", "--out", str(path)]) == 0
    finally:
        broadcast_bench.MIN_SAMPLE_S = saved
    yield json.loads(path.read_text())


def test_every_pattern_and_size_is_there(report: dict) -> None:
    cases = {(r["pattern"], r["size_bytes"]) for r in report["results"]}
    assert cases == {(p, s) for p in PATTERNS for s in (4096, 8192)}
    assert report["meta"]["versions"]["numpy"] == np.__version__
    assert report["meta"]["local_threads"] >= 1


def test_every_implementation_gave_the_exact_bytes(report: dict) -> None:
    for result in report["results"]:
        expected = set(IMPLS)
        for package, names in PEERS.items():
            if report["meta"]["versions"][package]:
                expected |= names
            else:
                assert set(result["skipped"]) >= names
        assert set(result["impls"]) == expected
        for name, impl in result["impls"].items():
            assert impl["correct"] is (None if impl["group"] == "limit" else True), (result["pattern"], name)


def test_each_timing_is_complete(report: dict) -> None:
    for result in report["results"]:
        assert result["repeats"] == 2 and result["limit_s"] > 0 and result["limit_gbps"] > 0
        assert np.prod(result["target_shape"]) * 4 == result["size_bytes"]
        for impl in result["impls"].values():
            assert len(impl["samples_s"]) == 2 and impl["loops"] >= 1
            assert impl["median_s"] > 0 and impl["best_s"] <= impl["median_s"]
            assert impl["gbps"] <= impl["gbps_best"] and impl["ratio_to_limit"] > 0 and impl["note"]
        targets = result["targets"]
        assert targets["out_at_least_0.9_limit"] is None  # the targets start at 1 MiB
        assert isinstance(targets["tiny_no_slower_than_numpy_copy"], bool) == (result["size_bytes"] <= 4096)


def test_table_lists_every_pattern(report: dict) -> None:
    text = broadcast_bench.table(report["results"])
    for pattern in PATTERNS:
        assert f"\n{pattern}: " in text
    assert "  4K  med" in text and "  8K best" in text


@pytest.mark.parametrize(("text", "size"), [("4K", 4096), ("1M", 1 << 20), ("256MiB", 256 << 20), ("8192", 8192)])
def test_parse_size(text: str, size: int) -> None:
    assert parse_size(text) == size


def test_parse_size_refuses_other_sizes() -> None:
    with pytest.raises(ValueError, match="power of two"):
        parse_size("3K")


def test_same_bytes_is_bitwise() -> None:
    nan = np.array([np.nan], np.float32)
    payload = np.array([0x7FC00001], np.uint32).view(np.float32)
    assert same_bytes(nan.copy(), nan)
    assert not same_bytes(payload, nan)
    assert not same_bytes(np.array([-0.0]), np.array([0.0]))
    assert not same_bytes(np.zeros((2, 1)), np.zeros((1, 2)))


def test_bad_arguments_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--sizes", "3K"], ["--patterns", "diagonal"], ["--sizes", "2K"]):
        with pytest.raises(SystemExit):
            main(argv)
    assert "should be" in capsys.readouterr().err


def test_bench_is_runnable_as_a_module() -> None:
    assert (Path(broadcast_bench.__file__).parent / "__init__.py").exists()
