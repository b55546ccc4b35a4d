"""What a run collected, and writing it out: the results file, then the HTML report rendered from it."""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import os
import platform
import shlex
import subprocess
import sys
import time
from collections import Counter
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from conformance import known as known_mod
from conformance.backends import Backend
from conformance.results import files as results
from conformance.results import outputs

PACKAGES = ("numpy", "openvino", "onnxruntime", "onnx", "pytest", "pytest-xdist", "PyYAML",
            "jsonschema", "Jinja2", "ml_dtypes", "hypothesis")


def _command() -> str:
    """The command line that ran, the interpreter by its name (python3, not a path)."""
    argv = list(getattr(sys, "orig_argv", None) or sys.argv)
    return shlex.join([os.path.basename(argv[0]), *argv[1:]]) if argv else ""


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


DEFAULT_BENCH = "reports/bench.json"


class RunLog:
    """Collects the run on the xdist controller (or the only process): each check is streamed to
    ``<results>.jsonl`` as it finishes, and the results file and report are written at the end."""

    def __init__(self, config: pytest.Config, backends: dict[str, Backend],
                 known: dict[str, list[known_mod.Known]], part_of_the_suite: bool = False) -> None:
        self.config = config
        # a run of part of the suite writes, unless told where, to a folder of its own (reports/runs/<this>)
        self.part_run = (dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H-%M-%S") + f"-{os.getpid()}"
                         if part_of_the_suite else None)
        self.backends = backends
        self.known = known
        self.started = _now()
        self.t0 = time.perf_counter()
        self.checks: list[dict[str, Any]] = []
        self.collection_errors: list[dict[str, Any]] = []
        self.failed_items: list[dict[str, Any]] = []  # items that failed with no check recorded (a crashed worker)
        self.written: list[Path] = []
        self.unmatched: list[dict[str, Any]] = []
        # unmatched entries that a check on a path this run left out would meet (not news: --paths all runs them)
        self.on_other_paths: list[dict[str, str]] = []
        self.cases: dict[str, dict[str, Any]] = {}
        self.stream: results.Stream | None = None
        self.compare: results.Results | Path | None = None
        self.kept = False  # no check ran: the last run's results and report were left as they were
        self.moved: list[Path] = []  # the last run's files moved aside when this one started writing
        self.unwritten: dict[Path, str] = {}  # an output that could not be written (a full disk): why
        self.stream_lost: str | None = None  # why the stream stopped (its lines up to then are kept)
        self._lock: outputs.Lock | None = None
        self.interrupted = False  # a Ctrl-C or SIGTERM came (conformance/plugin/state.py)
        self.changes: dict[str, int] | None = None  # since the --compare run, by kind of change
        self.outside = 0  # checks of the --compare run that this run of part of the suite did not select

    def outputs(self) -> dict[str, Path]:
        return {f"--{name}": path for name in ("results", "report") if (path := self._path(name)) is not None}

    def claim_outputs(self) -> None:
        """Before anything runs (the controller, or the only process): the output paths can be written, and this
        run holds them (a second run with the same paths is refused). pytest.UsageError says what is wrong."""
        if self.runs_nothing:
            return
        try:
            outputs.check(self.outputs())
            self._lock = outputs.Lock(self.outputs())
        except outputs.OutputError as e:
            raise pytest.UsageError(str(e)) from None

    @property
    def runs_nothing(self) -> bool:
        """--collect-only: nothing runs, so the results and report of the last run are left as they are."""
        return bool(self.config.option.collectonly)

    def start(self) -> None:
        if self.runs_nothing:
            return
        compare = self._path("compare")
        if compare is not None:
            from conformance.report import Unusable, load

            # read now: the run is about to overwrite its results file, which is often the one compared with
            try:
                self.compare = load(compare)
            except Unusable:
                self.compare = compare  # the report names the problem

    def _stream(self, entry: dict[str, Any]) -> None:
        """One line of ``<results>.jsonl``, which is opened with the first: a run that runs nothing leaves the
        last run's files as they are."""
        if self.stream_lost is not None:
            return
        try:
            if self.stream is None:
                # the run writes from now on: the last run's results and report must not look like this one's
                self.moved = outputs.move_aside(list(self.outputs().values()))
                path = self._path("results")
                if path is None:
                    return
                self.stream = results.Stream(outputs.stream_path(path), {
                    "run": self._run_info, "backends": {b.name: b.describe() for b in self.backends.values()}})
            self.stream.write(entry)
        except OSError as e:  # a full disk: the lines written stay, the run goes on, the end says so
            self.stream_lost = e.strerror or str(e)

    @functools.cached_property
    def _run_info(self) -> dict[str, Any]:
        """What the run is and runs on, asked once (git, package metadata) for the stream and the results."""
        config = self.config
        return {"started": self.started, "suite_commit": _commit(config.rootpath), "python": sys.version.split()[0],
                "platform": platform.platform(), "cpu": _cpu(), "argv": list(config.invocation_params.args),
                "packages": _versions(), "command": _command()}

    def add_case(self, case_id: str, data: dict[str, Any]) -> None:
        """A case some check ran on (each test item sends its own: no process reads the case files again)."""
        if case_id not in self.cases:
            self.cases[case_id] = data
            self._stream({"case": case_id, "data": data})

    def add_check(self, record: dict[str, Any]) -> None:
        self.checks.append(record)
        self._stream({"check": record})

    def add_collection_error(self, error: dict[str, Any]) -> None:
        if error not in self.collection_errors:  # every xdist worker collects, and reports, the same error
            self.collection_errors.append(error)
            self._stream({"collection_error": error})

    def add_failed_item(self, item: dict[str, Any]) -> None:
        self.failed_items.append(item)
        self._stream({"failed_item": item})

    def _path(self, option: str) -> Path | None:
        value = self.config.getoption(option)
        if value is None and option in outputs.DEFAULT_OUTPUTS:
            value = outputs.DEFAULT_OUTPUTS[option]
            if self.part_run is not None:
                value = f"{outputs.PART_RUNS}/{self.part_run}/{Path(value).name}"
        if not value or value == "none":
            return None
        path = Path(value)
        return path if path.is_absolute() else self.config.invocation_params.dir / path

    def build(self, complete: bool, restricted: bool = False) -> dict[str, Any]:
        used = {r["case"] for r in self.checks}
        cases = {case_id: data for case_id, data in self.cases.items() if case_id in used}
        matched = {(r["backend"], r["known"]["id"]) for r in self.checks if r.get("known")}
        names = {b.name for b in self.backends.values()}
        versions: dict[str, str | None] = {b.name: b.version() or "" for b in self.backends.values()}
        unmatched = known_mod.unmatched({n: ks for n, ks in self.known.items() if n in names}, matched, versions,
                                        restricted)
        on_other_paths = self._on_other_paths(unmatched, cases, versions) if unmatched else []
        unmatched = [u for u in unmatched if {"backend": u["backend"], "entry": u["entry"]["id"]} not in on_other_paths]
        return {
            "format": results.FORMAT,
            "run": {**self._run_info, "finished": _now(), "complete": complete,
                    "part": restricted or self.part_run is not None,  # --backend too: part_of_the_suite
                    "wall_time": round(time.perf_counter() - self.t0, 2)},
            "backends": {b.name: b.describe() for b in self.backends.values()},
            "cases": cases,
            "checks": self.checks,
            "unmatched_known": unmatched,
            "known_on_other_paths": on_other_paths,
            "collection_errors": self.collection_errors,
            **({"failed_items": self.failed_items} if self.failed_items else {}),
        }

    def _on_other_paths(self, unmatched: list[dict[str, Any]], cases: dict[str, dict[str, Any]],
                        versions: dict[str, str | None]) -> list[dict[str, str]]:
        """Of the entries that matched no check of a run taking some paths of a case only (not --paths all),
        those that a check on a path it left out would meet, as {"backend", "entry": id}: read from the case
        files of the cases that ran, planned on every path."""
        if self.config.getoption("paths", "default") == "all":
            return []
        from conformance.cases import CaseFileError, load_file
        from conformance.cases.schema import GENERATED
        from conformance.run.plan import met_on_every_path

        root, loaded = self.config.rootpath, []
        for name in sorted({d["file"] for d in cases.values() if d.get("group") != GENERATED and d.get("file")}):
            with contextlib.suppress(CaseFileError, OSError):  # changed since: its checks' verdicts stand
                loaded += [c for c in load_file(root / name, root) if c.id in cases]
        by_name = {b.name: b for b in self.backends.values()}
        budget = int(self.config.getoption("output_budget") * 2**20)  # as the run's (conformance/plugin/state.py)
        found = []
        for name in sorted({u["backend"] for u in unmatched}):
            ids = {u["entry"]["id"] for u in unmatched if u["backend"] == name}
            entries = [k for k in self.known.get(name, []) if k.id in ids]
            met = met_on_every_path(entries, loaded, by_name[name], versions.get(name), budget)
            found += [{"backend": name, "entry": k.id} for k in entries if k.id in met]
        return found

    def finish(self, session: pytest.Session, restricted: bool = False) -> None:
        if self.runs_nothing:
            return
        # a -k or option that selects nothing, a refusal
        if not self.checks and not self.collection_errors and not self.failed_items:
            self.kept = True
            return
        interrupted = (self.interrupted or session.exitstatus == pytest.ExitCode.INTERRUPTED
                       or bool(session.shouldstop) or bool(session.shouldfail))
        data = self.build(complete=not interrupted, restricted=restricted)
        self.unmatched = data["unmatched_known"]
        self.on_other_paths = data["known_on_other_paths"]
        if self.stream is not None:
            self._stream({"footer": {key: data["run"][key] for key in ("finished", "complete", "wall_time")}
                          | {"unmatched_known": self.unmatched, "known_on_other_paths": self.on_other_paths}})
            with contextlib.suppress(OSError):
                self.stream.close()
            if self.stream_lost is None:
                self.written.append(self.stream.path)
            else:
                self.unwritten[self.stream.path] = f"{self.stream_lost}; its lines up to then are kept"
        results_path, report_path = self._path("results"), self._path("report")
        # read into the records once, for the results file and the report
        document = results.as_results(data) if results_path or report_path else None
        files = []
        if results_path is not None and document is not None:
            files.append((results_path, functools.partial(results.dumps, document)))
        if report_path is not None and document is not None:
            from conformance.report import report_text

            bench = self._path("bench")
            files.append((report_path, functools.partial(
                report_text, document, compare=self.compare,
                bench=bench if bench is not None and (bench.exists() or self.config.getoption("bench")
                                                      != DEFAULT_BENCH) else None)))
        if document is not None and isinstance(self.compare, results.Results):
            from conformance.report import change_counts
            from conformance.report.changes import outside

            self.changes = change_counts(document, self.compare)
            self.outside = outside(document, self.compare)
        written, failed = outputs.commit(files)
        self.written += written
        self.unwritten.update(failed)
        if self.unwritten and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.INTERNAL_ERROR  # asked for, not written: not a green run

    def summary_lines(self) -> list[str]:
        lines = []
        per_backend: dict[str, Counter[str]] = {}
        for r in self.checks:
            per_backend.setdefault(results.column(r), Counter())[r["verdict"]] += 1
        for column, counts in sorted(per_backend.items()):
            lines.append(f"conformance {column}: " + ", ".join(f"{n} {k}" for k, n in counts.most_common()))
        models = Counter(r.get("model") for r in self.checks)
        shared = models["shared"] + models["shared, then fresh worker"] + models["shared, also own"]
        confirmed = models["own, then fresh worker"] + models["shared, then fresh worker"]
        if shared or confirmed:
            lines.append(f"conformance: {shared} checks computed in models shared with others; {confirmed} failed "
                         "in a worker that had run other checks and ran again in a fresh one, which decided their "
                         f"verdict; {models['shared, also own']} passing ones were computed on a model of their "
                         "own as well (a sample), and agreed")
        for f in self.failed_items:
            lines.append(f"conformance: {f['item']} failed and recorded no check: "
                         + (f["message"].splitlines() or [""])[-1][:200])
        for u in self.unmatched:
            lines.append(f"known difference {u['entry']['id']} ({u['entry']['where']}) matched no check")
        if self.on_other_paths:
            lines.append(f"conformance: {len(self.on_other_paths)} known differences matched no check of this run but "
                         "are met on paths it leaves out of some cases (--paths all takes them): "
                         + ", ".join(u["entry"] for u in self.on_other_paths))
        if self.changes is not None and isinstance(self.compare, results.Results):
            lines.append(f"conformance: since the run of {self.compare.run.started} (--compare): "
                         + ", ".join(f"{n} {kind.replace('_', ' ')}" for kind, n in self.changes.items()))
            if self.outside:
                lines.append(f"conformance: {self.outside} checks of the compared run are outside this run of part of "
                             "the suite: not compared")
        elif self.compare is not None and not isinstance(self.compare, results.Results):
            lines.append(f"conformance: --compare {self.compare}: not a results file this run can read (the "
                         "report says why)")
        lines += [f"conformance: wrote {p}" for p in self.written]
        lines += [f"conformance: could not write {p}: {why}" for p, why in self.unwritten.items()]

        part_dir = self.config.invocation_params.dir / outputs.PART_RUNS / str(self.part_run)
        if self.part_run is not None and any(part_dir in p.parents for p in self.written):  # not where told to write
            lines.append(f"conformance: a run of part of the suite writes to {outputs.PART_RUNS}/{self.part_run}/; "
                         f"{outputs.DEFAULT_OUTPUTS['report']} stays the last full run's")
        if self.kept:
            lines.append("conformance: no check ran; the results and report of the last run are left as they were")
        return lines
