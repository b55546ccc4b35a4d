"""Reproducers are code: each known difference names a standalone script (conformance/known/reproducers/<backend>/
<entry-id>.py) that exits 0 when its bug shows, 1 when the runtime behaves as the spec says, 2 when it cannot run;
``python3 -m conformance known --verify`` runs them and fails when an applicable entry's bug does not show.

Fake entries give each row of the table (shows / FIXED / cannot run / not applicable / failed: raised, died, timed
out) and the exit status; the real entries' scripts exist, are standalone and say "cannot run" without their
runtime. The real ``--verify`` takes longer than a minute here (children per crash), so CI runs it (.ci/run).
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from conformance import known
from conformance.known import KnownFileError, entries
from conformance.known import verify as kv
from conformance.known.entries import KNOWN_DIR, REPRODUCERS_DIR
from conformance.report.views import reproducer_view

ROOT = Path(__file__).resolve().parents[1]
# what a reproducer may import besides stdlib
RUNTIMES = {"numpy", "ml_dtypes", "onnx", "onnxruntime", "openvino", "jax", "tract", "tensorflow", "torch"}

SCRIPTS = {
    "shows": 'print("got 1; spec: 2")\nprint("the bug shows")\nraise SystemExit(0)\n',
    "fixed": 'print("got 2; spec: 2")\nprint("the bug does not show")\nraise SystemExit(1)\n',
    "cannot": 'print("cannot run: no such runtime")\nraise SystemExit(2)\n',
    "raises": 'import no_such_module_either_way\n',  # a traceback, exit status 1: not "fixed"
    "raises-later": 'print("half way")\nraise RuntimeError("the reproducer itself is broken")\n',
    "dies": 'import os, signal\nprint("about to crash", flush=True)\nos.kill(os.getpid(), signal.SIGSEGV)\n',
    "odd-status": 'raise SystemExit(7)\n',
    # hangs, with a child of its own that must not outlive the timeout
    "hangs": textwrap.dedent('''\
        import subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        open(sys.argv[0] + ".child", "w").write(str(child.pid))
        print("waiting", flush=True)
        time.sleep(600)
        '''),
}


def fake_entries(tmp_path: Path, scripts: dict[str, str], backend: str = "fakert",
                 conditions: dict[str, str] | None = None) -> dict[str, list[known.Known]]:
    """A known-differences file of one entry per script (reproducers/<backend>/<id>.py beside it)."""
    folder = tmp_path / "reproducers" / backend
    folder.mkdir(parents=True, exist_ok=True)
    text = ""
    for entry_id, script in scripts.items():
        (folder / f"{entry_id}.py").write_text(script)
        extra = (conditions or {}).get(entry_id, "")
        text += (f"- id: {entry_id}\n  match:\n    dtype: f32\n{extra}  verdict: wrong_values\n  reason: r\n"
                 f"  reproducer: reproducers/{backend}/{entry_id}.py\n")
    path = tmp_path / f"{backend}.yaml"
    path.write_text(text)
    return {backend: known.read_file(path)}


def here(version: str | None = "1.2.3", hardware: tuple[str, ...] = ("cpu:avx2",), available: bool = True):
    def runtimes(name: str, needs_hardware: bool) -> kv.Runtime:
        return kv.Runtime(available=available, reason=None if available else "not installed", version=version,
                          hardware=hardware)
    return runtimes


def by_entry(rows: list[kv.Row]) -> dict[str, kv.Row]:
    return {r.entry: r for r in rows}


# --- the table's rows and the exit status ---

def test_each_kind_of_reproducer_gives_its_row(tmp_path):
    rows = by_entry(kv.verify(fake_entries(tmp_path, {k: v for k, v in SCRIPTS.items() if k != "hangs"}),
                              runtimes=here(), timeout=60, jobs=2))
    assert rows["shows"].result == kv.SHOWS and rows["shows"].detail == "the bug shows"
    assert "got 1; spec: 2" in rows["shows"].output and not rows["shows"].fails
    assert rows["fixed"].result == kv.FIXED and rows["fixed"].fails
    assert rows["cannot"].result == kv.CANNOT_RUN and rows["cannot"].detail == "cannot run: no such runtime"
    assert rows["cannot"].fails  # the runtime is installed: a reproducer that cannot run verifies nothing
    assert rows["raises"].result == kv.FAILED and rows["raises"].detail.startswith("raised: ModuleNotFoundError")
    assert rows["raises-later"].result == kv.FAILED and "the reproducer itself is broken" in rows["raises-later"].detail
    assert rows["dies"].result == kv.FAILED and rows["dies"].detail == "killed by SIGSEGV"
    assert "about to crash" in rows["dies"].output
    assert rows["odd-status"].result == kv.FAILED and rows["odd-status"].detail.startswith("exit status 7")
    assert all(r.seconds is not None for r in rows.values())


def test_a_hanging_reproducer_times_out_and_its_children_are_ended(tmp_path):
    started = time.monotonic()
    [row] = kv.verify(fake_entries(tmp_path, {"hangs": SCRIPTS["hangs"]}), runtimes=here(), timeout=3)
    assert row.result == kv.FAILED and row.detail == "timed out after 3 s" and row.fails
    assert "waiting" in row.output and time.monotonic() - started < 30
    child = int((tmp_path / "reproducers" / "fakert" / "hangs.py.child").read_text())
    for _ in range(50):  # the whole session was killed: the child too (reaped by init, so poll)
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"the reproducer's child {child} outlived the timeout")


def test_exit_status_is_1_when_an_applicable_entry_does_not_show_its_bug(tmp_path):
    for name, status in (("shows", 0), ("fixed", 1), ("dies", 1), ("cannot", 1), ("odd-status", 1)):
        out: list[str] = []
        assert kv.main(fake_entries(tmp_path / name, {name: SCRIPTS[name]}), None, timeout=60, jobs=1,
                       out=out.append, runtimes=here()) == status, (name, out)


def test_main_prints_the_table_and_the_output_of_what_fails(tmp_path):
    out: list[str] = []
    status = kv.main(fake_entries(tmp_path, {"shows": SCRIPTS["shows"], "fixed": SCRIPTS["fixed"]}), None,
                     timeout=60, jobs=2, out=out.append, runtimes=here())
    text = "\n".join(out)
    assert status == 1
    assert "--- fakert/fixed: FIXED (the bug does not show)\ngot 2; spec: 2" in text  # why, in the log
    assert "--- fakert/shows" not in text
    lines = text.splitlines()
    assert lines[-3].split()[:3] == ["shows", "fakert", "shows"]
    assert lines[-2].split()[:3] == ["fixed", "fakert", "FIXED"]
    assert lines[-1] == "2 entries: 1 shows the bug, 1 FIXED; 1 applicable entry does not show the bug"


def test_version_and_hardware_conditions_decide_what_applies_here(tmp_path):
    scripts = {"old-only": SCRIPTS["fixed"], "new-only": SCRIPTS["shows"], "bf16-only": SCRIPTS["fixed"],
               "avx2-only": SCRIPTS["shows"]}
    conditions = {"old-only": '    version: "1.0.*"\n', "new-only": '    version: ["1.[2-9].*", "2.*"]\n',
                  "bf16-only": "    hardware: cpu:bf16\n", "avx2-only": "    hardware: [cpu:avx2, cpu:amx]\n"}
    asked: list[tuple[str, bool]] = []

    def runtimes(name: str, needs_hardware: bool) -> kv.Runtime:
        asked.append((name, needs_hardware))
        return here()(name, needs_hardware)

    rows = by_entry(kv.verify(fake_entries(tmp_path, scripts, conditions=conditions), runtimes=runtimes, timeout=60))
    assert rows["old-only"].result == kv.NOT_APPLICABLE and rows["old-only"].detail == "version 1.2.3 is not 1.0.*"
    assert rows["bf16-only"].result == kv.NOT_APPLICABLE and "cpu:bf16" in rows["bf16-only"].detail
    assert rows["new-only"].result == kv.SHOWS and rows["avx2-only"].result == kv.SHOWS
    assert not any(r.fails for r in rows.values())  # a FIXED reproducer that does not apply here is not run
    assert rows["old-only"].seconds is None
    assert asked == [("fakert", True)]  # the backend asked once, with its hardware (an entry names some)


def test_without_the_runtime_a_reproducer_that_cannot_run_does_not_fail(tmp_path):
    rows = kv.verify(fake_entries(tmp_path, {"cannot": SCRIPTS["cannot"], "shows": SCRIPTS["shows"]}),
                     runtimes=here(version=None, available=False), timeout=60)
    assert [r.result for r in rows] == [kv.CANNOT_RUN, kv.SHOWS] and not any(r.fails for r in rows)
    assert "(runtime not here)" in kv.table(rows)


def test_without_the_runtime_another_backend_s_script_is_not_run_for_an_entry(tmp_path):
    """onnxruntime-openvino's entries of ONNX Runtime's own bugs name onnxruntime's scripts: without
    onnxruntime-openvino they would run plain onnxruntime, which verifies nothing of it."""
    entries_ = fake_entries(tmp_path, {"fixed": SCRIPTS["fixed"]}, backend="otherrt")  # another backend's script
    text = ("- id: borrowed\n  match:\n    dtype: f32\n  verdict: wrong_values\n  reason: r\n"
            "  reproducer: reproducers/otherrt/fixed.py\n")
    (tmp_path / "fakert.yaml").write_text(text)
    borrowed = {"fakert": known.read_file(tmp_path / "fakert.yaml")}
    [absent] = kv.verify(borrowed, runtimes=here(version=None, available=False), timeout=60)
    assert absent.result == kv.CANNOT_RUN and not absent.fails and absent.seconds is None  # not run
    [present] = kv.verify(borrowed, runtimes=here(), timeout=60)  # with its runtime it runs, and fails if fixed
    assert present.result == kv.FIXED and present.fails
    assert entries_  # the script's own backend keeps its entry


def test_only_the_chosen_backends_run(tmp_path):
    entries_ = fake_entries(tmp_path, {"shows": SCRIPTS["shows"]}) | fake_entries(tmp_path, {"fixed": SCRIPTS["fixed"]},
                                                                                 backend="other")
    rows = kv.verify(entries_, ["other"], runtimes=here(), timeout=60)
    assert [(r.backend, r.result) for r in rows] == [("other", kv.FIXED)]


def test_the_command_line(tmp_path):
    fake_entries(tmp_path, {"shows": SCRIPTS["shows"], "fixed": SCRIPTS["fixed"]})
    args = [sys.executable, "-m", "conformance", "known", "--known", str(tmp_path / "fakert.yaml"),
            "--backend", "fakert", "--timeout", "60", "-j", "2"]
    verified = subprocess.run([*args, "--verify"], cwd=ROOT, capture_output=True, text=True)
    assert verified.returncode == 1, verified.stderr
    assert verified.stdout.splitlines()[-1].startswith("2 entries: 1 shows the bug, 1 FIXED;")
    listed = subprocess.run([*args, "--list"], cwd=ROOT, capture_output=True, text=True)
    assert listed.returncode == 0 and listed.stdout.splitlines() == [
        "fakert  shows  wrong_values  dtype=f32 shape_only=false  reproducers/fakert/shows.py",
        "fakert  fixed  wrong_values  dtype=f32 shape_only=false  reproducers/fakert/fixed.py"]
    unknown = subprocess.run([*args[:6], "--backend", "nosuch", "--verify"], cwd=ROOT, capture_output=True, text=True)
    assert unknown.returncode == 2 and "no known differences for backend(s) nosuch" in unknown.stdout


# --- loading: a reproducer is a file that exists ---

def test_a_reproducer_naming_a_missing_file_is_an_error_with_its_line(tmp_path):
    path = tmp_path / "fakert.yaml"
    path.write_text("- id: e\n  match: {dtype: f32}\n  verdict: crash\n  reason: r\n"
                    "  reproducer: reproducers/fakert/e.py\n")
    with pytest.raises(KnownFileError, match=rf"^{path}:5: entry 'e': reproducer 'reproducers/fakert/e.py': no such"):
        known.read_file(path)
    path.write_text(path.read_text().replace("reproducers/fakert/e.py", "../outside.py"))
    (tmp_path.parent / "outside.py").write_text("")
    with pytest.raises(KnownFileError, match=r":5: entry 'e': reproducer '../outside.py' must be a path inside"):
        known.read_file(path)


def test_inline_reproducers_are_refused_in_the_suites_files_and_kept_in_extra_ones(tmp_path, monkeypatch):
    path = tmp_path / "fakert.yaml"
    path.write_text("- id: e\n  match: {dtype: f32}\n  verdict: crash\n  reason: r\n"
                    "  reproducer: |\n    import openvino\n    print(1)\n")
    [entry] = known.read_file(path)  # a --known file of one's own: the text stays, --verify cannot run it
    assert entry.reproducer == "import openvino\nprint(1)\n" and entry.reproducer_file is None
    [row] = kv.verify({"fakert": [entry]}, runtimes=here(), timeout=5)
    assert row.result == kv.CANNOT_RUN and row.fails
    monkeypatch.setattr(entries, "KNOWN_DIR", tmp_path)  # as if it were conformance/known/fakert.yaml
    with pytest.raises(KnownFileError, match=rf"^{path}:5: entry 'e': reproducer names a script, e\.g\. "
                                             r"reproducers/fakert/e\.py"):
        known.read_file(path)


def test_an_entry_with_a_link_only_has_nothing_to_run(tmp_path):
    path = tmp_path / "fakert.yaml"
    path.write_text("- id: e\n  match: {dtype: f32}\n  verdict: crash\n  reason: r\n  link: https://example.invalid/1\n")
    [row] = kv.verify({"fakert": known.read_file(path)}, runtimes=here(), timeout=5)
    assert row.result == kv.NO_REPRODUCER and not row.fails and "example.invalid" in row.detail


# --- the real entries ---

def real_scripts() -> list[Path]:
    return sorted(p for p in REPRODUCERS_DIR.rglob("*.py"))


def test_every_real_reproducer_is_a_script_that_exists():
    """Each entry names a script in its backend's folder (or its runtime package's), and each script is named."""
    from conformance.backends import load as load_backend

    loaded = known.load()
    backends = {backend: load_backend(backend) for backend in loaded}
    named = set()
    for backend, ks in loaded.items():
        # its own folder, or that of a backend of the same runtime package (openvino-onnx: openvino's scripts show
        # the runtime's bug with its own API, never copied byte for byte), or of the backend it extends
        # (onnxruntime-openvino: ONNX Runtime's own bugs, before its provider is asked, are onnxruntime's scripts)
        folders = [REPRODUCERS_DIR / b for b in loaded if b == backend
                   or backends[b].package == backends[backend].package
                   or isinstance(backends[backend], type(backends[b]))]
        for k in ks:
            assert k.reproducer or k.link, k.id
            if k.reproducer:
                assert k.reproducer_file is not None and k.reproducer_file.is_file(), (backend, k.id, k.reproducer)
                assert any(k.reproducer_file.resolve().is_relative_to(f) for f in folders), (backend, k.id)
                named.add(k.reproducer_file.resolve())
    orphans = [str(p.relative_to(KNOWN_DIR)) for p in real_scripts() if p.resolve() not in named]
    assert not orphans, f"reproducers no entry names: {orphans}"


@pytest.mark.parametrize("script", real_scripts(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_real_reproducer_is_standalone(script):
    tree = ast.parse(script.read_text(encoding="utf-8"), str(script))
    modules = {a.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    modules |= {(node.module or "").split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    outside = modules - RUNTIMES - set(sys.stdlib_module_names)
    assert not outside, f"{script} imports {sorted(outside)}: numpy and the runtime's own API only"
    assert "conformance" not in script.read_text(encoding="utf-8").replace("conformance/known/", ""), \
        f"{script} names the suite"
    assert ast.get_docstring(tree), f"{script}: say in a docstring what it shows and what its exit status means"
    assert not any(isinstance(node, ast.ImportFrom) and node.level for node in ast.walk(tree)), script


def test_without_their_runtimes_the_real_reproducers_say_they_cannot_run():
    # One process runs every script with the runtimes hidden: each must exit 2 (not crash, not claim a fix).
    driver = textwrap.dedent("""\
        import runpy, sys
        for name in ("openvino", "onnx", "onnxruntime", "ml_dtypes", "jax", "tract", "tensorflow", "torch"):
            sys.modules[name] = None  # import fails: ImportError
        statuses = {}
        for path in sys.argv[1:]:
            try:
                runpy.run_path(path, run_name="__main__")
                statuses[path] = 0
            except SystemExit as e:
                statuses[path] = e.code
            except BaseException as e:
                statuses[path] = repr(e)
        print(repr(statuses))
        """)
    scripts = [str(p) for p in real_scripts()]
    done = subprocess.run([sys.executable, "-c", driver, *scripts], capture_output=True, text=True, timeout=300)
    statuses = ast.literal_eval(done.stdout.strip().splitlines()[-1])
    assert {p: s for p, s in statuses.items() if s != 2} == {}


def test_the_listing_names_every_entry_with_its_conditions():
    loaded = known.load()
    lines = kv.listing(loaded).splitlines()
    assert len(lines) == sum(len(ks) for ks in loaded.values())
    line = next(x for x in lines if "  ov-cpu-u64-clamped-to-i32-max  " in x)
    assert "version=2025.[0-3].*" in line and "dtype=u64" in line and "reproducers/openvino/" in line


# --- the report shows the script's text, read at report time ---

def test_the_report_reads_a_reproducer_file_and_nothing_outside_the_reproducers():
    script = real_scripts()[0]
    name = str(script.relative_to(KNOWN_DIR))
    view = reproducer_view(name)
    assert view == {"file": name, "text": script.read_text(encoding="utf-8"), "missing": None}
    assert reproducer_view("import x\nprint(1)") == {"file": None, "text": "import x\nprint(1)", "missing": None}
    for hostile in ("../known/entries.py", "reproducers/../entries.py", "/etc/passwd.py", "../../../etc/x.py",
                    "reproducers/openvino/no-such-entry.py"):
        view = reproducer_view(hostile)
        assert view is not None and view["text"] is None and view["missing"], hostile
    assert reproducer_view(None) is None and reproducer_view("") is None


def test_the_report_page_shows_the_script(tmp_path):
    import sample_results as sample

    from conformance import report

    script = real_scripts()[0]
    data = sample.merged()
    for c in data["checks"]:
        if c["verdict"] == "known_difference":
            c["known"] = {**c["known"], "reproducer": str(script.relative_to(KNOWN_DIR))}
    html = report.render(data)
    assert f"conformance/known/{script.relative_to(KNOWN_DIR)}" in html
    first_line = script.read_text(encoding="utf-8").splitlines()[0]
    assert first_line.replace('"', "&#34;") in html or first_line in html
