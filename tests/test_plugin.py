"""The pytest plugin end to end, in a separate pytest process per test (pytester), on small case files."""

from __future__ import annotations

import html
import json
import os
import shlex
from pathlib import Path

import pytest

from tests import builders

ROOT = Path(__file__).resolve().parents[1]

CASES = """\
group: rule
cases:
  - id: small_numpy
    mode: numpy
    data_shape: [3]
    target_shape: [2, 3]
    expect: {shape: [2, 3]}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
    dtypes: [f32, i8]
  - id: small_rank2
    mode: numpy
    data_shape: [4, 4]
    target_shape: [2, 4, 4]
    expect: {shape: [2, 4, 4]}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
    dtypes: [f32, i8]
  - id: small_reject
    mode: numpy
    data_shape: [3]
    target_shape: [2]
    expect: {reject: numpy_dim}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
"""

BROKEN = """\
group: rule
cases:
  - id: broken_case
    mode: numpy
    data_shape: [3]
    target_shape: [2, 3]
    expect: {shape: [2, 3]}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
    colour: blue
"""


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    return builders.project(pytester, monkeypatch, CASES)


def run(project: pytest.Pytester, *args: str) -> tuple[pytest.RunResult, dict]:
    result = project.runpytest_subprocess("-p", "conformance.plugin", "-p", "no:cacheprovider",
                                          "--generated-examples", "0", "--results", "out/results.json",
                                          "--report", "out/index.html", *args)
    path = project.path / "out" / "results.json"
    return result, (json.loads(path.read_text()) if path.exists() else {})


def verdicts(results: dict) -> dict[str, str]:
    return {c["id"].split("::")[-1]: c["verdict"] for c in results["checks"]}


def test_a_crashing_backend_costs_only_its_checks(project):
    result, data = run(project, "--backend", "local", "--backend", "tests.fake_backends:CrashOnSecondAxisBackend")
    got = verdicts(data)
    crashed = {name for name, verdict in got.items() if verdict == "crash"}
    assert crashed == {f"small_rank2[crash-rank2-{v}-{d}]" for v in ("v1", "v3") for d in ("f32", "i8")}
    assert all(verdict == "pass" for name, verdict in got.items() if name not in crashed)
    # every check of the plan is in the results: 2 backends x 2 variants x (2 + 2 + 1 dtypes)
    assert len(got) == 20
    # one test item per case and backend: the crashing backend's small_rank2 fails, naming each of its checks
    result.assert_outcomes(passed=5, failed=1)
    for v, d in [("v1", "f32"), ("v1", "i8"), ("v3", "f32"), ("v3", "i8")]:
        result.stdout.fnmatch_lines([f"crash-rank2-{v}-{d}: crash: worker died: signal 11 (SIGSEGV)*",
                                     "*rerun: python3 -m pytest -p conformance.plugin "
                                     f"'cases/small.yaml::small_rank2[[]crash-rank2[]]' --check "
                                     f"crash-rank2-{v}-{d}"])
    html = (project.path / "out" / "index.html").read_text()
    assert "small_rank2" in html and "signal 11 (SIGSEGV)" in html


def test_a_malformed_file_is_a_collection_error_and_the_rest_runs(project):
    (project.path / "cases" / "broken.yaml").write_text(BROKEN)
    result, data = run(project, "--backend", "local")
    result.stdout.fnmatch_lines(["*broken.yaml:3: cases/0: Additional properties are not allowed ('colour'*"])
    assert len(data["checks"]) == 10 and set(verdicts(data).values()) == {"pass"}
    assert data["collection_errors"][0]["file"] == "cases/broken.yaml"
    assert data["collection_errors"][0]["line"] == 3


LOCKED = """\
import os

_scandir, _listdir = os.scandir, os.listdir


def _refuse(path):
    if not isinstance(path, int) and os.fspath(path).endswith("locked"):
        raise PermissionError(13, "Permission denied", os.fspath(path))


def scandir(path="."):
    _refuse(path)
    return _scandir(path)


def listdir(path="."):
    _refuse(path)
    return _listdir(path)


os.scandir, os.listdir = scandir, listdir
"""


def test_what_the_case_directory_cannot_give_is_named_and_the_rest_runs(project):
    """A folder the system will not list (as root nothing is refused, so a plug-in refuses it), a link to a folder,
    a FIFO, a link to nothing and a file over the size limit (sparse: 3 GB, checked before reading): each a
    collection error naming it; an upper-case suffix and a link to a case file elsewhere are read."""
    cases = project.path / "cases"
    (cases / "locked").mkdir()
    (cases / "locked" / "hidden.yaml").write_text(CASES.replace("small_", "hidden_"))
    elsewhere = project.path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "shared.yaml").write_text(CASES.split("  - id: small_rank2")[0].replace("small_", "shared_"))
    (cases / "folder_link").symlink_to(elsewhere, target_is_directory=True)
    (cases / "file_link.yaml").symlink_to(elsewhere / "shared.yaml")
    (cases / "SHOUTED.YAML").write_text(CASES.split("  - id: small_rank2")[0].replace("small_", "shouted_"))
    os.mkfifo(cases / "pipe.yaml")
    (cases / "nothing.yaml").symlink_to(project.path / "no_such_file.yaml")
    with open(cases / "huge.yaml", "wb") as f:
        f.truncate(3 * 2**30)
    (project.path / "lock_folders.py").write_text(LOCKED)
    result, data = run(project, "--backend", "local", "-p", "lock_folders")
    errors = {e["file"]: e["message"] for e in data["collection_errors"]}
    assert errors == {
        "cases/locked": "directory cannot be read: Permission denied; its case files were not run",
        "cases/folder_link": "a symbolic link to a directory: the suite reads the case directory's own folders only "
                             "(a link may lead outside it, or back into it); link the case files themselves, or "
                             "copy them",
        "cases/pipe.yaml": "not a regular file: a case file must be one",
        "cases/nothing.yaml": "cannot be read: No such file or directory",
        "cases/huge.yaml": "file is 3221.2 MB, but a case file may hold at most 1 MB: split it",
    }, errors
    assert {c["case"] for c in data["checks"]} == {"small_numpy", "small_rank2", "small_reject", "shared_numpy",
                                                   "shouted_numpy"}
    assert set(verdicts(data).values()) == {"pass"}
    assert result.ret != 0  # collection errors fail the run


def test_a_duplicate_id_names_both_places(project):
    (project.path / "cases" / "zz_dup.yaml").write_text(CASES.split("  - id: small_rank2")[0])
    result, data = run(project, "--backend", "local")
    result.stdout.fnmatch_lines(["*zz_dup.yaml:3: duplicate case id 'small_numpy': first defined at "
                                 "cases/small.yaml:3*"])
    assert len(data["checks"]) == 10


def test_known_differences_are_strict(project):
    known = project.path / "zeroflip.yaml"
    known.write_text("""\
- id: signed-zero-lost
  match: {dtype: [f32]}
  inputs: [valid, negative_zero_in_data]
  verdict: wrong_values
  reason: copies -0.0 as +0.0
  reproducer: "backend.run(data=[-0.0])"
- id: stale
  match: {dtype: i8}
  verdict: wrong_values
  reason: i8 was once broken
  link: https://example.invalid/issue/1
- id: never-matches
  match: {case: no_such_case}
  cases_why: a case no file holds
  verdict: crash
  reason: nothing
  link: https://example.invalid/issue/2
""")
    result, data = run(project, "--backend", "tests.fake_backends:ZeroFlipBackend", "--known", str(known),
                       "--generated-examples", "60")
    got = verdicts(data)
    # three elements hold three special values, which ones the case picks (small_numpy's: no -0.0); sixteen hold all
    assert got["small_numpy[zeroflip-v3-f32]"] == "pass"
    assert got["small_rank2[zeroflip-v3-f32]"] == "known_difference"
    # the i8 entry no longer reproduces: the check fails and says to update the entry
    assert got["small_numpy[zeroflip-v3-i8]"] == "error"
    result.stdout.fnmatch_lines(["*known difference stale * expects wrong_values, but the check gave pass*",
                                 "*known difference never-matches * matched no check*"])
    assert [u["entry"]["id"] for u in data["unmatched_known"]] == ["never-matches"]
    # two variants (v1, v3): 2 cases x f32 known, 2 cases x i8 stale (both items fail), the rejection passes; the
    # generated item fails too: its draws take every element type, i8 among them, and meet the stale entry
    result.assert_outcomes(failed=3, passed=1)
    result.stdout.fnmatch_lines(["*generated_zeroflip*known difference stale*"])


def test_a_new_failure_names_the_known_entry_it_looks_like(project):
    """The entry holds for f64 only: the f32 check that loses -0.0 is a new failure, which differs from it in the
    dtype alone; the record, the pytest message and the report's data say which entry and which condition."""
    known = project.path / "zeroflip.yaml"
    known.write_text("""\
- id: signed-zero-lost-f64
  match: {dtype: f64}
  inputs: [valid, negative_zero_in_data]
  verdict: wrong_values
  reason: copies -0.0 as +0.0
  link: https://example.invalid/issue/3
""")
    result, data = run(project, "--backend", "tests.fake_backends:ZeroFlipBackend", "--known", str(known),
                       "-k", "small_rank2")
    failed = {c["id"].split("::")[-1]: c for c in data["checks"] if c["verdict"] == "wrong_values"}
    assert set(failed) == {"small_rank2[zeroflip-v1-f32]", "small_rank2[zeroflip-v3-f32]"}
    [near] = failed["small_rank2[zeroflip-v3-f32]"]["looks_like"]
    assert {k: near[k] for k in ("id", "differs_in", "entry", "check", "verdict")} == {
        "id": "signed-zero-lost-f64", "differs_in": "dtype", "entry": "f64", "check": "f32", "verdict": "wrong_values"}
    assert near["where"].endswith("zeroflip.yaml:1")
    passed = next(c for c in data["checks"] if c["verdict"] == "pass")
    assert "looks_like" not in passed  # asked of failing checks only
    result.stdout.fnmatch_lines(["*v3-f32: wrong_values: out*",
                                 "*looks like signed-zero-lost-f64 (differs in: dtype: the entry asks f64, the check "
                                 "has f32; *zeroflip.yaml:1)*"])
    page = (project.path / "out" / "index.html").read_text()  # the page's data, which its script draws as text
    assert '"signed-zero-lost-f64"' in page and '"dtype: the entry asks f64, the check has f32"' in page


def test_a_generated_failure_names_the_known_entry_it_looks_like(project):
    """A generated input is explained by its traits alone: the entry it misses by one condition is most likely its
    bug. ZeroFlip (version 0.1.0) copies -0.0 as +0.0; the entry says so for its releases 9.x only."""
    known = project.path / "zeroflip.yaml"
    known.write_text("""\
- id: signed-zero-lost-in-9
  match: {version: "9.*"}
  inputs: [valid, negative_zero_in_data]
  verdict: wrong_values
  reason: copies -0.0 as +0.0
  link: https://example.invalid/issue/4
""")
    # as many examples as a default run (one per stratum): 30 cover half the strata, none of whose draws holds -0.0
    result, data = run(project, "--backend", "tests.fake_backends:ZeroFlipBackend", "--known", str(known),
                       "--generated-examples", "60")
    (gen,) = [c for c in data["checks"] if c["case"] == "generated"]
    assert gen["verdict"] == "wrong_values"
    [near] = gen["looks_like"]
    assert (near["id"], near["differs_in"], near["entry"], near["check"]) == (
        "signed-zero-lost-in-9", "version", "9.*", "0.1.0")
    result.stdout.fnmatch_lines(["*traits of the input:*",
                                 "*looks like signed-zero-lost-in-9 (differs in: version: the entry asks 9.*, the "
                                 "check has 0.1.0; *zeroflip.yaml:1)*"])


def test_an_entry_met_only_on_paths_a_default_run_leaves_out_is_not_called_stale(project):
    """A default run takes every pair of axis values of an edge case, not every path: an entry that only a path
    it left out meets is named as such (not "matched no check"), and --paths all matches it; an entry no path
    meets is still stale."""
    (project.path / "cases" / "small.yaml").write_text(CASES.replace("group: rule", "group: edge"))
    known = project.path / "three-axes.yaml"
    known.write_text("""\
- id: v3-b-y-loses-signed-zero
  match: {dtype: f32, path: {op: v3, layout: b, copy: y}}
  inputs: [valid]
  verdict: wrong_values
  reason: adds +0.0 on that path only
  link: https://example.invalid/issue/3
- id: no-such-layout
  match: {path: {layout: c}}
  verdict: wrong_values
  reason: a layout no path has
  link: https://example.invalid/issue/4
""")
    args = ("--backend", "tests.fake_backends:ThreeAxesZeroFlipBackend", "--known", str(known))
    result, data = run(project, *args)
    assert not any("-v3-b-y-" in c["id"] for c in data["checks"])  # the path the pairwise choice leaves out
    assert [u["entry"]["id"] for u in data["unmatched_known"]] == ["no-such-layout"]
    assert data["known_on_other_paths"] == [{"backend": "three-axes", "entry": "v3-b-y-loses-signed-zero"}]
    result.stdout.fnmatch_lines(["*known difference no-such-layout * matched no check*",
                                 "*1 known differences matched no check of this run but are met on paths it leaves "
                                 "out of some cases (--paths all takes them): v3-b-y-loses-signed-zero*"])
    assert "known-on-other-paths" in (project.path / "out" / "index.html").read_text()

    result, data = run(project, *args, "--paths", "all")
    assert {c["known"]["id"] for c in data["checks"] if c.get("known")} == {"v3-b-y-loses-signed-zero"}
    assert [u["entry"]["id"] for u in data["unmatched_known"]] == ["no-such-layout"]
    assert data["known_on_other_paths"] == []


def test_the_results_and_the_page_say_the_command_that_ran(project):
    result, data = run(project, "--backend", "local", "-k", "small_numpy")
    command = data["run"]["command"]
    # runpytest_subprocess runs "<python> -mpytest <args>": the interpreter by its name, the arguments as given
    assert command.startswith("python") and " -mpytest " in command and command.endswith("-k small_numpy")
    assert data["run"]["argv"][-2:] == ["-k", "small_numpy"]
    page = (project.path / "out" / "index.html").read_text()
    assert f"<code>{html.escape(command)}</code>" in page


def test_accepting_an_invalid_input_fails_with_a_rerun_command(project):
    result, data = run(project, "--backend", "tests.fake_backends:AcceptAllBackend")
    assert verdicts(data)["small_reject[acceptall-v3-f32]"] == "accepted_invalid"
    (check,) = [c for c in data["checks"] if c["case"] == "small_reject"]
    item = "cases/small.yaml::small_reject[acceptall]"
    assert check["rerun"] == f"python3 -m pytest -p conformance.plugin '{item}' --check acceptall-v3-f32"
    assert check["id"] == "cases/small.yaml::small_reject[acceptall-v3-f32]"
    rerun = project.runpytest_subprocess("--backend", "tests.fake_backends:AcceptAllBackend", "--results",
                                         "out/rerun.json", "--report", "none", *shlex.split(check["rerun"])[3:])
    rerun.assert_outcomes(failed=1)
    rerun_data = json.loads((project.path / "out" / "rerun.json").read_text())
    assert [c["id"] for c in rerun_data["checks"]] == [check["id"]]


def test_check_selects_checks_within_their_items(project):
    result, data = run(project, "--backend", "local", "--check", "*-v1-i8", "--check", "local-v3-f32")
    assert sorted(verdicts(data)) == ["small_numpy[local-v1-i8]", "small_numpy[local-v3-f32]",
                                      "small_rank2[local-v1-i8]", "small_rank2[local-v3-f32]",
                                      "small_reject[local-v3-f32]"]
    result.assert_outcomes(passed=3)


def test_a_hang_is_a_timeout(project):
    result, data = run(project, "--backend", "tests.fake_backends:HangBackend", "--check-timeout", "1",
                       "-k", "small_numpy", "--dtype", "f32")
    assert verdicts(data) == {"small_numpy[hang-v3-f32]": "timeout"}
    result.stdout.fnmatch_lines(["*timeout: no result after 1 s*"])


def test_not_applicable_is_a_skip_never_a_pass(project):
    result, data = run(project, "--backend", "onnxruntime")
    assert set(verdicts(data).values()) == {"not_applicable"}
    result.assert_outcomes(skipped=3)
    assert "bidirectional rule only" in data["checks"][0]["message"]


def test_options_select_modes_and_dtypes(project):
    _, data = run(project, "--backend", "local", "--dtype", "i8")
    assert {c["dtype"] for c in data["checks"]} == {"i8"} and len(data["checks"]) == 4
    result, data = run(project, "--backend", "local", "--mode", "explicit")  # no case of the mode: nothing runs
    assert len(data["checks"]) == 4  # the last run's results are left as they were
    result.stdout.fnmatch_lines(["*no check ran; the results and report of the last run are left as they were*"])


def test_the_op_option_selects_the_cases_of_an_op(project):
    (project.path / "cases" / "ew.yaml").write_text("""\
group: rule
cases:
  - id: ew_small
    op: elementwise
    shapes: [[2, 3], [3]]
    expect: {shape: [2, 3]}
    spec_ref: "003_38ca088f58e9a6c7.txt#Rules"
""")
    _, data = run(project, "--backend", "local", "--op", "elementwise")
    assert {c["case"] for c in data["checks"]} == {"ew_small"} and data["run"]["part"] is True
    _, data = run(project, "--backend", "local", "--op", "broadcast")
    assert {c["case"] for c in data["checks"]} == {"small_numpy", "small_rank2", "small_reject"}
    _, data = run(project, "--backend", "local", "--mode", "numpy")  # a mode is Broadcast's
    assert "ew_small" not in {c["case"] for c in data["checks"]}


def test_runs_under_xdist(project):
    result, data = run(project, "--backend", "local", "-n", "2")
    assert len(data["checks"]) == 10 and set(verdicts(data).values()) == {"pass"}
    assert data["run"]["complete"] is True


def test_an_item_whose_worker_dies_fails_the_headline_and_is_named(project):
    """An xdist worker killed while running an item sends back no check: the results and the page name the item,
    and the headline says the run failed (it did not test what it claims), while the other items' checks stand."""
    project.makepyfile(kill_worker="""
        import os

        def pytest_runtest_call(item):
            if "small_rank2" in item.nodeid:
                os._exit(9)
    """)
    result, data = run(project, "--backend", "local", "-n", "2", "-p", "kill_worker")
    assert result.ret != 0
    assert [f["item"] for f in data["failed_items"]] == ["cases/small.yaml::small_rank2[local]"]
    assert "crashed" in data["failed_items"][0]["message"]
    assert {c["case"] for c in data["checks"]} == {"small_numpy", "small_reject"}
    page = (project.path / "out" / "index.html").read_text()
    assert "Failed: 1 test item failed with no check recorded." in page
    assert 'id="failed-items"' in page and "small.yaml::small_rank2[local]" in page
    result.stdout.fnmatch_lines(
        ["*conformance: cases/small.yaml::small_rank2[[]local[]] failed and recorded no check*"])


HUGE = """\
group: edge
cases:
  - id: huge_valid
    mode: bidirectional
    data_shape: [3, 1]
    target_shape: [4611686018427387904, 1, 1]
    expect: {shape: [4611686018427387904, 3, 1]}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
    dtypes: [f32]
  - id: big_data_rejected
    mode: numpy
    data_shape: [1048576, 3]
    target_shape: [2]
    expect: {reject: numpy_rank}
    spec_ref: "003_38ca088f58e9a6c7.txt#Examples"
"""


def test_outputs_beyond_the_budget_are_shape_only(project):
    (project.path / "cases" / "small.yaml").write_text(HUGE)
    result, data = run(project, "--backend", "local", "--backend", "onnxruntime", "--output-budget", "1")
    got = verdicts(data)
    assert got["huge_valid[local-v3-f32]"] == "pass" and got["huge_valid[local-expand-f32]"] == "pass"
    assert got["big_data_rejected[local-v3-f32]"] == "pass"
    check = next(c for c in data["checks"] if c["id"].endswith("huge_valid[local-v3-f32]"))
    assert check["message"] == "shape-only check: the declared shape is right"
    assert check["actual"]["declared_shape"] == [4611686018427387904, 3, 1]


def test_an_output_is_judged_by_the_values_it_holds(project):
    """A fully masked array of zeros, and an ndarray subclass whose comparisons say "equal", are the zeros they
    hold: wrong values, not a pass."""
    result, data = run(project, "--backend", "tests.fake_backends:HidingOutputBackend", "-k", "small_numpy")
    got = verdicts(data)
    assert got["small_numpy[hiding-v3-f32]"] == "wrong_values" and got["small_numpy[hiding-v3-i8]"] == "wrong_values"
    assert result.ret == 1


def test_text_from_a_backend_reaches_the_terminal_with_its_control_characters_escaped(project):
    """An error message with escape sequences (clear the screen, set the clipboard) is shown escaped; the results
    keep it as it was."""
    result, data = run(project, "--backend", "tests.fake_backends:EscapingBackend", "-k", "small_numpy",
                       "--dtype", "f32")
    out = result.stdout.str() + result.stderr.str()
    assert not any(c in out for c in "\x1b\x07\x9b")
    assert "rejected at infer: bad\\x1b[2J\\x1b]52;c;cm0gLXJmIH4=\\x07 input\\x9b31m," in result.stdout.str()
    assert {c["actual"]["error"] for c in data["checks"]} == {"bad\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07 input\x9b31m"}


def test_two_backends_of_one_name_are_refused(project):
    """A plug-in named as a built-in backend would run beside it and merge into one column of the report."""
    result, data = run(project, "--backend", "local", "--backend", "tests.fake_backends:ImpostorBackend")
    assert result.ret == pytest.ExitCode.USAGE_ERROR and not data
    result.stderr.fnmatch_lines(["*backends local and tests.fake_backends:ImpostorBackend are both named 'local'*"])


@pytest.mark.parametrize("selects_nothing", [["-k", "no_such_case"], ["--mode", "explicit"]], ids=["k", "mode"])
def test_a_run_that_runs_no_check_keeps_the_last_reports(project, selects_nothing):
    """A typo in -k, or a selection no case has, runs nothing: the last run's results, stream and page stay."""
    run(project, "--backend", "local")
    out = project.path / "out"
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert {"results.json", "results.jsonl", "index.html"} <= set(before)
    result, _ = run(project, "--backend", "local", *selects_nothing)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    result.stdout.fnmatch_lines(["*no check ran; the results and report of the last run are left as they were*"])


@pytest.mark.parametrize(("option", "value", "says"), [
    ("--dtype", "f33", "--dtype f33: no such element type; the suite's are bool, i4*"),
    ("--output-budget", "0", "--output-budget 0: give a positive number of MiB"),  # every check shape-only
    ("--output-budget", "-1", "--output-budget -1: give a positive number of MiB"),
    ("--output-budget", "nan", "--output-budget nan: give a positive number of MiB"),
    ("--check-timeout", "0", "--check-timeout 0: give a positive, finite number of seconds"),
    ("--check-timeout", "-5", "--check-timeout -5: give a positive, finite number of seconds"),
    ("--check-timeout", "inf", "--check-timeout inf: give a positive, finite number of seconds"),
    ("--worker-memory", "10", "--worker-memory 10: give at least 1024 MiB*or 0 for no limit"),
    ("--worker-memory", "-1", "--worker-memory -1: give at least 1024 MiB*"),
    ("--known", "missing/local.yaml", "--known missing/local.yaml: no such file"),
    ("--op", "elementwsie", "--op elementwsie: op 'elementwsie': no built-in op (broadcast, elementwise)*"),
    ("--known", "cases/small.yaml", "--known cases/small.yaml: *no backend of this run is named 'small'*"),
    # the stream is <results>.jsonl: --results x.jsonl made the stream and the results file one file
    ("--results", "out/r.jsonl", "the stream of --results */out/r.jsonl: the same file as --results*"),
    ("--report", "out/results.jsonl", "the stream of --results */out/results.jsonl: the same file as --report*"),
    ("--results", "cases", "--results */cases: a folder; give a file path"),
    ("--report", "/proc/self/no/index.html", "--report /proc/self/no/index.html: cannot be written (*"),
])
def test_option_values_are_checked_before_anything_runs(project, option, value, says):
    """A value that would make every verdict meaningless (everything shape-only, every check timed out or out of
    memory) or a known-differences file that applies to nothing is a usage error that says why."""
    result, data = run(project, "--backend", "local", option, value)
    assert result.ret == pytest.ExitCode.USAGE_ERROR and not data
    result.stderr.fnmatch_lines([f"*{says}*"])


def test_a_backend_that_eats_memory_gets_out_of_memory(project):
    result, data = run(project, "--backend", "tests.fake_backends:HogBackend", "--worker-memory", "1024",
                       "-k", "small_numpy", "--dtype", "f32")
    assert verdicts(data) == {"small_numpy[hog-v3-f32]": "out_of_memory"}
    result.stdout.fnmatch_lines(["*out_of_memory: ran out of memory: MemoryError*"])


def test_collect_only_leaves_the_last_results_and_report_alone(project):
    run(project, "--backend", "local")
    out = project.path / "out"
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert {"results.json", "results.jsonl", "index.html"} <= set(before)
    collected = project.runpytest_subprocess("-p", "conformance.plugin", "-p", "no:cacheprovider", "--collect-only",
                                             "--backend", "local", "--results", "out/results.json",
                                             "--report", "out/index.html")
    collected.stdout.fnmatch_lines(["*collected*"])
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_backends_do_not_share_a_worker(project):
    """A plug-in that patches local_broadcast in its worker process: its own checks fail, the local backend's,
    run in the same pytest process before and after it, all pass."""
    result, data = run(project, "--backend", "local", "--backend", "tests.fake_backends:PatchingBackend",
                       "--backend", "local", "--uncached")
    by_backend: dict[str, set[str]] = {}
    for check in data["checks"]:
        by_backend.setdefault(check["backend"], set()).add(check["verdict"])
    assert by_backend["local"] == {"pass"}
    assert "wrong_values" in by_backend["patching"]


def test_the_terminal_says_what_changed_since_the_compared_run(project):
    """--compare used to show its counts in the page only. A check that fails in a case added since counts as a
    new failure (it counted as 'added', so a run adding 8 failing checks said '0 new failures')."""
    run(project, "--backend", "local")
    old = json.loads((project.path / "out" / "results.json").read_text())
    old["checks"] = [c for c in old["checks"] if c["case"] != "small_rank2"]  # small_rank2: added since
    next(c for c in old["checks"] if c["case"] == "small_numpy")["verdict"] = "wrong_values"  # fixed since
    (project.path / "old.json").write_text(json.dumps(old))
    result, _ = run(project, "--backend", "local", "--backend", "tests.fake_backends:CrashOnSecondAxisBackend",
                    "--compare", "old.json")
    # small_rank2 on the crashing backend: 4 added checks that fail, new failures; on local 4 added that pass
    result.stdout.fnmatch_lines([f"*conformance: since the run of {old['run']['started']} (--compare): "
                                 "4 new failures, 1 fixes, 0 changed, 10 added, 0 removed*"])


def test_a_run_of_part_of_the_suite_compares_only_what_it_ran(project):
    """A -k run compared with the full run called every check it did not select "removed" (75,771 of them)."""
    run(project, "--backend", "local")
    (project.path / "out" / "results.json").rename(project.path / "full.json")
    result, data = run(project, "--backend", "local", "-k", "small_numpy", "--compare", "full.json")
    assert data["run"]["part"] is True and {c["case"] for c in data["checks"]} == {"small_numpy"}
    result.stdout.fnmatch_lines(["*(--compare): 0 new failures, 0 fixes, 0 changed, 0 added, 0 removed*",
                                 "*conformance: 6 checks of the compared run are outside this run of part of the "
                                 "suite: not compared*"])
    page = (project.path / "out" / "index.html").read_text()
    assert "the\n    6 checks of the earlier run that it did not select are outside it" in page
    # a whole run that lost checks calls them removed
    full = json.loads((project.path / "full.json").read_text())
    full["checks"].append({**full["checks"][0], "id": full["checks"][0]["id"] + "-gone", "path": "gone"})
    (project.path / "full.json").write_text(json.dumps(full))
    result, data = run(project, "--backend", "local", "--compare", "full.json")  # one backend: a part too
    assert data["run"]["part"] is True
    result.stdout.fnmatch_lines(["*(--compare): 0 new failures, 0 fixes, 0 changed, 0 added, 0 removed*",
                                 "*conformance: 1 checks of the compared run are outside this run*"])
    result, data = run(project, "--compare", "full.json")  # every backend, every case
    assert data["run"]["part"] is False
    result.stdout.fnmatch_lines(["*(--compare): 0 new failures, 0 fixes, 0 changed, * added, 1 removed*"])


def test_a_run_of_part_of_the_suite_keeps_the_full_runs_page(project):
    """The rerun command a failure prints, a -k or a --backend: each replaced the full run's 9 MB page with its own.
    Unless told where, such a run writes to reports/runs/<time>/ and says so; reports/ keeps the full run."""
    def plain(*args):
        return project.runpytest_subprocess("-p", "conformance.plugin", "-p", "no:cacheprovider",
                                            "--generated-examples", "0", *args)

    full = plain()
    reports = project.path / "reports"
    page = (reports / "index.html").read_bytes()
    assert full.ret == 0 and json.loads((reports / "results.json").read_text())["run"]["complete"] is True
    for args in (["-k", "small_numpy"], ["--backend", "local"], ["cases/small.yaml::small_rank2[local]"]):
        part = plain(*args)
        part.stdout.fnmatch_lines(["*a run of part of the suite writes to reports/runs/*/; reports/index.html stays "
                                   "the last full run's*"])
        assert (reports / "index.html").read_bytes() == page
    runs = sorted((reports / "runs").iterdir())
    assert len(runs) == 3 and all((r / "index.html").exists() and (r / "results.json").exists() for r in runs)
    told = plain("-k", "small_numpy", "--results", "out/results.json", "--report", "out/index.html")
    assert (project.path / "out" / "index.html").exists()  # written where told, and the line is not printed
    assert "reports/runs" not in told.stdout.str() and len(list((reports / "runs").iterdir())) == 3


def test_the_readmes_command_is_a_run_of_the_whole_suite():
    """`pytest conformance` (the README's first command) names this package: a run of the whole suite, which writes
    reports/index.html (it was taken for a part and wrote to reports/runs/)."""
    from types import SimpleNamespace

    from conformance.plugin.options import part_of_the_suite

    def config(*args, **options):
        values = {"check": None, "path": None, "dtype": None, "op": None, "mode": None, "shard": None, "backend": None,
                  **options}
        return SimpleNamespace(option=SimpleNamespace(keyword="", markexpr=""), args=list(args), rootpath=ROOT,
                               getoption=values.__getitem__)

    cases = ROOT / "cases"
    assert not part_of_the_suite(config(str(ROOT / "conformance")), cases)
    assert not part_of_the_suite(config(str(ROOT)), cases)
    assert not part_of_the_suite(config(str(cases)), cases)
    assert part_of_the_suite(config(str(cases / "numpy_rules.yaml")), cases)
    assert part_of_the_suite(config(str(ROOT / "conformance"), backend=["local"]), cases)
    assert part_of_the_suite(config(str(ROOT / "conformance"), op=["elementwise"]), cases)
