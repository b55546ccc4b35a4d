"""The results files: one JSON document per run (``--results``, reports/results.json), the JSON-lines stream
written as the run goes (``<results>.jsonl``), and the merge of several runs a report can show as one.

The layout is conformance/results/record.py's (``Results`` and the records it holds; JSON Schema in
results.schema.json). Reading gives a ``Results`` whatever the file's format (/2, or /1 from before the
redesign); writing always writes FORMAT.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from conformance.results.record import FORMAT, FORMAT_1, CaseRecord, CheckRecord, Results

__all__ = ["FORMAT", "Stream", "as_results", "column", "dumps", "load", "load_stream", "merge", "save", "write_atomic",
           "write_temp"]


def write_atomic(path: Path, text: str) -> None:
    """Write through a temporary file and rename, so a crash never leaves a half-written file."""
    tmp = write_temp(path, text)
    try:
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def write_temp(path: Path, text: str) -> str:
    """``text`` in a new temporary file beside ``path`` (its folder made if need be), readable as a file written
    plainly would be; its name. Nothing is left behind if writing fails."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        # mkstemp creates 0600; a report is for reading by others (a web server, a teammate)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
    except BaseException:
        os.unlink(tmp)
        raise
    return tmp


def _no_constant(name: str) -> Any:
    """NaN and Infinity are not JSON, and a run never writes them (json.dumps would, for a float that is one):
    a file holding one was made or changed by something else."""
    raise ValueError(f"malformed results: {name} is no number a results file holds")


def _jsonable(value: Any) -> Any:
    """json.dumps' fallback: a record as its JSON, anything else as text."""
    to_json = getattr(value, "to_json", None)
    return to_json() if callable(to_json) else str(value)


def as_results(results: Results | Mapping[str, Any]) -> Results:
    """A Results, given one or its JSON document (ValueError says what is wrong with the document)."""
    return results if isinstance(results, Results) else Results.from_json(results)


def save(path: Path, results: Results | Mapping[str, Any]) -> None:
    """Write `results` (a Results, or its JSON document: read through the records, so the file is FORMAT)."""
    write_atomic(Path(path), dumps(results))


def dumps(results: Results | Mapping[str, Any]) -> str:
    """The text of a results file."""
    return json.dumps(as_results(results).to_json(), indent=1, default=_jsonable) + "\n"


def load(path: Path) -> Results:
    """A results file: the JSON document a run writes at its end, or the JSON-lines stream it writes as it goes.
    ValueError (json.JSONDecodeError is one) for a file that is not one."""
    if Path(path).suffix == ".jsonl":
        return load_stream(Path(path))
    return Results.from_json(json.loads(Path(path).read_text(encoding="utf-8"), parse_constant=_no_constant))


def column(check: CheckRecord | Mapping[str, Any]) -> str:
    """A report column: backend@version, so runs of several versions sit side by side."""
    if isinstance(check, CheckRecord):
        return check.column
    version = check.get("backend_version")
    return f"{check['backend']}@{version}" if version else check["backend"]


def merge(runs: Iterable[Results]) -> Results:
    """Several results as one: cases are united, checks kept (a later run wins for the same check key on the
    same backend@version, so a file of format /1 and one of /2 merge), backends keyed by backend@version."""
    runs = list(runs)
    if not runs:
        raise ValueError("no results to merge")
    merged = Results(runs=[r.run for r in runs])
    seen: dict[tuple[str, str], int] = {}
    for r in runs:
        merged.cases.update(r.cases)
        for name, info in r.backends.items():
            key = f"{name}@{info.version}" if info.version else name
            merged.backends[key] = replace(info, name=info.name or name)
        for check in r.checks:
            check_key = (check.key, check.column)
            if check_key in seen:
                merged.checks[seen[check_key]] = check
            else:
                seen[check_key] = len(merged.checks)
                merged.checks.append(check)
        merged.collection_errors.extend(r.collection_errors)
        merged.failed_items.extend(r.failed_items)
    merged.unmatched_known = _listed_by_every_run_of(runs, lambda r: r.unmatched_known)
    merged.known_on_other_paths = _listed_by_every_run_of(runs, lambda r: r.known_on_other_paths)
    merged.run = replace(runs[-1].run, complete=all(r.run.complete for r in runs),
                         part=all(r.run.part for r in runs) or None)
    return _ran_where_installed(merged)


def _listed_by_every_run_of(runs: list[Results], listed: Callable[[Results], list[Any]]) -> list[Any]:
    """The known entries (``{"backend", "entry"}``) a merge lists as matching no check (or only checks of paths
    left out): those that every run that had the entry's backend lists (a run where it was not installed lists
    them all, and another run that ran it speaks for it); of a backend no run had, those any run lists."""
    def had(r: Results, backend: str) -> bool:
        return any(info.available is not False for name, info in r.backends.items()
                   if name == backend or name.startswith(backend + "@"))

    out: list[Any] = []
    for item in (i for r in runs for i in listed(r)):
        having = [r for r in runs if had(r, item["backend"])]
        if item not in out and all(item in listed(r) for r in having):  # no run had it: all() of none holds
            out.append(item)
    return out


def _ran_where_installed(merged: Results) -> Results:
    """A backend not installed in one run (its checks skipped with the reason, under its bare name) and run in
    another (the extras' environments: tox -e conformance-jax ...): the checks of the run where it ran stand for it,
    so that one report of the default run and the extras' shows each backend once. Where it ran in no file, its
    skipped column stays, with the reason."""
    ran = {(c.key, c.backend) for c in merged.checks if c.backend_version}
    absent = {name for name, info in merged.backends.items() if "@" not in name and info.available is False}
    dropped = {c.backend for c in merged.checks if c.backend in absent and (c.key, c.backend) in ran}
    if not dropped:
        return merged
    merged.checks = [c for c in merged.checks if c.backend_version or c.backend not in dropped
                     or (c.key, c.backend) not in ran]
    left = {c.backend for c in merged.checks if not c.backend_version}
    merged.backends = {name: info for name, info in merged.backends.items() if name not in dropped - left}
    return merged


class Stream:
    """The results of a run as JSON lines, each written as its check finishes: a run that is killed keeps
    every finished check. Lines: {"header": {"format", "run", "backends"}}, {"case": id, "data": CaseRecord},
    {"check": CheckRecord}, {"collection_error": {...}}, {"failed_item": {...}}, and {"footer": {...run,
    "unmatched_known"}} when the run ended normally. Records may be given as records or as their JSON."""

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._file = open(path, "w", encoding="utf-8", buffering=1)  # noqa: SIM115  (kept open for the run)
        self.write({"header": {"format": FORMAT, **header}})

    def write(self, line: dict[str, Any]) -> None:
        # one write per line, flushed: the OS keeps it even if this process is killed the next instant
        self._file.write(json.dumps(line, default=_jsonable) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def load_stream(path: Path) -> Results:
    """The results of a (possibly interrupted) JSON-lines stream; a torn last line is ignored, any other line
    that is not an entry is an error naming it (the stream was damaged, or two runs wrote it). A stream whose
    header names no format is of format /1 (before the redesign)."""
    header: dict[str, Any] = {}
    footer: dict[str, Any] | None = None
    cases: dict[str, Any] = {}
    checks: list[dict[str, Any]] = []
    errors: list[dict[str, Any]] = []
    failed: list[dict[str, Any]] = []
    with open(path, encoding="utf-8") as f:
        texts = f.readlines()
    for number, text in enumerate(texts, 1):
        try:
            line = json.loads(text, parse_constant=_no_constant)
        except (json.JSONDecodeError, RecursionError):
            line = None
        if not isinstance(line, dict):
            if number == len(texts) and not text.endswith("\n"):
                continue  # the line being written when the run was killed
            raise ValueError(f"malformed results: line {number} of the stream is not an entry: {text[:80]!r}")
        if "header" in line:
            header = line["header"]
        elif "case" in line:
            cases[line["case"]] = line["data"] or CaseRecord().to_json()
        elif "check" in line:
            checks.append(line["check"])
        elif "collection_error" in line:
            errors.append(line["collection_error"])
        elif "failed_item" in line:
            failed.append(line["failed_item"])
        elif "footer" in line:
            footer = line["footer"]
    if not header:
        raise ValueError(f"{path}: no header line: not a results stream")
    run = {**header.get("run", {}), **(footer or {}), "complete": bool(footer and footer.get("complete"))}
    return Results.from_json({"format": header.get("format", FORMAT_1), "run": run,
                              "backends": header.get("backends", {}), "cases": cases, "checks": checks,
                              "unmatched_known": (footer or {}).get("unmatched_known", []),
                              "known_on_other_paths": (footer or {}).get("known_on_other_paths", []),
                              "collection_errors": errors, "failed_items": failed})
