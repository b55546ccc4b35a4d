"""The pytest plugin behind `pytest conformance`: options, collection of YAML cases, one item per check,
and the results file and HTML report written at the end (by the xdist controller only)."""

from __future__ import annotations

import json
import re
import signal
import time
import traceback
import zlib
from collections.abc import Iterator
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

import pytest

from conformance import generated, traits
from conformance import known as known_mod
from conformance import verdicts as v
from conformance.backends import BUILTIN, Backend, BackendNotFound, load
from conformance.batching import Batcher
from conformance.cases import Case, CaseFileError, load_all
from conformance.checks import Check, execute, plan, rerun_command, result_record
from conformance.isolation import WorkerPool
from conformance.run_info import RunLog

ENTRY_MODULE = "test_conformance.py"
LOOKAHEAD = 16  # test items whose checks may join a batch (conformance/batching.py)


def _terminate(session: pytest.Session) -> None:
    """SIGTERM ends the run after the check in progress: the results so far are written, marked incomplete.
    (A flag, not an exception thrown into whatever code runs: that could leave the worker pool's locks held.)
    A second SIGTERM does not wait."""
    if session.shouldstop:
        raise KeyboardInterrupt("SIGTERM, twice")
    session.shouldstop = "terminated by SIGTERM"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "Broadcast conformance")
    group.addoption("--backend", action="append", default=None, metavar="NAME",
                    help=f"backend to run: {', '.join(BUILTIN)}, an installed plug-in's entry-point name, "
                         "onnx-backend:MODULE or module:Class (repeatable; default: all built-in)")
    group.addoption("--mode", action="append", default=None, choices=["numpy", "explicit", "bidirectional"],
                    help="only cases of this mode (repeatable)")
    group.addoption("--dtype", action="append", default=None, metavar="DTYPE",
                    help="only these element types, e.g. f32 (repeatable)")
    group.addoption("--cases", default=None, metavar="DIR", help="case directory (default: <rootdir>/cases)")
    group.addoption("--known", action="append", default=[], metavar="FILE",
                    help="extra known-differences file, named <backend>.yaml (repeatable)")
    group.addoption("--check-timeout", type=float, default=120.0, metavar="SECONDS",
                    help="per-check timeout; the worker is killed and replaced (default 120)")
    group.addoption("--worker-memory", type=float, default=8192, metavar="MIB",
                    help="address-space limit of each worker process in MiB; 0 for none (default 8192)")
    group.addoption("--output-budget", type=float, default=256, metavar="MIB",
                    help="a check whose output would exceed this is shape-only: nothing is allocated "
                         "(default 256)")
    group.addoption("--check", action="append", default=None, metavar="GLOB",
                    help="only the checks whose name within their case matches, e.g. 'openvino-opset3-const-i64' "
                         "or '*-i64' (repeatable; a failure prints the command that reruns just its check)")
    group.addoption("--uncached", action="store_true",
                    help="build, compile and run one model per check, one check per worker call: the slow path, "
                         "kept to measure against and to rule out shared models as the cause of a verdict")
    group.addoption("--shard", default=None, metavar="K/N",
                    help="run the K-th of N deterministic slices of the cases (1 <= K <= N), e.g. for N CI jobs; "
                         "`python -m conformance report` merges their results files into one page")
    group.addoption("--generated-examples", type=int, default=generated.DEFAULT_EXAMPLES, metavar="N",
                    help="inputs hypothesis draws and runs per backend (default %(default)s; 0: none; thousands for "
                         "a long search)")
    group.addoption("--generated-seed", type=int, default=generated.DEFAULT_SEED, metavar="SEED",
                    help="seed of the generated inputs (default %(default)s, so every run draws the same ones)")
    group.addoption("--results", default="reports/results.json", metavar="PATH",
                    help="results file to write (default reports/results.json)")
    group.addoption("--report", default="reports/index.html", metavar="PATH",
                    help="HTML report to write (default reports/index.html; 'none' to skip)")
    group.addoption("--bench", default="reports/bench.json", metavar="BENCH.json",
                    help="benchmark results (python3 -m bench.broadcast_bench) to chart in the report; the default "
                         "file is shown when it exists ('none' to leave it out)")
    group.addoption("--compare", default=None, metavar="OLD.json",
                    help="an earlier results file: the report lists new failures, fixes and other changed verdicts "
                         "since it (read when the run starts, so it may be the --results file of the last run)")


class State:
    """Per-process state of a conformance run."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        refs = config.getoption("backend") or list(BUILTIN)
        try:
            self.backends: dict[str, Backend] = {ref: load(ref) for ref in refs}
        except (BackendNotFound, TypeError) as e:
            raise pytest.UsageError(str(e)) from e
        modes = config.getoption("mode")
        self.modes = set(modes) if modes else None
        dtypes = config.getoption("dtype")
        self.dtypes = tuple(dtypes) if dtypes else None
        # asked once: importlib.metadata reads files each time, which cost more than a check
        self.versions = {ref: b.version() for ref, b in self.backends.items()}
        self.unavailable = {ref: b.unavailable() for ref, b in self.backends.items()}
        hardware = {b.name: b.hardware() for ref, b in self.backends.items() if not self.unavailable[ref]}
        self.known = known_mod.on_hardware(known_mod.load([Path(p) for p in config.getoption("known")]), hardware)
        self.shard = parse_shard(config.getoption("shard"))
        self.uncached = config.getoption("uncached")
        self.budget = int(config.getoption("output_budget") * 2**20)
        self.only = tuple(config.getoption("check") or ())
        self.upcoming: dict[str, list[CaseItem]] = {}  # backend_ref -> its items this process runs, in order
        self.position: dict[str, int] = {}  # item nodeid -> its place there
        self.in_xdist_worker = hasattr(config, "workerinput")
        self._pool: WorkerPool | None = None
        self._batcher: Batcher | None = None
        self.log = RunLog(config, self.backends, self.known)

    @property
    def pool(self) -> WorkerPool:
        if self._pool is None:
            memory = int(self.config.getoption("worker_memory") * 2**20)
            preload = tuple(dict.fromkeys(m for b in self.backends.values() for m in b.preload))
            self._pool = WorkerPool(timeout=self.config.getoption("check_timeout"), memory_limit=memory or None,
                                    preload=preload)
        return self._pool

    @property
    def batcher(self) -> Batcher:
        if self._batcher is None:
            known = {b.name: self.known.get(b.name, []) for b in self.backends.values()}
            self._batcher = Batcher(self.pool, known, self.versions, self.budget)
        return self._batcher

    def peers(self, item: CaseItem) -> Iterator[Check]:
        """The checks of an item, then those of the next items of its backend (for the Batcher). Under xdist
        another process may run some of those: the outcomes computed for them here are then not used."""
        yield from item.checks
        items = self.upcoming.get(item.backend_ref, [])
        at = self.position.get(item.nodeid, len(items))
        for following in items[at + 1: at + 1 + LOOKAHEAD]:
            yield from following.checks

    def selected(self, check: Check) -> bool:
        return not self.only or any(fnmatchcase(check.part, p) for p in self.only)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()

    # Hooks, registered as a plugin object: the controller (or the only process) sees every report.
    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            text = str(report.longrepr)
            m = re.match(r"(?P<file>[^\n]+?):(?P<line>\d+): (?P<message>.*)", text, re.S)
            self.log.add_collection_error({"file": m["file"], "line": int(m["line"]), "message": m["message"]}
                                          if m else {"file": report.nodeid, "line": None, "message": text})

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        records = dict(report.user_properties).get("conformance")
        if records is not None and report.when == "call":
            for record in json.loads(records):
                self.log.add_check(record)

    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        if self.shard is None:
            return
        k, n = self.shard
        keep, drop = [], []
        for item in items:
            in_shard = not isinstance(item, CaseItem) or shard_of(item.case.id, n) == k
            (keep if in_shard else drop).append(item)
        if drop:
            config.hook.pytest_deselected(items=drop)
            items[:] = keep

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        for item in session.items:
            if isinstance(item, CaseItem):
                items = self.upcoming.setdefault(item.backend_ref, [])
                self.position[item.nodeid] = len(items)
                items.append(item)

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        if not self.in_xdist_worker:
            self.log.start()
            signal.signal(signal.SIGTERM, lambda signum, frame: _terminate(session))

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if not self.in_xdist_worker:  # an xdist worker: the controller writes the results
            self.log.finish(session)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.in_xdist_worker:
            for line in self.log.summary_lines():
                terminalreporter.write_line(line)


def parse_shard(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    m = re.fullmatch(r"(\d+)/(\d+)", text.strip())
    if not m or not 1 <= int(m[1]) <= int(m[2]):
        raise pytest.UsageError(f"--shard {text}: give K/N with 1 <= K <= N, e.g. --shard 2/4")
    return int(m[1]), int(m[2])


def shard_of(case_id: str, shards: int) -> int:
    """The shard (1..N) a case belongs to: a hash of its id, the same on every machine and run, so N jobs
    with --shard 1/N .. N/N run every case exactly once; all checks of a case stay together."""
    return zlib.crc32(case_id.encode()) % shards + 1


def _state(config: pytest.Config) -> State:
    return config.stash[_STATE]


_STATE = pytest.StashKey[State]()


def pytest_configure(config: pytest.Config) -> None:
    # A malformed case file is a collection error for that file; the checks of every other file still run.
    config.option.continue_on_collection_errors = True
    state = config.stash[_STATE] = State(config)
    config.pluginmanager.register(state, "conformance-state")


def pytest_unconfigure(config: pytest.Config) -> None:
    if _STATE in config.stash:
        config.stash[_STATE].close()


def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if module_path.name == ENTRY_MODULE:
        return CaseSuite.from_parent(parent, path=module_path)
    return None


class CaseSuite(pytest.File):
    """Stands for the case directory: one child per YAML file, good or bad."""

    def collect(self) -> Any:
        option = self.config.getoption("cases")
        cases_dir = Path(option) if option else self.config.rootpath / "cases"
        if not cases_dir.is_dir():
            raise CaseFileError(str(cases_dir), None, "case directory not found (see --cases)")
        loaded, errors = load_all(cases_dir, self.config.rootpath)
        _state(self.config).log.use_cases(loaded)
        for path in sorted(set(loaded) | set(errors)):
            name = path.relative_to(cases_dir).as_posix()
            yield CaseFile.from_parent(self, name=name, path=path, cases=loaded.get(path),
                                       error=errors.get(path))
        if self.config.getoption("generated_examples") > 0:
            yield GeneratedChecks.from_parent(self, name="generated", cases_dir=cases_dir)


class CaseFile(pytest.Collector):
    def __init__(self, *, cases: Any, error: CaseFileError | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cases, self.error = cases, error

    def collect(self) -> Any:
        if self.error is not None:
            raise self.error
        state = _state(self.config)
        for case in self.cases:
            if state.modes and case.mode not in state.modes:
                continue
            for ref, backend in state.backends.items():
                checks = [c for c in plan(case, backend, ref, state.dtypes) if state.selected(c)]
                if checks:
                    yield CaseItem.from_parent(self, name=f"{case.id}[{backend.name}]", case=case, backend_ref=ref,
                                               checks=checks)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> Any:
        if isinstance(excinfo.value, CaseFileError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class CheckFailure(Exception):
    pass


class CaseItem(pytest.Item):
    """Every check of one case on one backend (each variant, element type and shape type): one test item.

    Each check keeps its own verdict, record (the results file and the report have a cell per check, with the
    id ``<file>::<case>[<backend>-<variant>-<dtype>]``) and rerun command (``--check``). The item fails if a
    check fails, and its message names each failing check; it is skipped if none of its checks applies, and
    xfails if every check that applies is a known difference. One item per check spent more time in pytest's
    protocol and xdist's messages than in most checks (31,500 items a full run)."""

    def __init__(self, *, case: Case, backend_ref: str, checks: list[Check], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case, self.backend_ref, self.checks = case, backend_ref, checks

    def check_id(self, check: Check) -> str:
        return f"{self.parent.nodeid}::{check.name}"

    def runtest(self) -> None:
        state = _state(self.config)
        backend = state.backends[self.backend_ref]
        unavailable = state.unavailable[self.backend_ref]
        records: list[dict[str, Any]] = []
        outcomes: list[tuple[str, str | None]] = []
        try:
            for check in self.checks:
                record = result_record(check, self.check_id(check), state.versions[self.backend_ref],
                                       rerun_command(self.nodeid, check))
                outcome = self._run(check, record, unavailable)
                outcomes.append(outcome)
                if state.in_xdist_worker:
                    records.append(record)
                else:  # in the results stream at once, so that an interrupted run keeps it
                    state.log.add_check(record)
        finally:
            # The records travel to xdist's controller as JSON text: execnet's own encoding cannot carry an int
            # below -2**31 (a target value of -2**63 is one), and would end the worker with an internal error.
            self.user_properties.append(("conformance", json.dumps(records)))
        failures = [message for outcome, message in outcomes if outcome == "failed"]
        if failures:
            raise CheckFailure("\n".join(failures))
        if unavailable:
            pytest.skip(f"{backend.name}: {unavailable}")
        if all(outcome == "skipped" for outcome, _ in outcomes):
            pytest.skip(outcomes[0][1] or "")
        if all(outcome in ("xfailed", "skipped") for outcome, _ in outcomes):
            pytest.xfail("; ".join(dict.fromkeys(m or "" for o, m in outcomes if o == "xfailed")))

    def _run(self, check: Check, record: dict[str, Any], unavailable: str | None) -> tuple[str, str | None]:
        """One check: its pytest outcome and message, its record filled in."""
        state = _state(self.config)
        if unavailable:
            record.update(verdict=v.SKIPPED, message=unavailable)
            return "skipped", unavailable
        if check.not_applicable:
            record.update(verdict=v.NOT_APPLICABLE, message=check.not_applicable)
            return "skipped", f"not applicable: {check.not_applicable}"
        try:
            run = state.pool.run if state.uncached else state.batcher.runner(check, lambda: state.peers(self))
            outcome, message = execute(check, run, state.known.get(check.backend, []), record, budget=state.budget)
        except Exception as e:  # a bug in the harness: say so in the results, and go on with the other checks
            record.update(verdict=v.ERROR, message=f"harness error: {type(e).__name__}: {e}")
            outcome, message = "failed", f"{record['message']} [{check.name}]\n{traceback.format_exc(limit=-6)}"
        if outcome == "failed":
            message = (f"{check.part}: {message}\n  case: {check.case.file}:{check.case.line} "
                       f"({check.case.spec_ref})\n  rerun: {record['rerun']}")
        return outcome, message

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> Any:
        if isinstance(excinfo.value, (CheckFailure, pytest.xfail.Exception)):
            # the message is the whole story; pytest's traceback of it would parse source files (~0.2 s each)
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.config.rootpath / self.case.file, self.case.line - 1, self.name


class GeneratedChecks(pytest.Collector):
    """One item per backend: a hypothesis search over generated inputs (conformance/generated.py)."""

    def __init__(self, *, cases_dir: Path, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cases_dir = cases_dir

    def collect(self) -> Any:
        state = _state(self.config)
        if state.modes or state.dtypes or state.shard:  # a restricted run: the search is for full runs
            return
        for ref, backend in state.backends.items():
            yield GeneratedItem.from_parent(self, name=f"generated_{backend.name}", backend_ref=ref,
                                            cases_dir=self.cases_dir)


class GeneratedItem(pytest.Item):
    def __init__(self, *, backend_ref: str, cases_dir: Path, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.backend_ref, self.cases_dir = backend_ref, cases_dir

    def runtest(self) -> None:
        state = _state(self.config)
        backend = state.backends[self.backend_ref]
        examples, seed = self.config.getoption("generated_examples"), self.config.getoption("generated_seed")
        record = {"id": self.nodeid, "case": generated.GENERATED, "backend": backend.name,
                  "backend_version": state.versions[self.backend_ref], "variant": "", "dtype": "",
                  "shape_dtype": "", "verdict": v.ERROR, "message": None, "expected": None, "actual": None,
                  "first_diff": None, "known": None, "duration": 0.0,
                  "rerun": f"python -m pytest {self.nodeid} --generated-seed {seed} --generated-examples {examples}",
                  "case_data": generated.case_data(examples, seed)}
        try:
            if state.unavailable[self.backend_ref]:
                record.update(verdict=v.SKIPPED, message=state.unavailable[self.backend_ref])
                pytest.skip(f"{backend.name}: {state.unavailable[self.backend_ref]}")
            start = time.perf_counter()
            try:
                found = generated.search(backend, self.backend_ref, state.pool.run,
                                         state.known.get(backend.name, []), state.versions[self.backend_ref],
                                         examples, seed, state.budget)
            except Exception as e:  # a bug in the harness: say so in the results too, then let pytest show it
                record["message"] = f"harness error: {type(e).__name__}: {e}"
                raise
            record["duration"] = round(time.perf_counter() - start, 4)
            if found.failure is None:
                record.update(verdict=v.PASS, message=found.summary())
                return
            check, message, failed = found.failure
            path = generated.write_found(self.cases_dir, check, message, seed, examples)
            record.update(verdict=failed["verdict"], actual=failed["actual"], expected=failed["expected"],
                          first_diff=failed["first_diff"],
                          message=f"{message}; shrunk from {found.summary()}; written to {path}")
            raise CheckFailure(f"{message}\n  a generated input no known difference explains, shrunk and written "
                               f"to {path}\n  traits of the input: {', '.join(traits.of(check.case)) or 'none'}\n"
                               f"  {found.summary()}")
        finally:
            self.user_properties.append(("conformance", json.dumps([record])))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> Any:
        if isinstance(excinfo.value, CheckFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return Path(generated.__file__), 0, self.name
