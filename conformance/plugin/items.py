"""What pytest collects: the case directory, each case file, and one test item per case and backend (every check
of that case on that backend), plus one item per backend for the generated checks."""

from __future__ import annotations

import json
import shlex
import time
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance import verdicts as v
from conformance.cases import (
    Case,
    CaseFileError,
    display_name,
    is_case_file,
    linked_directory,
    load_file,
    unreadable_directory,
)
from conformance.judge import judge
from conformance.known import Facts
from conformance.known.near import describe, nearest
from conformance.plugin.state import State
from conformance.plugin.terminal_text import safe
from conformance.results.record import CaseRecord, CheckRecord
from conformance.run import generated
from conformance.run.execute import execute, fill, record_for
from conformance.run.paths import Axis
from conformance.run.plan import Check, plan

STATE = pytest.StashKey[State]()


def state_of(config: pytest.Config) -> State:
    return config.stash[STATE]


def rerun_command(nodeid: str, check: Check | None = None, target: Axis | None = None) -> str:
    """The command that reruns the test item ``nodeid``, or just one of its checks (with the option that adds its
    device or execution provider, ``target`` being its backend's target axis, where that is not the default)."""
    only = f" --check {shlex.quote(check.part)}" if check is not None else ""
    value = dict(check.path or ()).get(target.name) if check is not None and target is not None else None
    if target is not None and value is not None and value != target.default:
        only = f" --{target.name} {shlex.quote(value)}{only}"
    return f"python3 -m pytest -p conformance.plugin {shlex.quote(nodeid)}{only}"


class _NamesItsProblem:
    """A collector whose CaseFileError is the whole story: file, line and what, as one line."""

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, CaseFileError):
            return safe(str(excinfo.value))
        # pytest.Collector.repr_failure takes no style (it picks the traceback style itself); pytest asks a
        # collector with excinfo only, so style is always None here.
        return super().repr_failure(excinfo)  # type: ignore[misc]


class CasesDir(_NamesItsProblem, pytest.Directory):
    """The case directory or a folder in it: its files and folders in name order (as pytest.Dir collects them),
    then, in the case directory itself, the generated checks. What cannot be read is a collection error naming
    it (conformance.cases.scan says the same for the other readers of the directory), and the rest still runs."""

    def collect(self) -> Iterator[pytest.Item | pytest.Collector]:
        ihook = self.ihook
        try:
            entries = sorted(self.path.iterdir())
        except OSError as e:
            raise unreadable_directory(display_name(self.path, self.config.rootpath), e) from None
        for entry in entries:
            if not self.session.isinitpath(entry, with_parents=entry.is_dir()) and \
                    ihook.pytest_ignore_collect(collection_path=entry, config=self.config):
                continue
            if entry.is_dir() and entry.is_symlink():
                yield Unreadable.from_parent(self, path=entry,
                                             error=linked_directory(display_name(entry, self.config.rootpath)))
            elif entry.is_dir():
                yield CasesDir.from_parent(self, path=entry)
            elif is_case_file(entry):  # a FIFO or a link to nothing too: reading it says what it is
                yield from ihook.pytest_collect_file(file_path=entry, parent=self)
        if self.path == state_of(self.config).cases_dir and self.config.getoption("generated_examples") > 0:
            yield GeneratedChecks.from_parent(self, name="generated")


class Unreadable(_NamesItsProblem, pytest.File):
    """Something in the case directory the suite will not read: its collection error."""

    def __init__(self, *, error: CaseFileError, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.error = error

    def collect(self) -> Iterator[pytest.Item]:
        raise self.error


class CaseFile(_NamesItsProblem, pytest.File):
    """One YAML file of cases: a collection error names its file and line; the other files still run."""

    def collect(self) -> Iterator[CaseItem]:
        state = state_of(self.config)
        cases = load_file(self.path, self.config.rootpath)
        for case in cases:
            first = state.seen_cases.get(case.id)
            if first is not None and first is not case:
                raise CaseFileError(case.file, case.line, f"duplicate case id {case.id!r}: first defined at "
                                                          f"{first.file}:{first.line}")
        for case in cases:
            state.seen_cases.setdefault(case.id, case)
        for case in cases:
            if not state.wants(case):
                continue
            for ref, backend in state.backends.items():
                checks = [c for c in plan(case, backend, ref, state.dtypes, state.selection, state.every_path,
                                          state.type_extras(ref)) if state.selected(c)]
                if checks:
                    yield CaseItem.from_parent(self, name=f"{case.id}[{backend.name}]", case=case, backend_ref=ref,
                                               checks=checks)


class CheckFailure(Exception):
    pass


def _payload(case: CaseRecord, case_id: str, records: list[CheckRecord]) -> str:
    # The records travel to xdist's controller as JSON text: execnet's own encoding cannot carry an int below
    # -2**31 (a target value of -2**63 is one), and would end the worker with an internal error.
    return json.dumps({"cases": {case_id: case.to_json()},
                       "checks": [r.to_json() for r in records]})


class CaseItem(pytest.Item):
    """Every check of one case on one backend (each path, element type and shape type): one test item.

    Each check keeps its own verdict, record (the results file and the report have a cell per check, with the
    id ``<file>::<case>[<backend>-<path>-<dtype>]``) and rerun command (``--check``). The item's pytest outcome
    follows from its checks' verdicts (conformance.verdicts.PYTEST_OUTCOME): it fails if a check fails, and its
    message names each failing check; it is skipped if none of its checks applies, and xfails if every check
    that applies is a known difference. One item per check spent more time in pytest's protocol and xdist's
    messages than in most checks (31,500 items a full run)."""

    def __init__(self, *, case: Case, backend_ref: str, checks: list[Check], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case, self.backend_ref, self.checks = case, backend_ref, checks

    def check_id(self, check: Check) -> str:
        assert self.parent is not None
        return f"{self.parent.nodeid}::{check.name}"

    def runtest(self) -> None:
        state = state_of(self.config)
        records: list[CheckRecord] = []
        case_record = CaseRecord.from_json(self.case.to_json())
        target = state.backends[self.backend_ref].target_axis()
        try:
            for check in self.checks:
                record = self._run(check, record_for(check, self.check_id(check), state.versions[self.backend_ref],
                                                     rerun_command(self.nodeid, check, target)))
                records.append(record)
                if not state.in_xdist_worker:  # in the results stream at once, so that an interrupted run keeps it
                    state.log.add_case(self.case.id, case_record.to_json())
                    state.log.add_check(record.to_json())
        finally:
            if state.in_xdist_worker:
                self.user_properties.append(("conformance", _payload(case_record, self.case.id, records)))
        outcomes = [v.PYTEST_OUTCOME[r.verdict] for r in records]
        failures = [self._failure(c, r) for c, r in zip(self.checks, records, strict=True)
                    if v.PYTEST_OUTCOME[r.verdict] == "failed"]
        if failures:
            raise CheckFailure("\n".join(failures))
        if all(o == "skipped" for o in outcomes):
            pytest.skip(safe(records[0].message or ""))
        if all(o in ("xfailed", "skipped") for o in outcomes):
            pytest.xfail(safe("; ".join(dict.fromkeys(r.message or "" for r in records if r.verdict == v.KNOWN))))

    def _run(self, check: Check, record: CheckRecord) -> CheckRecord:
        """One check, judged, into its record."""
        state = state_of(self.config)
        unavailable = state.unavailable[self.backend_ref]
        if unavailable or check.not_applicable:
            skipped = f"{state.backends[self.backend_ref].name}: {unavailable}" if unavailable else None
            return fill(record, judge(None, None, skipped=skipped, not_applicable=check.not_applicable))
        try:
            return execute(check, state.runner(self), state.known.get(check.backend, []), record, state.budget)
        except Exception as e:  # a bug in the harness: say so in the results, and go on with the other checks
            fill(record, judge(None, None, harness_error=f"{type(e).__name__}: {e}"))
            record.message = f"{record.message}\n{traceback.format_exc(limit=-6)}"
            return record

    def _failure(self, check: Check, record: CheckRecord) -> str:
        near = "".join(f"\n  {describe(n)}" for n in record.looks_like or ())
        return (f"{check.part}: {record.verdict}: {record.message} {check.context()}{near}\n"
                f"  case: {check.case.file}:{check.case.line} ({check.case.spec_ref})\n  rerun: {record.rerun}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, (CheckFailure, pytest.xfail.Exception)):
            # the message is the whole story; pytest's traceback of it would parse source files (~0.2 s each)
            return safe(str(excinfo.value))
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.config.rootpath / self.case.file, self.case.line - 1, self.name


class GeneratedChecks(pytest.Collector):
    """One item per backend: a hypothesis search over generated inputs (conformance/run/generated.py)."""

    def collect(self) -> Iterator[GeneratedItem]:
        state = state_of(self.config)
        if state.ops or state.modes or state.dtypes or state.shard or state.selection:
            return  # a restricted run: the search is for full runs
        for ref, backend in state.backends.items():
            yield GeneratedItem.from_parent(self, name=f"generated_{backend.name}", backend_ref=ref)


class GeneratedItem(pytest.Item):
    def __init__(self, *, backend_ref: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.backend_ref = backend_ref

    def runtest(self) -> None:
        state = state_of(self.config)
        backend = state.backends[self.backend_ref]
        examples, seed = self.config.getoption("generated_examples"), self.config.getoption("generated_seed")
        record = CheckRecord(id=self.nodeid, case=generated.GENERATED, backend=backend.name,
                             backend_version=state.versions[self.backend_ref], verdict=v.ERROR,
                             rerun=f"python3 -m pytest -p conformance.plugin {shlex.quote(self.nodeid)} "
                                   f"--generated-seed {seed} --generated-examples {examples}")
        try:
            if state.unavailable[self.backend_ref]:
                record.verdict, record.message = v.SKIPPED, state.unavailable[self.backend_ref]
                pytest.skip(f"{backend.name}: {state.unavailable[self.backend_ref]}")
            start = time.perf_counter()
            try:
                found = generated.search(backend, self.backend_ref, state.runner_alone(),
                                         state.known.get(backend.name, []), state.versions[self.backend_ref],
                                         examples, seed, state.budget)
            except Exception as e:  # a bug in the harness: say so in the results too, then let pytest show it
                record.message = f"harness error: {type(e).__name__}: {e}"
                raise
            record.duration = round(time.perf_counter() - start, 4)
            if found.failure is None:
                record.verdict, record.message = v.PASS, found.summary()
                return
            check, drawn, failed = found.failure
            message = failed.message or failed.verdict
            path = generated.write_found(state.cases_dir, check, drawn, message, seed, examples)
            record.verdict, record.actual, record.expected = failed.verdict, failed.actual, failed.expected
            record.first_diff = failed.first_diff
            record.message = f"{message}; shrunk from {found.summary()}; written to {path}"
            # a generated input is explained by its traits: the entry it nearly meets is most likely its bug
            record.looks_like = nearest(state.known.get(backend.name, []), Facts(
                check.case, check.dtype or "", check.shape_dtype, check.path or (), check.variant,
                record.backend_version), failed.verdict) or None
            near = "".join(f"\n  {describe(n)}" for n in record.looks_like or ())
            traits = ", ".join(check.case.spec.traits_of(check.case.params)) or "none"
            raise CheckFailure(f"{message} {check.context()}\n  a generated input no known difference explains, "
                               f"shrunk and written to {path}\n  traits of the input: {traits}{near}\n  "
                               f"{found.summary()}")
        finally:
            case = generated.case_record(examples, seed)
            if state.in_xdist_worker:
                self.user_properties.append(("conformance", _payload(case, generated.GENERATED, [record])))
            else:
                state.log.add_case(generated.GENERATED, case.to_json())
                state.log.add_check(record.to_json())

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, CheckFailure):
            return safe(str(excinfo.value))
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return Path(generated.__file__), 0, self.name
