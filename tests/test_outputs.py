"""The output files' life (conformance/results/outputs.py): the new results file and report go into place
together, an interrupt can come before or after the pair, never between."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from conformance.results import outputs


def test_an_interrupt_while_the_report_renders_puts_neither_file_in_place(tmp_path: Path) -> None:
    """Ctrl-C while the report is rendered: no new results file beside an old report (nor the other way round),
    and no temporary file left."""
    results, report = tmp_path / "results.json", tmp_path / "index.html"
    report.write_text("the last run's report")

    def interrupted() -> str:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        outputs.commit([(results, lambda: "new results"), (report, interrupted)])
    assert not results.exists() and report.read_text() == "the last run's report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.html"]


def test_a_signal_while_the_pair_goes_into_place_waits_until_both_are(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGINT arriving between the two renames is held until the second is done."""
    results, report = tmp_path / "results.json", tmp_path / "index.html"
    replace = os.replace
    seen: list[bool] = []

    def replace_then_interrupt(src: str, dst: Path) -> None:
        replace(src, dst)
        if dst == results:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C right after the results file is in place
        seen.append(report.exists())

    monkeypatch.setattr(os, "replace", replace_then_interrupt)
    # Ctrl-C as in the harness's process (an xdist worker running this test may ignore it)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    with pytest.raises(KeyboardInterrupt):
        try:
            outputs.commit([(results, lambda: "new results"), (report, lambda: "new report")])
        finally:
            signal.signal(signal.SIGINT, previous)
    assert results.read_text() == "new results" and report.read_text() == "new report"
    assert seen == [False, True]  # the interrupt came after both renames, not between them


def test_a_file_that_cannot_be_written_costs_only_itself(tmp_path: Path) -> None:
    results, report = tmp_path / "results.json", tmp_path / "index.html"
    (tmp_path / "blocked").write_text("a file where a folder should be")
    written, failed = outputs.commit([(tmp_path / "blocked" / "results.json", lambda: "x"), (report, lambda: "page")])
    assert written == [report] and report.read_text() == "page"
    assert failed == {tmp_path / "blocked" / "results.json": "File exists"}, failed  # mkdir of its folder
    assert not results.exists()


def test_the_last_runs_pair_moves_aside(tmp_path: Path) -> None:
    (tmp_path / "results.json").write_text("old results")
    moved = outputs.move_aside([tmp_path / "results.json", tmp_path / "index.html"])
    assert moved == [tmp_path / "results.json"]
    assert (tmp_path / "results.previous.json").read_text() == "old results"
