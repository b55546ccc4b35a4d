"""A user's plug-in, as a user would ship it: a package of its own that declares its Backend subclass under the
entry-point group broadcast_conformance.backends, pip-installed, then selected by its entry-point name."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# The minimal plug-in of the README, verbatim: keep the two in step.
PYPROJECT = """\
[project]
name = "my-broadcast"
version = "0.1.0"
dependencies = ["numpy"]

[project.entry-points."broadcast_conformance.backends"]
mine = "my_broadcast:MyBackend"
"""

MODULE = '''\
"""A Broadcast implementation under test: here numpy's own broadcast_to."""
import numpy as np

from conformance.backends import Backend, Outcome, Request


class MyBackend(Backend):
    name = "mine"
    package = "my-broadcast"            # the distribution whose version the report shows
    variants = {"v3": 3}                # its paths: here one, "v3", running Broadcast-3 (0, 1 or 3)
    dtypes = frozenset({"f32", "i32"})  # other element types are "not applicable"

    def why_not(self, case, path, dtype):
        if case.params.mode == "explicit":
            return "explicit mode is not implemented"
        return super().why_not(case, path, dtype)

    def run(self, request: Request) -> Outcome:
        data, target = request.data, tuple(request.target_shape.tolist())
        try:
            if request.axes_mapping is not None or request.target_shape.ndim != 1:
                raise ValueError("target_shape must be 1-D, and axes_mapping is for explicit mode only")
            if request.mode == "bidirectional":
                target = np.broadcast_shapes(data.shape, target)
            return Outcome(output=np.array(np.broadcast_to(data, target)))
        except ValueError as e:  # a rejection of the input
            return Outcome(error=str(e), stage="validate")
'''

CASES = """\
group: rule
cases:
  - id: np_small
    mode: numpy
    data_shape: [3]
    target_shape: [2, 3]
    expect: {shape: [2, 3]}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
    dtypes: [f32, i32]
  - id: np_small_reject
    mode: numpy
    data_shape: [3]
    target_shape: [2]
    expect: {reject: numpy_dim}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
  - id: bi_small
    mode: bidirectional
    versions: [3]
    data_shape: [3, 1]
    target_shape: [2, 1, 4]
    expect: {shape: [2, 3, 4]}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
    dtypes: [f32, i32]
  - id: ex_small
    mode: explicit
    data_shape: [3]
    target_shape: [3, 2]
    axes_mapping: [0]
    expect: {shape: [3, 2]}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
    dtypes: [f32, i32]
"""


def test_the_readme_plugin_is_short():
    assert len(MODULE.splitlines()) < 30


def _can_build_here() -> bool:
    """Whether the setuptools at hand builds wheels by itself (70.1 and later) or with the wheel package."""
    try:
        from importlib import metadata

        version = tuple(int(p) for p in metadata.version("setuptools").split(".")[:2])
    except (metadata.PackageNotFoundError, ValueError):
        return False
    return version >= (70, 1) or importlib.util.find_spec("wheel") is not None


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The plug-in package, pip-installed into a directory of its own (put on PYTHONPATH)."""
    src = tmp_path_factory.mktemp("my-broadcast")
    (src / "pyproject.toml").write_text(PYPROJECT)
    (src / "my_broadcast.py").write_text(MODULE)
    target = tmp_path_factory.mktemp("site")
    isolation = ["--no-build-isolation"] if _can_build_here() else []  # else pip fetches setuptools
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
                    *isolation, "--target", str(target), str(src)], check=True, timeout=300)
    return target


def test_an_installed_plugin_is_selected_by_its_entry_point_name(installed, pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), str(installed)]))
    pytester.makepyfile(test_conformance="")
    (pytester.path / "cases").mkdir()
    (pytester.path / "cases" / "small.yaml").write_text(CASES)
    result = pytester.runpytest_subprocess("-p", "conformance.plugin", "-p", "no:cacheprovider", "--backend", "mine",
                                           "--generated-examples", "0", "--results", "out.json", "--report", "none")
    data = json.loads((pytester.path / "out.json").read_text())
    got = {c["id"].split("::")[-1]: c["verdict"] for c in data["checks"]}
    assert got == {
        "np_small[mine-v3-f32]": "pass", "np_small[mine-v3-i32]": "pass",
        "np_small_reject[mine-v3-f32]": "pass",
        "bi_small[mine-v3-f32]": "pass", "bi_small[mine-v3-i32]": "pass",
        "ex_small[mine-v3-f32]": "not_applicable", "ex_small[mine-v3-i32]": "not_applicable",
    }
    assert data["backends"] == {"mine": {"version": "0.1.0", "available": True, "reason": None}}
    assert {c["backend_version"] for c in data["checks"]} == {"0.1.0"}
    result.assert_outcomes(passed=3, skipped=1)  # one item per case
    result.stdout.fnmatch_lines(["conformance mine@0.1.0: 5 pass, 2 not_applicable"])


def test_an_unknown_backend_lists_the_installed_plugins(installed, pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), str(installed)]))
    pytester.makepyfile(test_conformance="")
    result = pytester.runpytest_subprocess("-p", "conformance.plugin", "--backend", "mien")
    assert result.ret != 0
    result.stderr.fnmatch_lines(["*backend 'mien' is unknown; built-in: openvino, openvino-onnx, onnxruntime, "
                                 "onnxruntime-openvino, onnx-reference, local, jax, tract, tensorflow, torch; entry "
                                 "points in group "
                                 "'broadcast_conformance.backends': mine; *"])
