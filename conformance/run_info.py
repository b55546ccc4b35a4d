"""What a run collected, and writing it out: the results file, then the HTML report rendered from it."""

from __future__ import annotations

import datetime as dt
import platform
import subprocess
import sys
import time
from collections import Counter
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from conformance import known as known_mod
from conformance import results
from conformance.backends import Backend
from conformance.cases import load_all

PACKAGES = ("numpy", "openvino", "onnxruntime", "onnx", "pytest", "pytest-xdist", "pebble", "PyYAML",
            "jsonschema", "Jinja2")


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _commit(root: Path) -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def _versions() -> dict[str, str]:
    found = {}
    for name in PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return found


class RunLog:
    def __init__(self, config: pytest.Config, backends: dict[str, Backend]) -> None:
        self.config = config
        self.backends = backends
        self.started = _now()
        self.t0 = time.perf_counter()
        self.checks: list[dict[str, Any]] = []
        self.collection_errors: list[dict[str, Any]] = []
        self.written: list[Path] = []

    def add_check(self, record: dict[str, Any]) -> None:
        self.checks.append(record)

    def add_collection_error(self, error: dict[str, Any]) -> None:
        if error not in self.collection_errors:  # every xdist worker collects, and reports, the same error
            self.collection_errors.append(error)

    def _path(self, option: str) -> Path | None:
        value = self.config.getoption(option)
        if not value or value == "none":
            return None
        path = Path(value)
        return path if path.is_absolute() else self.config.invocation_params.dir / path

    def build(self, complete: bool) -> dict[str, Any]:
        config = self.config
        option = config.getoption("cases")
        cases_dir = Path(option) if option else config.rootpath / "cases"
        loaded, _ = load_all(cases_dir, config.rootpath) if cases_dir.is_dir() else ({}, {})
        used = {r["case"] for r in self.checks}
        cases = {c.id: c.to_json() for cs in loaded.values() for c in cs if c.id in used}
        matched = {(r["backend"], r["known"]["id"]) for r in self.checks if r.get("known")}
        names = {b.name for b in self.backends.values()}
        entries = known_mod.load([Path(p) for p in config.getoption("known")])
        unmatched = [{"backend": name, "entry": k.to_json()} for name, ks in entries.items() if name in names
                     for k in ks if (name, k.id) not in matched]
        return {
            "format": results.FORMAT,
            "run": {"started": self.started, "finished": _now(), "complete": complete,
                    "suite_commit": _commit(config.rootpath), "python": sys.version.split()[0],
                    "platform": platform.platform(), "cpu": _cpu(), "argv": list(config.invocation_params.args),
                    "wall_time": round(time.perf_counter() - self.t0, 2), "packages": _versions()},
            "backends": {b.name: b.describe() for b in self.backends.values()},
            "cases": cases,
            "checks": self.checks,
            "unmatched_known": unmatched,
            "collection_errors": self.collection_errors,
        }

    def finish(self, session: pytest.Session) -> None:
        complete = not session.shouldstop and not session.shouldfail and session.testsfailed is not None
        data = self.build(complete and session.exitstatus != pytest.ExitCode.INTERRUPTED)
        results_path = self._path("results")
        if results_path is not None:
            results.save(results_path, data)
            self.written.append(results_path)
        report_path = self._path("report")
        if report_path is not None:
            from conformance.report import write_report

            write_report(data, report_path)
            self.written.append(report_path)
        self.unmatched = data["unmatched_known"]

    def summary_lines(self) -> list[str]:
        lines = []
        per_backend: dict[str, Counter[str]] = {}
        for r in self.checks:
            per_backend.setdefault(results.column(r), Counter())[r["verdict"]] += 1
        for column, counts in sorted(per_backend.items()):
            lines.append(f"conformance {column}: " + ", ".join(f"{n} {k}" for k, n in counts.most_common()))
        for u in getattr(self, "unmatched", []):
            lines.append(f"known difference {u['entry']['id']} ({u['entry']['where']}) matched no check")
        lines += [f"conformance: wrote {p}" for p in self.written]
        return lines
