"""The HTML report, read back with the stdlib HTML parser; the CLI that writes it."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
import sample_results as sample

from conformance import report, results
from conformance.__main__ import main
from conformance.verdicts import NOT_APPLICABLE, PASS, SKIPPED

COLUMNS = ["local", "onnxruntime", "onnxruntime@1.18.1", "openvino@2024.6.0", "openvino@2025.0.0"]
XSS_TAG = "<script>alert(1)</script>"
XSS_ATTR = '"><img src=x onerror=alert(1)>'
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str | None]
    children: list[Node | str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text for c in self.children)

    @property
    def words(self) -> str:
        """The text with each piece set apart, as a reader sees separate cells and labels."""
        pieces = (c.split() if isinstance(c, str) else [c.words] for c in self.children)
        return " ".join(w for piece in pieces for w in piece if w)

    def iter(self):
        yield self
        for c in self.children:
            if isinstance(c, Node):
                yield from c.iter()

    def find_all(self, tag: str | None = None, **attrs: str | bool) -> list[Node]:
        """Descendants with the tag and attributes (True: present; a string: that value; `_` for `-`)."""
        def ok(n: Node) -> bool:
            for k, want in attrs.items():
                name = k.replace("_", "-")
                if name not in n.attrs or (want is not True and n.attrs[name] != want):
                    return False
            return tag is None or n.tag == tag
        return [n for n in self.iter() if ok(n)]

    def one(self, tag: str | None = None, **attrs: str | bool) -> Node:
        found = self.find_all(tag, **attrs)
        assert len(found) == 1, f"{len(found)} <{tag} {attrs}>"
        return found[0]

    def by_id(self, element_id: str) -> Node:
        return self.one(id=element_id)


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs))
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1].children.append(Node(tag, dict(attrs)))

    def handle_endtag(self, tag):
        assert any(n.tag == tag for n in self.stack), f"stray </{tag}>"
        while self.stack.pop().tag != tag:
            pass

    def handle_data(self, data):
        self.stack[-1].children.append(data)


def parse(html: str) -> Node:
    builder = _Builder()
    builder.feed(html)
    builder.close()
    assert builder.stack == [builder.root], f"unclosed: {[n.tag for n in builder.stack]}"
    return builder.root


@pytest.fixture(scope="module")
def merged() -> dict:
    return sample.merged()


@pytest.fixture(scope="module")
def page(merged) -> Node:
    return parse(report.render(merged))


def _cell(page: Node, case_id: str, col: str) -> Node:
    row = page.by_id("matrix").one("tr", data_case=case_id)
    return row.one("td", data_col=col)


def _section(page: Node, case_id: str, col: str) -> Node:
    """The details block a matrix cell links to."""
    return page.by_id(_cell(page, case_id, col).one("a").attrs["href"][1:])


def _non_pass(checks: list[dict]) -> list[dict]:
    return [c for c in checks if c["verdict"] not in (PASS, NOT_APPLICABLE, SKIPPED)]


def test_matrix_has_every_case_and_column(page):
    matrix = page.by_id("matrix")
    assert [th.attrs["data-col"] for th in matrix.find_all("th", data_col=True)] == COLUMNS
    assert {tr.attrs["data-case"] for tr in matrix.find_all("tr", data_case=True)} == set(sample.CASES)
    for tr in matrix.find_all("tr", data_case=True):
        assert [td.attrs["data-col"] for td in tr.find_all("td", data_col=True)] == COLUMNS
    files = [th.text for th in matrix.find_all("th", colspan=True)]
    assert [f.split()[0] for f in files] == sorted([sample.NUMPY_FILE, sample.OTHER_FILE])


@pytest.mark.parametrize(("col", "counts", "rate"), [
    ("onnxruntime@1.18.1", {"pass": 12, "known_difference": 4, "crash": 2, "not_applicable": 4,
                            "wrong_values": 2}, "60.0%"),
    ("openvino@2024.6.0", {"pass": 17, "wrong_shape": 1, "rejected_valid": 2, "wrong_values": 4}, "70.8%"),
    ("openvino@2025.0.0", {"pass": 21, "timeout": 1, "wrong_dtype": 1, "error": 1}, "87.5%"),
    ("local", {"pass": 23, "accepted_invalid": 1}, "95.8%"),
    ("onnxruntime", {"skipped": 24}, "—"),
])
def test_overview_counts_per_column(page, col, counts, rate):
    row = page.by_id("overview-columns").one("tr", data_column=col)
    shown = {td.attrs["data-verdict"]: int(td.text) for td in row.find_all("td", data_verdict=True)}
    assert {v: n for v, n in shown.items() if n} == counts
    assert row.one("td", data_total=True).text.strip() == "24"
    assert row.one("td", data_rate=True).text.strip() == rate


def test_overview_per_mode_and_group(page):
    # onnxruntime@1.18.1, numpy: 4 pass + 4 known (rank) + 2 pass 2 crash (zero dim) -> 6 of 12.
    numpy = page.by_id("overview-mode").one("tr", data_mode="numpy")
    assert numpy.one("td", data_col="onnxruntime@1.18.1").words == "50.0% 6/12 C2 K4"
    explicit = page.by_id("overview-mode").one("tr", data_mode="explicit")
    assert explicit.one("td", data_col="onnxruntime@1.18.1").text.split()[:2] == ["—", "0/0"]
    groups = [tr.attrs["data-group"] for tr in page.by_id("overview-group").find_all("tr", data_group=True)]
    assert groups == ["spec_example", "rule", "interpretation", "edge", "found"]
    interp = page.by_id("overview-group").one("tr", data_group="interpretation")
    assert interp.one("td", data_col="openvino@2024.6.0").text.split()[:2] == ["50.0%", "2/4"]


def test_matrix_cell_shows_worst_letter_and_counts(page):
    # numpy_zero_dim on openvino 2025: a timeout (O) outranks a wrong dtype (T).
    cell = _cell(page, "numpy_zero_dim", "openvino@2025.0.0")
    assert cell.words == "O 2/4"
    assert set(cell.attrs["class"].split()) >= {"cell", "v-timeout"}
    assert _cell(page, "numpy_spec_example", "local").words == "P 4/4"
    assert _cell(page, "numpy_spec_example", "local").find_all("a") == []  # nothing to look at


def test_every_non_pass_check_has_details_reachable_from_its_cell(page, merged):
    for check in _non_pass(merged["checks"]):
        section = _section(page, check["case"], results.column(check))
        assert section.tag == "details"
        assert merged["cases"][check["case"]]["text"] in section.text
        block = section.one("details", data_check=check["id"])
        assert check["message"] in block.text
        assert check["rerun"] in block.text
        assert block.attrs["id"].startswith("k~")  # each check can be linked to on its own


def test_details_show_the_evidence(page):
    def block(case_id, col, variant, dtype):
        node_id = f"{sample.CASES[case_id]['file']}::{case_id}[{col.split('@')[0]}-{variant}-{dtype}]"
        return _section(page, case_id, col).one("details", data_check=node_id).words

    wrong_values = block("bidirectional_found_i64", "openvino@2024.6.0", "opset3-const", "i64")
    assert "First difference at index (1, 2, 5)" in wrong_values
    assert "expected 7" in wrong_values and "actual 0" in wrong_values
    assert "Actual (2, 3, 6) i64" in wrong_values
    crash = block("numpy_zero_dim", "onnxruntime@1.18.1", "opset13-input", "f32")
    assert "Error (infer) signal SIGSEGV (-11)" in crash
    wrong_shape = block("numpy_zero_dim", "openvino@2024.6.0", "opset3-param", "f32")
    assert "Declared shape (?, 1)" in wrong_shape and "Expected (0, 3) f32" in wrong_shape
    known = block("numpy_rank_too_small", "onnxruntime@1.18.1", "opset13-init", "f32")
    assert "ONNX Expand is bidirectional" in known and "python -c 'import onnx; ...'" in known
    links = [a for a in page.by_id("details").find_all("a") if a.attrs.get("href") == sample.KNOWN_LINK]
    assert len(links) == 4


def test_not_applicable_reasons_are_listed_once_per_reason(page):
    section = _section(page, "explicit_spec_example", "onnxruntime@1.18.1")
    brief = section.one("ul", **{"class": "brief"})
    assert len(brief.find_all("li")) == 1
    assert "ONNX Expand has no explicit mode" in brief.text
    assert "opset13-init/f32" in brief.text and "opset13-input/i64" in brief.text
    assert "open" not in section.attrs  # nothing failed: closed until asked for


def test_interpretations_are_shown_apart_and_marked(page):
    case = sample.CASES["bidirectional_zero_vs_one"]
    rows = page.by_id("interpretations").find_all("tr", data_case=True)
    assert [r.attrs["data-case"] for r in rows] == ["bidirectional_zero_vs_one"]
    assert case["interpretation"] in rows[0].text
    row = page.by_id("matrix").one("tr", data_case="bidirectional_zero_vs_one")
    tag = row.one("a", **{"class": "tag interp"})
    assert page.by_id(tag.attrs["href"][1:]) is rows[0]


def test_header_problems_and_legend(page, merged):
    header = page.one("header").words
    for text in ("2025-02-03T14:20:05+00:00", "9c0d1e7", "3.11.7", "AMD EPYC 7763", "11 min 35 s",
                 "openvino 2025.0.0", "onnxruntime 1.18.1"):
        assert text in header
    errors = page.by_id("collection-errors").text
    assert f"{sample.OTHER_FILE}:40" in errors and "duplicate case id 'explicit_spec_example'" in errors
    assert "numpy_removed_case" in page.by_id("unmatched-known").text
    assert page.find_all(id="incomplete") == []
    legend = page.by_id("matrix").one("ul", **{"class": "legend"}).find_all("li")
    assert len(legend) == 12


def test_incomplete_run_shows_a_banner(merged):
    data = copy.deepcopy(merged)
    data["run"]["complete"] = False
    assert "Incomplete run" in parse(report.render(data)).by_id("incomplete").text


def test_page_is_self_contained(page):
    assert not page.find_all("link")
    assert not page.find_all("img") and not page.find_all("iframe")
    scripts = page.find_all("script")
    assert len(scripts) == 1 and "src" not in scripts[0].attrs
    for node in page.iter():
        for name, value in node.attrs.items():
            if value and ("http://" in value or "https://" in value):
                assert (node.tag, name) == ("a", "href"), f"<{node.tag} {name}={value!r}>"
    style = page.one("style").text
    assert "url(" not in style and "@import" not in style
    assert len({n.attrs["id"] for n in page.find_all(id=True)}) == len(page.find_all(id=True))


def test_page_works_without_javascript(page):
    # Only the filter bar (useless without the script) starts hidden; every row and block is in view.
    assert [n.attrs.get("id") for n in page.find_all(hidden=True)] == ["filters"]


def test_untrusted_text_is_escaped(merged):
    data = copy.deepcopy(merged)
    hostile = f"x{XSS_TAG}{XSS_ATTR}"
    case = {**sample.CASES["numpy_zero_dim"], "description": hostile, "interpretation": hostile,
            "text": hostile, "file": hostile, "spec_ref": hostile}
    data["cases"][hostile] = case
    data["checks"].append(sample.check(hostile, "openvino", hostile, "v", hostile, "crash", message=hostile,
                                       rerun=hostile, known={"reason": hostile, "link": "javascript:alert(1)",
                                                             "reproducer": hostile}))
    data["collection_errors"].append({"file": hostile, "line": 1, "message": hostile})
    data["unmatched_known"].append({"backend": hostile, "entry": {"case": hostile}})
    data["run"]["suite_commit"] = hostile
    html = report.render(data, compare=sample.older_run())
    assert XSS_TAG not in html and XSS_ATTR not in html and "<img" not in html
    tree = parse(html)
    assert len(tree.find_all("script")) == 1 and not tree.find_all("img")
    assert hostile in tree.by_id("matrix").text  # shown, as text
    assert not [a for a in tree.find_all("a") if a.attrs.get("href", "").startswith("javascript:")]
    assert "javascript:alert(1)" in tree.by_id("details").text  # the link is shown, not followed


def test_unknown_verdict_ranks_worst(merged):
    data = copy.deepcopy(merged)
    data["checks"].append(sample.check("numpy_spec_example", "local", None, "v9", "f32", "mystery"))
    cell = _cell(parse(report.render(data)), "numpy_spec_example", "local")
    assert cell.words == "? 4/5"


def test_compare_lists_changes_with_counts():
    new = sample.main_run()
    old = copy.deepcopy(new)
    by_id = {c["id"]: c for c in old["checks"] if c["backend"] == "onnxruntime"}
    crashed = next(c for c in new["checks"] if c["verdict"] == "crash")
    by_id[crashed["id"]]["verdict"] = PASS  # passed before: a new failure
    fixed = next(c for c in new["checks"] if c["verdict"] == PASS and c["backend"] == "onnxruntime")
    by_id[fixed["id"]]["verdict"] = "wrong_values"  # failed before: a fix
    timeout = next(c for c in old["checks"] if c["verdict"] == "timeout")
    timeout["verdict"] = "crash"  # crash -> timeout: another change
    old["checks"].remove(next(c for c in old["checks"] if c["backend"] == "local"))  # added since
    old["checks"].append(sample.check("numpy_spec_example", "local", None, "v0", "f32"))  # removed since

    changes = parse(report.render(new, compare=old)).by_id("changes")
    counts = {li.attrs["data-kind"]: int(li.one("b").text) for li in changes.find_all("li", data_kind=True)}
    assert counts == {"new_failures": 1, "fixes": 1, "changed": 1, "added": 1, "removed": 1}
    failure = changes.by_id("changes-new_failures").one("tr", data_check=crashed["id"])
    assert "pass" in failure.text and "crash" in failure.text
    assert failure.one("a").attrs["href"].startswith("#c~numpy_zero_dim~")
    assert changes.by_id("changes-fixes").one("tr", data_check=fixed["id"])
    assert "2025-02-03T14:20:05+00:00" in changes.one("h2").text


def test_cli_merges_files_and_writes_the_report(tmp_path, capsys):
    paths = [tmp_path / "old.json", tmp_path / "new.json"]
    results.save(paths[0], sample.older_run())
    results.save(paths[1], sample.main_run())
    out = tmp_path / "reports" / "index.html"
    assert main(["report", *map(str, paths), "-o", str(out), "--compare", str(paths[0])]) == 0
    printed = capsys.readouterr().out
    assert printed.splitlines()[0] == str(out)
    assert "onnxruntime@1.18.1: 12/20 pass (60.0%), 4 failing, 4 known, 4 not run" in printed
    matrix = parse(out.read_text()).by_id("matrix")
    assert [th.attrs["data-col"] for th in matrix.find_all("th", data_col=True)] == COLUMNS


@pytest.mark.parametrize(("content", "problem"), [
    (None, "no such file"),
    ("{not json", "not a results file"),
    (json.dumps({"format": "something-else/1"}), "not a results file"),
    (json.dumps({"format": results.FORMAT}), "malformed results"),
])
def test_cli_refuses_a_bad_file_with_status_2(tmp_path, capsys, content, problem):
    bad = tmp_path / "bad.json"
    if content is not None:
        bad.write_text(content)
    out = tmp_path / "index.html"
    assert main(["report", str(bad), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert problem in err and str(bad) in err
    assert not out.exists()


def test_python_dash_m_runs_the_cli(tmp_path):
    path = tmp_path / "r.json"
    results.save(path, sample.main_run())
    out = tmp_path / "index.html"
    done = subprocess.run([sys.executable, "-m", "conformance", "report", str(path), "-o", str(out)],
                          capture_output=True, text=True, cwd=Path(__file__).parents[1], check=False)
    assert done.returncode == 0, done.stderr
    assert out.read_text().startswith("<!DOCTYPE html>")
