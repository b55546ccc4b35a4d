"""A conformance run's state in one pytest process: the backends, known differences, worker pool and batcher,
and the hooks that see every report (the xdist controller, or the only process, writes the results)."""

from __future__ import annotations

import json
import re
import signal
from collections.abc import Iterable, Iterator
from fnmatch import fnmatchcase
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from conformance import known as known_mod
from conformance.backends import BUILTIN, Backend, BackendNotFound, load
from conformance.cases import CaseFileError, case_files, load_file
from conformance.plugin import options
from conformance.plugin.options import parse_shard, shard_of
from conformance.plugin.terminal_text import safe
from conformance.results.run_log import RunLog
from conformance.run import paths
from conformance.run.batching import Alone, Batcher
from conformance.run.execute import Runner
from conformance.run.isolation import WorkerPool
from conformance.run.plan import Check, type_coverage

if TYPE_CHECKING:
    from conformance.plugin.items import CaseItem

LOOKAHEAD = 16  # test items whose checks may join a batch (conformance/run/batching.py)


def _terminate(session: pytest.Session, log: RunLog) -> None:
    """SIGTERM ends the run after the item in progress: the results so far are written, marked incomplete.
    (A flag, not an exception thrown into whatever code runs: that could leave the worker pool's locks held.)
    In an xdist worker the flag ends its loop after the item, and xdist tells the controller; in the controller
    xdist's own flag (DSession.shouldstop) shuts the workers down, as when one of them stops. A second SIGTERM
    does not wait."""
    log.interrupted = True
    if session.shouldstop:
        raise KeyboardInterrupt("SIGTERM, twice")
    session.shouldstop = "terminated by SIGTERM"
    dsession = session.config.pluginmanager.getplugin("dsession")
    if dsession is not None:
        dsession.shouldstop = "terminated by SIGTERM"


# The options that add values to a backend's target axis (Backend.target): option -> the axis it adds to.
TARGET_OPTIONS = {"device": "device", "provider": "provider"}


def add_targets(config: pytest.Config, backends: Iterable[Backend]) -> None:
    """--device and --provider: their values added to the target axis of each backend of the run that has it."""
    backends = list(backends)
    for option, axis_name in TARGET_OPTIONS.items():
        values = config.getoption(option)
        if not values:
            continue
        takers = [b for b in backends if (axis := b.target_axis()) is not None and axis.name == axis_name]
        if not takers:
            having = sorted(b.name for b in backends if b.target_axis() is not None)
            raise pytest.UsageError(f"--{option} {values[0]}: no backend of this run has a {axis_name} to choose "
                                    f"({', '.join(having) + ' choose another axis' if having else 'none chooses one'}; "
                                    f"--list-paths shows each backend's axes)")
        for backend in takers:
            backend.add_targets(values)


class State:
    """Per-process state of a conformance run."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        refs = config.getoption("backend") or list(BUILTIN)
        try:
            self.backends: dict[str, Backend] = {ref: load(ref) for ref in refs}
            self.selection = paths.parse_selection(config.getoption("path") or ())
        except (BackendNotFound, TypeError, ValueError) as e:
            raise pytest.UsageError(str(e)) from e
        add_targets(config, self.backends.values())
        named: dict[str, str] = {}
        for ref, backend in self.backends.items():  # results, known differences and the report go by name
            if backend.name in named:
                raise pytest.UsageError(f"backends {named[backend.name]} and {ref} are both named {backend.name!r}: "
                                        f"give a plug-in a name of its own (its class attribute `name`)")
            named[backend.name] = ref
        options.validate(config, set(named))
        modes, op_names = config.getoption("mode"), config.getoption("op")
        self.modes = set(modes) if modes else None
        self.ops = set(op_names) if op_names else None
        dtypes = config.getoption("dtype")
        self.dtypes = tuple(dtypes) if dtypes else None
        # asked once: importlib.metadata reads files each time, which cost more than a check
        self.versions = {ref: b.version() for ref, b in self.backends.items()}
        self.unavailable = {ref: b.unavailable() for ref, b in self.backends.items()}
        hardware = {b.name: b.hardware() for ref, b in self.backends.items() if not self.unavailable[ref]}
        try:
            loaded = known_mod.load([Path(p) for p in config.getoption("known")])
        except ValueError as e:
            raise pytest.UsageError(f"known differences: {e}") from e
        self.known = known_mod.on_hardware(loaded, hardware)
        self.shard = parse_shard(config.getoption("shard"))
        self.uncached = config.getoption("uncached")
        self.every_path = config.getoption("paths") == "all"
        self.budget = int(config.getoption("output_budget") * 2**20)
        self.only = tuple(config.getoption("check") or ())
        option = config.getoption("cases")
        self.cases_dir = (Path(option) if option else config.rootpath / "cases").resolve()
        self.seen_cases: dict[str, Any] = {}  # case id -> the Case collected first (duplicates name both)
        self._type_extras: dict[str, Any] = {}  # backend_ref -> plan.type_coverage over every case of the run
        self.upcoming: dict[str, list[CaseItem]] = {}  # backend_ref -> its items this process runs, in order
        self.position: dict[str, int] = {}  # item nodeid -> its place there
        self.in_xdist_worker = hasattr(config, "workerinput")
        self.deselected = False
        self._pool: WorkerPool | None = None
        self._batcher: Batcher | None = None
        self.log = RunLog(config, self.backends, self.known, options.part_of_the_suite(config, self.cases_dir))
        if not self.in_xdist_worker:
            self.log.claim_outputs()

    @property
    def pool(self) -> WorkerPool:
        if self._pool is None:
            memory = int(self.config.getoption("worker_memory") * 2**20)
            preload = tuple(dict.fromkeys(m for b in self.backends.values() for m in b.preload))
            self._pool = WorkerPool(timeout=self.config.getoption("check_timeout"), memory_limit=memory or None,
                                    preload=preload)
        return self._pool

    def runner(self, item: CaseItem) -> Runner:
        if self.uncached:
            return Alone(self.pool)
        if self._batcher is None:
            known = {b.name: self.known.get(b.name, []) for b in self.backends.values()}
            self._batcher = Batcher(self.pool, known, self.versions, self.budget)
        return self._batcher.runner(lambda: self.peers(item))

    def runner_alone(self) -> Runner:
        return Alone(self.pool)

    def peers(self, item: CaseItem) -> Iterator[Check]:
        """The checks of an item, then those of the next items of its backend (for the Batcher). Under xdist
        another process may run some of those: the outcomes computed for them here are then not used."""
        yield from item.checks
        items = self.upcoming.get(item.backend_ref, [])
        at = self.position.get(item.nodeid, len(items))
        for following in items[at + 1: at + 1 + LOOKAHEAD]:
            yield from following.checks

    def type_extras(self, ref: str) -> Any:
        """The element types a backend's sampled paths take besides their own (conformance/run/plan.py
        ``type_coverage``), over every case the run's case files hold in the run's modes (before sharding); a file
        that cannot be read is left out here (its collection reports it)."""
        if self.every_path:
            return None
        if ref not in self._type_extras:
            cases = []
            for path in case_files(self.cases_dir):
                try:
                    cases += load_file(path, self.config.rootpath)
                except CaseFileError:
                    continue
            cases = [c for c in cases if self.wants(c)]
            self._type_extras[ref] = type_coverage(cases, self.backends[ref], self.dtypes)
        return self._type_extras[ref]

    def wants(self, case: Any) -> bool:
        """The case is of an op and a mode the run takes (--op, --mode: a mode is Broadcast's)."""
        return (not self.ops or case.op in self.ops) and \
            (not self.modes or getattr(case.params, "mode", None) in self.modes)

    def selected(self, check: Check) -> bool:
        return not self.only or any(fnmatchcase(check.part, p) for p in self.only)

    def restricted(self) -> bool:
        """Some checks of the suite were left out: a known difference matching none of those that ran is no news."""
        return self.deselected or options.leaves_checks_out(self.config, self.cases_dir)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()

    # Hooks, registered as a plugin object: the controller (or the only process) sees every report.
    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed and not self.in_xdist_worker:  # xdist hands a worker's failed collection to the controller
            text = str(report.longrepr)
            m = re.match(r"(?P<file>[^\n]+?):(?P<line>\d+): (?P<message>.*)", text, re.S)
            if m:
                error = {"file": m["file"], "line": int(m["line"]), "message": m["message"]}
            else:  # a problem of a whole file or folder (CaseFileError without a line) names it first
                message = text.removeprefix(f"{report.nodeid}: ")
                error = {"file": report.nodeid, "line": None, "message": message}
            self.log.add_collection_error(error)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if self.in_xdist_worker:  # its reports reach the controller, which records them; a worker writes nothing
            return
        payload = dict(report.user_properties).get("conformance")
        if payload is None and report.failed:  # no check came back: a crashed worker (xdist), an error of ours
            text = report.longreprtext.strip()
            self.log.add_failed_item({"item": report.nodeid, "when": report.when or "",
                                      "message": text if len(text) <= 4000 else "…" + text[-4000:]})
        if payload is not None and report.when == "call":
            data = json.loads(str(payload))
            for case_id, case in data["cases"].items():
                self.log.add_case(case_id, case)
            for record in data["checks"]:
                self.log.add_check(record)

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        self.deselected = self.deselected or bool(items)

    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        from conformance.plugin.items import CaseItem

        if self.shard is None:
            return
        k, n = self.shard
        keep: list[pytest.Item] = []
        drop: list[pytest.Item] = []
        for item in items:
            in_shard = not isinstance(item, CaseItem) or shard_of(item.case.id, n) == k
            (keep if in_shard else drop).append(item)
        if drop:
            config.hook.pytest_deselected(items=drop)
            items[:] = keep

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        from conformance.plugin.items import CaseItem

        for item in session.items:
            if isinstance(item, CaseItem):
                items = self.upcoming.setdefault(item.backend_ref, [])
                self.position[item.nodeid] = len(items)
                items.append(item)

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        # every pytest process, xdist's workers too: SIGTERM to the process group reaches them all (the check
        # workers and their forkserver are in a group of their own, conformance/run/isolation.py)
        signal.signal(signal.SIGTERM, lambda signum, frame: _terminate(session, self.log))
        if not self.in_xdist_worker:
            self.log.start()
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not where Ctrl-C is ignored
                signal.signal(signal.SIGINT, self._interrupted)

    def _interrupted(self, signum: int, frame: Any) -> None:
        """Ctrl-C: noted before anything else, then the KeyboardInterrupt pytest expects. A second Ctrl-C can
        land in pytest's handling of the first, before it records the run as interrupted: the note still says
        so, and the results are never marked complete."""
        self.log.interrupted = True
        signal.default_int_handler(signum, frame)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if not self.in_xdist_worker:  # an xdist worker: the controller writes the results
            self.log.finish(session, restricted=self.restricted())

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.in_xdist_worker:
            for line in self.log.summary_lines():
                terminalreporter.write_line(safe(line))
