"""The results file: one JSON document per run, several of which a report can merge.

Layout (``format`` = FORMAT)::

    {
      "format": "broadcast-conformance-results/1",
      "run": {"started": ISO-8601, "finished": ISO-8601, "complete": bool, "suite_commit": str|null,
              "python": str, "platform": str, "cpu": str, "argv": [str], "wall_time": seconds,
              "packages": {name: version}},
      "backends": {name: {"version": str|null, "available": bool, "reason": str|null,
                          "hardware": [str] (only when the backend reports any, e.g. "cpu:bf16")}},
      "cases": {case_id: {"file": str, "line": int, "group": str, "mode": str, "versions": [int],
                          "data_shape": [...], "target_shape": [...], "axes_mapping": [...]|null,
                          "expect": {"shape": [...]} | {"reject": rule}, "spec_ref": str,
                          "description": str|null, "source": str|null, "interpretation": str|null,
                          "text": the case as written in its YAML file}},
      "checks": [{"id": <file>::<case_id>[<backend>-<variant>-<dtype>...], "case": case_id, "backend": str,
                  "backend_version": str|null,
                  "variant": str, "dtype": str, "verdict": one of conformance.verdicts.VERDICTS,
                  "message": str|null, "expected": {"shape": [...], "dtype": str} | {"reject": rule},
                  "actual": {"shape": [...]|null, "dtype": str|null, "declared_shape": [...]|null,
                             "error": str|null, "stage": str|null} | null,
                  "first_diff": {"index": [int], "expected": str, "actual": str} | null,
                  "known": {"reason": str, "link": str|null, "reproducer": str|null} | null,
                  "duration": seconds, "rerun": shell command,
                  "model": "own" | "shared" (a model compiled for several checks) | "shared, then own" (its
                           outcome in the shared model failed, so it ran again alone: that outcome counts)}],
      "unmatched_known": [{"backend": str, "entry": {...}}],
      "collection_errors": [{"file": str, "line": int|null, "message": str}]
    }
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

FORMAT = "broadcast-conformance-results/1"


def write_atomic(path: Path, text: str) -> None:
    """Write through a temporary file and rename, so a crash never leaves a half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        # mkstemp creates 0600; a report is for reading by others (a web server, a teammate)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def save(path: Path, results: dict[str, Any]) -> None:
    write_atomic(path, json.dumps(results, indent=1, sort_keys=False, default=str) + "\n")


def load(path: Path) -> dict[str, Any]:
    """A results file: the JSON document a run writes at its end, or the JSON-lines stream it writes as it goes."""
    if Path(path).suffix == ".jsonl":
        return load_stream(Path(path))
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if data.get("format") != FORMAT:
        raise ValueError(f"{path}: format={data.get('format')!r}, but should be {FORMAT!r}")
    return data


def column(check: dict[str, Any]) -> str:
    """A report column: backend@version, so runs of several versions sit side by side."""
    version = check.get("backend_version")
    return f"{check['backend']}@{version}" if version else check["backend"]


def merge(runs: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Several results files as one: cases are united, checks kept (a later run wins for the same
    check id on the same backend@version), backends keyed by backend@version."""
    runs = list(runs)
    if not runs:
        raise ValueError("no results to merge")
    merged: dict[str, Any] = {"format": FORMAT, "runs": [r["run"] for r in runs], "run": runs[-1]["run"],
                              "backends": {}, "cases": {}, "checks": [], "unmatched_known": [],
                              "collection_errors": []}
    seen: dict[tuple[str, str], int] = {}
    for r in runs:
        merged["cases"].update(r["cases"])
        for name, info in r["backends"].items():
            key = f"{name}@{info['version']}" if info.get("version") else name
            merged["backends"][key] = {**info, "name": name}
        for check in r["checks"]:
            key = (check["id"], column(check))
            if key in seen:
                merged["checks"][seen[key]] = check
            else:
                seen[key] = len(merged["checks"])
                merged["checks"].append(check)
        merged["unmatched_known"].extend(r.get("unmatched_known", []))
        merged["collection_errors"].extend(r.get("collection_errors", []))
    merged["run"] = {**runs[-1]["run"], "complete": all(r["run"].get("complete", False) for r in runs)}
    return merged


class Stream:
    """The results of a run as JSON lines, each written as its check finishes: a run that is killed keeps
    every finished check. Lines: {"header": {...run, backends}}, {"case": id, "data": {...}},
    {"check": {...}}, {"collection_error": {...}}, and {"footer": {...run}} when the run ended normally."""

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._file = open(path, "w", encoding="utf-8", buffering=1)  # noqa: SIM115  (kept open for the run)
        self.write({"header": header})

    def write(self, line: dict[str, Any]) -> None:
        # one write per line, flushed: the OS keeps it even if this process is killed the next instant
        self._file.write(json.dumps(line, default=str) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def load_stream(path: Path) -> dict[str, Any]:
    """A results document from a (possibly interrupted) JSON-lines stream; a torn last line is ignored."""
    header: dict[str, Any] = {}
    footer: dict[str, Any] | None = None
    cases: dict[str, Any] = {}
    checks: list[dict[str, Any]] = []
    errors: list[dict[str, Any]] = []
    with open(path, encoding="utf-8") as f:
        for text in f:
            try:
                line = json.loads(text)
            except json.JSONDecodeError:
                continue  # the line being written when the run was killed
            if "header" in line:
                header = line["header"]
            elif "case" in line:
                cases[line["case"]] = line["data"]
            elif "check" in line:
                checks.append(line["check"])
            elif "collection_error" in line:
                errors.append(line["collection_error"])
            elif "footer" in line:
                footer = line["footer"]
    if not header:
        raise ValueError(f"{path}: no header line: not a results stream")
    run = {**header.get("run", {}), **(footer or {}), "complete": bool(footer and footer.get("complete"))}
    return {"format": FORMAT, "run": run, "backends": header.get("backends", {}), "cases": cases,
            "checks": checks, "unmatched_known": (footer or {}).get("unmatched_known", []),
            "collection_errors": errors}
