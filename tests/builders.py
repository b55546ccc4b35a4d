"""Cases and requests built in tests, the way the harness builds them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conformance import ops
from conformance.backends import Request


def case(mode: str = "numpy", data_shape: tuple[int | None, ...] = (3,), target_shape: Any = (2, 3),
         axes_mapping: Any = None, *, case_id: str = "c", group: str = "rule", versions: tuple[int, ...] | None = None,
         expect_reject: str | None = None, dtypes: tuple[str, ...] | None = None) -> Any:
    """A Broadcast case; its expected shape is the reference's (unless ``expect_reject`` is given)."""
    from conformance.cases import Case

    op = ops.get("broadcast")
    raw: dict[str, Any] = {"mode": mode, "data_shape": ["?" if d is None else d for d in data_shape],
                           "target_shape": list(target_shape) if isinstance(target_shape, tuple) else target_shape}
    if axes_mapping is not None:
        raw["axes_mapping"] = list(axes_mapping)
    if versions is not None:
        raw["versions"] = list(versions)
    params = op.parse(raw)
    shape, rule = op.outcome(params)
    return Case(id=case_id, file=f"cases/{case_id}.yaml", line=1, group=group, op="broadcast", params=params,
                expect_shape=None if expect_reject or rule else shape, expect_reject=expect_reject or rule,
                spec_ref="000_ece0cbba5cb063a0.txt", dtypes=dtypes)


def request(data: np.ndarray, target_shape: Any, axes_mapping: Any = None, mode: str = "numpy", *,
            path: dict[str, str] | None = None, variant: str = "", shape_only: bool = False,
            data_shape: tuple[int | None, ...] | None = None) -> Request:
    """A Broadcast request as a worker receives it."""
    target = np.asarray(target_shape, dtype=np.int64) if not isinstance(target_shape, np.ndarray) else target_shape
    axes = None if axes_mapping is None else (axes_mapping if isinstance(axes_mapping, np.ndarray)
                                              else np.asarray(axes_mapping, dtype=np.int64))
    return Request(op="broadcast", path=path or {"variant": variant}, inputs={"data": data, "target_shape": target,
                                                                             "axes_mapping": axes},
                   attrs={"mode": mode}, shape_only=shape_only,
                   input_shapes={"data": tuple(data.shape) if data_shape is None else data_shape}, variant=variant)


ROOT = Path(__file__).resolve().parents[1]


def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, cases: str,
            test_module: bool = True) -> pytest.Pytester:
    """A pytester project that runs the suite on ``cases`` (one case file, cases/small.yaml) from this checkout;
    ``test_module``: with an empty test_conformance.py beside it."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    if test_module:
        pytester.makepyfile(test_conformance="")
    (pytester.path / "cases").mkdir()
    (pytester.path / "cases" / "small.yaml").write_text(cases)
    return pytester


def small_numpy_case(dtypes: str, more: str = "") -> str:
    """A case file (for ``project``) of one small numpy case, [3] to [2, 3], in ``dtypes`` (YAML: ``[f32, i64]``),
    then ``more`` (further cases, YAML list items)."""
    return ("group: rule\ncases:\n  - id: small_numpy\n    mode: numpy\n    data_shape: [3]\n    target_shape: [2, 3]\n"
            "    expect: {shape: [2, 3]}\n    spec_ref: \"003_38ca088f58e9a6c7.txt#Examples\"\n"
            f"    dtypes: {dtypes}\n{more}")


def run_backend(project: pytest.Pytester, backend: str, *args: str) -> dict:
    """The results (results.json) of the suite run on ``project``'s cases on one backend, no generated checks."""
    import json

    project.runpytest_subprocess("-p", "conformance.plugin", "-p", "no:cacheprovider", "--generated-examples", "0",
                                 "--results", "out/results.json", "--report", "none", "--backend", backend, *args)
    return json.loads((project.path / "out" / "results.json").read_text())
