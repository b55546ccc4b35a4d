"""The HTML report, read back with the stdlib HTML parser; the CLI that writes it."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
import sample_results as sample

from conformance import report
from conformance.__main__ import main
from conformance.report import matrix as report_matrix
from conformance.results import files as results
from conformance.verdicts import NOT_APPLICABLE, PASS, SKIPPED, VERDICTS

# onnxruntime was not installed for one of the merged runs: the run where it ran speaks for it (no empty column)
COLUMNS = ["local", "onnxruntime@1.18.1", "openvino@2024.6.0", "openvino@2025.0.0"]
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


class Data:
    """The page's data (#report-data, conformance/report/matrix.py), read back as the page's script reads it: the
    matrix's rows, each cell's checks and each cell's details."""

    def __init__(self, html: str) -> None:
        start = html.index('<script type="application/json" id="report-data">')
        self.raw = json.loads(html[html.index(">", start) + 1:html.index("</script>", start)])
        page = parse(html)
        bar = page.by_id("filters")
        self.labels, self.paths, self.axes, self.dtypes, self.verdicts = (
            json.loads(str(bar.attrs[f"data-{name}"])) for name in ("variants", "paths", "axes", "dtypes", "verdicts"))
        self.letters = json.loads(str(bar.attrs["data-letters"]))
        self.cases: list[str] = self.raw["case"]["id"]
        self.cols: list[str] = self.raw["cols"]

    def case(self, case_id: str) -> dict:
        i = self.cases.index(case_id)
        return {key: values[i] for key, values in self.raw["case"].items()}

    def _cell_index(self, case_id: str, col: str) -> int:
        return self.cases.index(case_id) * len(self.cols) + self.cols.index(col)

    def _range(self, ci: int) -> range:
        return range(self.raw["end"][ci - 1] if ci else 0, self.raw["end"][ci])

    def _decode(self, code: int) -> tuple[str, dict[str, str], str, str]:
        nv, nd = len(self.verdicts), len(self.dtypes)
        path, dtype, verdict = code // (nv * nd), code // nv % nd, code % nv
        pairs = [tuple(map(int, t.split("."))) for t in self.paths[path].split()]
        return (self.labels[path], {self.axes[a][0]: self.axes[a][1][v] for a, v in pairs}, self.dtypes[dtype],
                self.verdicts[verdict])

    def cell(self, case_id: str, col: str) -> list[tuple[str, dict[str, str], str, str]]:
        """(label, path, dtype, verdict) of each check of a cell, worst verdict first."""
        return [self._decode(self.raw["k"][j]) for j in self._range(self._cell_index(case_id, col))]

    def section(self, case_id: str, col: str) -> dict | None:
        """A cell's details: blocks of evidence and lines of not-applicable reasons; None for a cell without."""
        ci = self._cell_index(case_id, col)
        found = self.raw["sec"].get(str(ci))
        if found is None:
            return None
        strings = self.raw["S"]
        text = (lambda i: strings[i] if i >= 0 else None)  # noqa: E731
        names = ("verdict", "dtype", "message", "expected", "actual_shape", "actual_dtype", "declared_shape",
                 "error", "stage", "diff_index", "diff_expected", "diff_actual")
        blocks, briefs = found
        out = {"blocks": [], "briefs": []}
        for b, (e, refs) in enumerate(blocks):
            ev = self.raw["ev"][e]
            block = {name: text(ev[n]) for n, name in enumerate(names)}
            block["count"], block["size"] = ev[12], ev[13]
            block["known"] = self.raw["known"][ev[14]] if ev[14] >= 0 else None
            block["checks"] = [(_check_id(strings, ref), _rerun(strings, ref)) for ref in refs]
            block["paths"] = [self.raw["ptext"][self._path_code(j)]
                              for j in self._range(ci) if self.raw["g"][j] == b]
            out["blocks"].append(block)
        for n, (verdict, reason) in enumerate(briefs):
            checks = [self._decode(self.raw["k"][j]) for j in self._range(ci) if self.raw["g"][j] == len(blocks) + n]
            out["briefs"].append({"verdict": self.verdicts[verdict], "reason": strings[reason], "checks": checks})
        return out

    def _path_code(self, j: int) -> int:
        return self.raw["k"][j] // (len(self.verdicts) * len(self.dtypes))


def _check_id(strings: list[str], ref: list) -> str:
    return strings[ref[0]] + "[" + ref[1] + "]" if ref[0] >= 0 else ref[1]


def _rerun(strings: list[str], ref: list) -> str:
    if ref[2] < 0:
        return strings[-ref[2] - 1]
    return strings[ref[2]].replace("\x02", strings[ref[0]]).replace("\x01", ref[1])


@pytest.fixture(scope="module")
def data(merged) -> Data:
    return Data(report.render(merged))


def _block(section: dict, check_id: str) -> dict:
    """The block of evidence holding a check."""
    blocks = [b for b in section["blocks"] if any(i == check_id for i, _ in b["checks"])]
    assert len(blocks) == 1, f"{len(blocks)} blocks hold {check_id}"
    return blocks[0]


def _non_pass(checks: list[dict]) -> list[dict]:
    return [c for c in checks if c["verdict"] not in (PASS, NOT_APPLICABLE, SKIPPED)]


def test_matrix_has_every_case_and_column(page, data):
    matrix = page.by_id("matrix")
    assert [th.attrs["data-col"] for th in matrix.find_all("th", data_col=True)] == COLUMNS
    assert data.cols == COLUMNS
    assert set(data.cases) == set(sample.CASES)
    # In matrix order: by case file, then line.
    assert data.raw["files"] == sorted([sample.NUMPY_FILE, sample.OTHER_FILE])
    files = [data.raw["files"][i] for i in data.raw["case"]["file"]]
    assert files == sorted(files)
    assert len(data.raw["end"]) == len(data.cases) * len(COLUMNS)


@pytest.mark.parametrize(("col", "counts", "rate"), [
    ("onnxruntime@1.18.1", {"pass": 12, "known_difference": 4, "crash": 2, "not_applicable": 4,
                            "wrong_values": 2}, "60.0%"),
    ("openvino@2024.6.0", {"pass": 17, "wrong_shape": 1, "rejected_valid": 2, "wrong_values": 4}, "70.8%"),
    ("openvino@2025.0.0", {"pass": 21, "timeout": 1, "wrong_dtype": 1, "error": 1}, "87.5%"),
    ("local", {"pass": 23, "accepted_invalid": 1}, "95.8%"),
])
def test_overview_counts_per_column(page, col, counts, rate):
    row = page.by_id("overview-columns").one("tr", data_column=col)
    shown = {td.attrs["data-verdict"]: int(td.text) for td in row.find_all("td", data_verdict=True)}
    assert {v: n for v, n in shown.items() if n} == counts
    assert row.one("td", data_total=True).text.strip() == "24"
    assert row.one("td", data_rate=True).text.strip() == rate


def test_overview_shows_the_hardware_a_backend_reports(merged):
    run = copy.deepcopy(merged)
    key = next(k for k, b in run["backends"].items() if b.get("version") == "2025.0.0")
    run["backends"][key]["hardware"] = ["cpu:bf16", "cpu:fp32"]
    overview = parse(report.render(run)).by_id("overview-columns")
    hardware = overview.one("tr", data_column="openvino@2025.0.0").one("small", **{"class": "hardware"})
    assert hardware.text == "cpu:bf16 cpu:fp32"
    assert not overview.one("tr", data_column="local").find_all("small", **{"class": "hardware"})


def test_overview_per_mode_and_group(page):
    # onnxruntime@1.18.1, numpy: 4 pass + 4 known (rank) + 2 pass 2 crash (zero dim) -> 6 of 12.
    numpy = page.by_id("overview-mode").one("tr", data_mode="numpy")
    assert numpy.one("td", data_col="onnxruntime@1.18.1").words == "50.0% 6/12 C2 K4"
    explicit = page.by_id("overview-mode").one("tr", data_mode="explicit")
    assert explicit.one("td", data_col="onnxruntime@1.18.1").text.split()[:2] == ["—", "0/0"]
    groups = [tr.attrs["data-group"] for tr in page.by_id("overview-group").find_all("tr", data_group=True)]
    assert groups == ["spec_example", "rule", "interpretation", "edge", "found"]
    interp = page.by_id("overview-group").one("tr", data_group="interpretation")
    # by origin: the pass rate, then pass / known / failing / not applicable
    assert interp.one("td", data_col="openvino@2024.6.0").words == "50.0% 2 / 0 / 2 / 0"


def _axis_rows(page: Node, backend: str) -> list[tuple[str, str]]:
    return [(str(tr.attrs["data-axis"]), str(tr.attrs["data-value"]))
            for tr in page.by_id(f"axes~{backend}").find_all("tr", data_axis=True)]


def test_overview_by_path_axis_has_a_table_per_backend_with_its_axes_and_versions(page):
    tables = page.by_id("overview-axes").find_all("table")
    assert {t.attrs["data-backend"]: [th.attrs["data-col"] for th in t.find_all("th", data_col=True)]
            for t in tables} == {"local": ["local"], "onnxruntime": ["onnxruntime@1.18.1"],
                                 "openvino": ["openvino@2024.6.0", "openvino@2025.0.0"]}
    # A row per value of each axis the backend's checks name, axis by axis, in order of first appearance (a results
    # file does not record the order a backend declares them in).
    assert _axis_rows(page, "openvino") == [("opset", "3"), ("target_shape", "Constant"), ("target_shape", "Parameter")]
    assert _axis_rows(page, "onnxruntime") == [("opset", "13"), ("shape", "initializer"), ("shape", "input")]
    assert _axis_rows(page, "local") == [("op", "v3"), ("op", "expand")]
    # The axis is named once, over its values' rows; each value links to the matrix filtered by it.
    shape = page.by_id("axes~onnxruntime").find_all("th", **{"class": "axis"})
    assert [(th.text, th.attrs["rowspan"]) for th in shape] == [("opset", "1"), ("shape", "2")]
    row = page.by_id("axes~onnxruntime").one("tr", data_axis="shape", data_value="input")
    assert row.one("a").attrs["href"] == "#shape=input"


# Pass rate, then pass / known / failing / n.a., as the overview by origin counts them (sample_results.py's
# VERDICTS_BY_CELL, path by path). openvino@2024.6.0 on target_shape Parameter (variant 1): a wrong_shape,
# two rejected_valid and two wrong_values among 12 checks; onnxruntime@1.18.1 on shape input: 2 known, 2 not
# applicable (explicit mode), 2 crashes and a wrong_values.
@pytest.mark.parametrize(("backend", "axis", "value", "col", "words"), [
    ("openvino", "opset", "3", "openvino@2024.6.0", "70.8% 17 / 0 / 7 / 0"),  # every check: the column's rate
    ("openvino", "target_shape", "Constant", "openvino@2024.6.0", "83.3% 10 / 0 / 2 / 0"),
    ("openvino", "target_shape", "Parameter", "openvino@2024.6.0", "58.3% 7 / 0 / 5 / 0"),
    ("openvino", "target_shape", "Parameter", "openvino@2025.0.0", "83.3% 10 / 0 / 2 / 0"),
    ("onnxruntime", "opset", "13", "onnxruntime@1.18.1", "60.0% 12 / 4 / 4 / 4"),
    ("onnxruntime", "shape", "initializer", "onnxruntime@1.18.1", "70.0% 7 / 2 / 1 / 2"),
    ("onnxruntime", "shape", "input", "onnxruntime@1.18.1", "50.0% 5 / 2 / 3 / 2"),
    ("local", "op", "v3", "local", "91.7% 11 / 0 / 1 / 0"),
    ("local", "op", "expand", "local", "100.0% 12 / 0 / 0 / 0"),
])
def test_overview_per_path_axis_value(page, backend, axis, value, col, words):
    row = page.by_id(f"axes~{backend}").one("tr", data_axis=axis, data_value=value)
    assert row.one("td", data_col=col).words == words


def test_a_check_of_no_path_counts_under_no_axis(merged):
    data = copy.deepcopy(merged)
    data["checks"].append(sample.check("explicit_spec_example", "onnxruntime", "1.18.1", "", "f32", NOT_APPLICABLE,
                                       message="ONNX Expand has no explicit mode (axes_mapping)"))
    page = parse(report.render(data))
    assert page.by_id("overview-columns").one("tr", data_column="onnxruntime@1.18.1").one(
        "td", data_total=True).text.strip() == "25"
    assert _axis_rows(page, "onnxruntime") == [("opset", "13"), ("shape", "initializer"), ("shape", "input")]
    opset = page.by_id("axes~onnxruntime").one("tr", data_axis="opset", data_value="13")
    assert opset.one("td", data_col="onnxruntime@1.18.1").words == "60.0% 12 / 4 / 4 / 4"


def test_matrix_cell_lists_its_checks_worst_first(data):
    # numpy_zero_dim on openvino 2025: a timeout (O) outranks a wrong dtype (T); the cell shows the first.
    verdicts = [v for *_, v in data.cell("numpy_zero_dim", "openvino@2025.0.0")]
    assert verdicts == ["timeout", "wrong_dtype", "pass", "pass"]
    assert data.letters[data.verdicts.index("timeout")] == "O"
    assert [v for *_, v in data.cell("numpy_spec_example", "local")] == ["pass"] * 4
    assert data.section("numpy_spec_example", "local") is None  # nothing to look at: no link


def test_matrix_cell_codes_name_each_checks_path_axis_by_axis(data, merged):
    for col in ("openvino@2024.6.0", "onnxruntime@1.18.1", "local"):
        want = sorted(((c["variant"], c["path"], c["dtype"], c["verdict"]) for c in merged["checks"]
                       if c["case"] == "numpy_zero_dim" and results.column(c) == col),
                      key=lambda c: json.dumps(c, sort_keys=True))
        assert sorted(data.cell("numpy_zero_dim", col), key=lambda c: json.dumps(c, sort_keys=True)) == want


def test_one_label_naming_other_axes_on_another_backend_has_a_code_of_its_own():
    # opset13-init is a path of onnxruntime and of onnx-reference, which has a context axis: the axis filters must
    # tell the two apart, though the path filter chooses both by their label.
    data = sample.main_run()
    data["backends"]["onnx-reference"] = {"version": "1.17.0", "available": True}
    other = {"opset": "13", "shape": "initializer", "context": "alone"}
    data["checks"] += [sample.check("numpy_spec_example", "onnx-reference", "1.17.0", "opset13-init", d, path=other)
                       for d in sample.DTYPES]
    html = report.render(data)
    page, cells = parse(html), Data(html)
    assert {(label, json.dumps(path, sort_keys=True)) for label, path, *_ in
            cells.cell("numpy_spec_example", "onnx-reference@1.17.0")} == \
        {("opset13-init", json.dumps(other, sort_keys=True))}
    assert all("context" not in path for _, path, *_ in cells.cell("numpy_spec_example", "onnxruntime@1.18.1"))
    assert cells.labels.count("opset13-init") == 2
    assert _axis_rows(page, "onnx-reference") == [("opset", "13"), ("shape", "initializer"), ("context", "alone")]


def test_an_axis_named_like_a_filter_is_kept_under_its_own_key():
    data = sample.main_run()
    for c in data["checks"]:
        if c["backend"] == "local":
            c["path"] = {**c["path"], "mode": "fast"}
    page = parse(report.render(data))
    bar = page.by_id("filters")
    axes = {s.attrs["name"]: s.attrs["data-axis"] for s in bar.find_all("select", data_axis=True)}
    assert axes["path.mode"] == str([a for a, _ in json.loads(str(bar.attrs["data-axes"]))].index("mode"))
    assert [o.attrs["value"] for o in bar.one("select", name="mode").find_all("option")][1:] == \
        ["numpy", "explicit", "bidirectional"]  # the case filter stays what it was
    row = page.by_id("axes~local").one("tr", data_axis="mode", data_value="fast")
    assert row.one("a").attrs["href"] == "#path.mode=fast"


def test_filter_choices(page):
    bar = page.by_id("filters")
    options = {s.attrs["name"]: [o.attrs["value"] for o in s.find_all("option")] for s in bar.find_all("select")}
    assert options["dtype"] == ["", "i64", "f32"]  # only what ran: bool, integers, floats, each by width
    # A path is offered by its axes, and chosen by its label (as check ids and the cells' codes name it).
    groups = {g.attrs["label"]: [(o.attrs["value"], o.text) for o in g.find_all("option")]
              for g in bar.find_all("optgroup")}
    assert groups == {"local": [("expand", "op expand"), ("v3", "op v3")],
                      "onnxruntime": [("opset13-init", "opset 13, shape initializer"),
                                      ("opset13-input", "opset 13, shape input")],
                      "openvino": [("opset3-const", "opset 3, target_shape Constant"),
                                   ("opset3-param", "opset 3, target_shape Parameter")]}
    assert options["col"] == ["", *COLUMNS]
    assert {"failing", "nonpass", "crash", "known_difference"} <= set(options["v"])
    # A select per path axis, offering every value any check has, in order of first appearance.
    axes = {s.attrs["name"]: [o.attrs["value"] for o in s.find_all("option")]
            for s in bar.find_all("select", data_axis=True)}
    assert axes == {"opset": ["", "3", "13"], "target_shape": ["", "Constant", "Parameter"],
                    "shape": ["", "initializer", "input"],
                    "path.op": ["", "v3", "expand"]}  # "op" is the op filter's key


def test_every_non_pass_check_has_details_in_its_cell(data, merged):
    for check in _non_pass(merged["checks"]):
        section = data.section(check["case"], results.column(check))
        assert section is not None
        assert merged["cases"][check["case"]]["text"].strip() in data.case(check["case"])["text"]
        block = _block(section, check["id"])
        assert check["message"] == block["message"]
        assert (check["id"], check["rerun"]) in block["checks"]


@pytest.mark.parametrize(("check_id", "rerun"), [
    ("cases/x.yaml::numpy_zero_dim[openvino-opset3-const-f32]",  # the usual: both parts shared in the string table
     "python3 -m pytest -p conformance.plugin 'cases/x.yaml::numpy_zero_dim[openvino]' "
     "--check openvino-opset3-const-f32"),
    ("cases/x.yaml::numpy_zero_dim[openvino-a]", "rerun by hand"),  # a command that names nothing of the id
    ("no brackets at all", ""),  # no command: the id is the command
    ("cases/x.yaml::numpy_zero_dim[a\x01b\x02]", "run \x01 \x02 [a\x01b\x02]"),  # the markers themselves
    ("x[]", "x x[] x"),  # an empty part
])
def test_a_checks_id_and_command_come_back_exactly(merged, check_id, rerun):
    data = copy.deepcopy(merged)
    data["checks"].append(sample.check("numpy_zero_dim", "local", None, "v3", "f32", "crash", id=check_id,
                                       rerun=rerun, message="boom"))
    section = Data(report.render(data)).section("numpy_zero_dim", "local")
    assert (check_id, rerun or check_id) in _block(section, check_id)["checks"]


def test_the_data_cannot_end_its_script_element():
    text = report_matrix.dumps({"x": "</script><script>alert(1)</script>&amp;\u2028\u2029"})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == {"x": "</script><script>alert(1)</script>&amp;\u2028\u2029"}


def test_case_text_is_written_once_per_case(merged):
    # numpy_zero_dim has details in three columns; its YAML is in the page once.
    html = report.render(merged)
    data = Data(html)
    assert sum(data.section("numpy_zero_dim", col) is not None for col in COLUMNS) == 3
    assert html.count("- id: numpy_zero_dim") == 1


def test_checks_that_differ_only_in_variant_share_a_block(data):
    section = data.section("bidirectional_found_i64", "openvino@2024.6.0")
    blocks = section["blocks"]
    assert len(blocks) == 2  # one per dtype: the message names the dtype
    for block in blocks:
        assert block["paths"] == ["opset 3, target_shape Constant", "opset 3, target_shape Parameter"]
        assert len(block["checks"]) == 2


def test_details_show_the_evidence(data):
    def block(case_id, col, variant, dtype):
        node_id = f"{sample.CASES[case_id]['file']}::{case_id}[{col.split('@')[0]}-{variant}-{dtype}]"
        return _block(data.section(case_id, col), node_id)

    wrong_values = block("bidirectional_found_i64", "openvino@2024.6.0", "opset3-const", "i64")
    assert (wrong_values["diff_index"], wrong_values["diff_expected"], wrong_values["diff_actual"]) == (
        "(1, 2, 5)", "7", "0")
    assert (wrong_values["actual_shape"], wrong_values["actual_dtype"]) == ("(2, 3, 6)", "i64")
    crash = block("numpy_zero_dim", "onnxruntime@1.18.1", "opset13-input", "f32")
    assert (crash["stage"], crash["error"]) == ("infer", "signal SIGSEGV (-11)")
    wrong_shape = block("numpy_zero_dim", "openvino@2024.6.0", "opset3-param", "f32")
    assert (wrong_shape["declared_shape"], wrong_shape["expected"]) == ("(?, 1)", "(0, 3) f32")
    adapter = block("explicit_spec_example", "openvino@2025.0.0", "opset3-param", "f32")
    assert 'File "conformance/backends/openvino.py", line 61, in run' in adapter["message"]  # multi-line, whole
    known = block("numpy_rank_too_small", "onnxruntime@1.18.1", "opset13-init", "f32")
    assert known["known"]["label"] == "known difference 1"


def test_a_cases_rows_come_from_its_op(data, merged):
    case = data.case("explicit_spec_example")
    assert (case["op"], case["group"]) == ("Broadcast", "spec_example")
    rows = dict(case["params"])
    assert (rows["mode"], rows["data_shape"], rows["target_shape"], rows["axes_mapping"]) == (
        "explicit", "[16]", "[1, 16, 50, 50]", "[1]")
    # An op this process does not know (a third-party op package): its params as they are, and no mode.
    other = copy.deepcopy(merged)
    other["cases"]["explicit_spec_example"].update(op="tests.an_op_not_imported", params={"size": [2, 3]})
    case = Data(report.render(other)).case("explicit_spec_example")
    assert case["op"] == "tests.an_op_not_imported" and dict(case["params"]) == {"size": "[2, 3]"}
    assert case["mode"] == "-"


def test_known_differences_are_explained_once(page, data):
    entries = page.by_id("known").find_all("details", **{"class": "known-entry"})
    assert len(entries) == 1
    entry = entries[0].words
    assert "ONNX Expand is bidirectional" in entry and "python -c 'import onnx; ...'" in entry
    assert "onnxruntime@1.18.1: 4 checks" in entry
    # The details name the entry, with its reason and link, and leave the reproducer to it.
    assert data.raw["known"] == [{"label": "known difference 1", "anchor": entries[0].attrs["id"],
                                  "reason": data.raw["known"][0]["reason"], "link": sample.KNOWN_LINK,
                                  "href": sample.KNOWN_LINK, "verdict": data.raw["known"][0]["verdict"]}]
    assert "ONNX Expand is bidirectional" in data.raw["known"][0]["reason"]
    assert not any("python -c" in s for s in data.raw["S"])


def test_not_applicable_reasons_are_listed_once_per_reason(data):
    section = data.section("explicit_spec_example", "onnxruntime@1.18.1")
    assert section["blocks"] == []
    [brief] = section["briefs"]
    assert brief["verdict"] == NOT_APPLICABLE and "ONNX Expand has no explicit mode" in brief["reason"]
    assert len(brief["checks"]) == 4


def test_interpretations_are_marked(page, data):
    case = sample.CASES["bidirectional_zero_vs_one"]
    assert [c for c in data.cases if data.case(c)["interp"]] == ["bidirectional_zero_vs_one"]
    assert data.case("bidirectional_zero_vs_one")["interp"] == case["interpretation"]
    assert page.by_id("interpretations").one("h2").words == "Interpretations 1"


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
    assert [li.one("b").text for li in legend] == list(VERDICTS)


def test_incomplete_run_shows_a_banner(merged):
    data = copy.deepcopy(merged)
    data["run"]["complete"] = False
    assert "Incomplete run" in parse(report.render(data)).by_id("incomplete").text


def test_page_is_self_contained(page):
    assert not page.find_all("link")
    assert not page.find_all("img") and not page.find_all("iframe")
    scripts = page.find_all("script")
    assert [s.attrs for s in scripts] == [{"type": "application/json", "id": "report-data"}, {}]
    for node in page.iter():
        for name, value in node.attrs.items():
            if value and ("http://" in value or "https://" in value):
                assert (node.tag, name) == ("a", "href"), f"<{node.tag} {name}={value!r}>"
    style = page.one("style").text
    assert "url(" not in style and "@import" not in style
    assert len({n.attrs["id"] for n in page.find_all(id=True)}) == len(page.find_all(id=True))


def test_page_says_what_needs_javascript(page):
    # Only controls that need the script start hidden; the matrix and details are drawn by it, and say so.
    assert [n.attrs.get("id") for n in page.find_all(hidden=True)] == ["filters", "link-notice", "details-tools"]
    assert "turn it on" in page.one("noscript").text


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
    assert len(tree.find_all("script")) == 2 and not tree.find_all("img")
    assert hostile in Data(html).cases  # kept, as text, for the script to show as text
    assert not [a for a in tree.find_all("a") if a.attrs.get("href", "").startswith("javascript:")]
    known = Data(html).raw["known"]
    assert [(k["link"], k["href"]) for k in known if k["link"] == "javascript:alert(1)"] == [
        ("javascript:alert(1)", None)]  # the link is shown, not followed


def test_unknown_verdict_ranks_worst(merged):
    data = copy.deepcopy(merged)
    data["checks"].append(sample.check("numpy_spec_example", "local", None, "v9", "f32", "mystery"))
    page = Data(report.render(data))
    assert (page.verdicts[0], page.letters[0]) == ("mystery", "?")
    assert [v for *_, v in page.cell("numpy_spec_example", "local")][0] == "mystery"


def test_compare_lists_changes_with_counts():
    new = sample.main_run()
    old = copy.deepcopy(new)
    old["run"]["started"] = "2025-01-20T08:00:00+00:00"
    by_id = {c["id"]: c for c in old["checks"] if c["backend"] == "onnxruntime"}
    crashed = next(c for c in new["checks"] if c["verdict"] == "crash")
    by_id[crashed["id"]]["verdict"] = PASS  # passed before: a new failure
    fixed = next(c for c in new["checks"] if c["verdict"] == PASS and c["backend"] == "onnxruntime")
    by_id[fixed["id"]]["verdict"] = "wrong_values"  # failed before: a fix
    timeout = next(c for c in old["checks"] if c["verdict"] == "timeout")
    timeout["verdict"] = "crash"  # crash -> timeout: another change
    old["checks"].remove(next(c for c in old["checks"] if c["backend"] == "local"))  # added since
    old["checks"].append(sample.check("numpy_spec_example", "local", None, "v0", "f32"))  # removed since
    failing_added = next(c for c in new["checks"] if c["verdict"] == "accepted_invalid")
    old["checks"].remove(next(c for c in old["checks"] if c["id"] == failing_added["id"]))  # added, failing: new

    changes = parse(report.render(new, compare=old)).by_id("changes")
    counts = {li.attrs["data-kind"]: int(li.one("b").text) for li in changes.find_all("li", data_kind=True)}
    assert counts == {"new_failures": 2, "fixes": 1, "changed": 1, "added": 1, "removed": 1}
    assert report.change_counts(new, old) == counts
    failure = changes.by_id("changes-new_failures").one("tr", data_case="numpy_zero_dim", data_col="onnxruntime@1.18.1")
    assert failure.words.startswith("numpy_zero_dim onnxruntime@1.18.1 P pass C crash 1 opset 13, shape input × f32")
    assert failure.one("a").attrs["href"] == "#c~numpy_zero_dim~onnxruntime@1.18.1"
    fix = changes.by_id("changes-fixes").one("tr", data_case=fixed["case"])
    assert (fix.attrs["data-old"], fix.attrs["data-new"]) == ("wrong_values", PASS)
    assert fix.one("a").attrs["href"].startswith("#")  # to its details, or to its row when none are left
    assert "2025-01-20T08:00:00+00:00" in changes.one("h2").text


def test_compare_gathers_a_mass_change_in_matrix_order():
    new = sample.main_run()
    old = copy.deepcopy(new)
    old["run"]["started"] = "2025-01-20T08:00:00+00:00"
    for c in old["checks"]:
        if c["backend"] == "openvino" and c["dtype"] == "i64":
            c["verdict"] = "wrong_values"  # every i64 check of openvino failed before
    changes = parse(report.render(new, compare=old)).by_id("changes")
    rows = changes.by_id("changes-fixes").find_all("tr", data_case=True)
    # In matrix order (by file, then line); numpy_zero_dim's other i64 check went on to time out.
    assert [(r.attrs["data-case"], r.one("td", **{"class": "num"}).text) for r in rows] == [
        ("explicit_spec_example", "2"), ("bidirectional_zero_vs_one", "2"), ("bidirectional_found_i64", "2"),
        ("numpy_spec_example", "2"), ("numpy_rank_too_small", "2"), ("numpy_zero_dim", "1")]
    assert "opset 3, target_shape Constant opset 3, target_shape Parameter × i64" in rows[0].words
    assert changes.by_id("changes-changed").one("tr", data_case="numpy_zero_dim").attrs["data-new"] == "timeout"
    assert not changes.find_all("table", **{"class": "grid per-column"})  # one column changed: no such table


def test_compare_with_an_unusable_file_names_it_in_the_report(tmp_path):
    out = tmp_path / "index.html"
    report.write_report(sample.main_run(), out, compare=tmp_path / "missing.json")
    problem = parse(out.read_text()).by_id("changes-problem").text
    assert "missing.json" in problem and "no such file" in problem
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"format": results.FORMAT, "run": {}, "checks": [{"id": "x"}]}))
    report.write_report(sample.main_run(), out, compare=broken)
    assert "malformed results" in parse(out.read_text()).by_id("changes-problem").text
    results.save(broken, sample.main_run())  # the run's own results: --compare named the --results file
    report.write_report(sample.main_run(), out, compare=broken)
    assert "this run's own" in parse(out.read_text()).by_id("changes-problem").text
    good = tmp_path / "old.json"
    results.save(good, sample.older_run())
    report.write_report(sample.merged(), out, compare=good)
    assert parse(out.read_text()).by_id("changes").find_all("li", data_kind=True)


def test_overview_charts(page):
    for key, names in (("mode", ["numpy", "explicit", "bidirectional"]),
                       ("group", ["spec_example", "rule", "interpretation", "edge", "found"]),
                       ("dtype", ["i64", "f32"])):
        svg = page.by_id(f"chart-{key}").one("svg")
        rows = svg.find_all("g", **{f"data_{key}": True})
        assert [g.attrs[f"data-{key}"] for g in rows] == names
        for g in rows:
            assert [b.attrs["data-col"] for b in g.find_all("g", data_col=True)] == COLUMNS
    numpy = page.by_id("chart-mode").one("g", data_mode="numpy").one("g", data_col="onnxruntime@1.18.1")
    assert "50.0%" in numpy.text and "pass 6, known 4, failing 2 of 12" in numpy.one("title").text


def test_anchors_are_one_to_one_and_link_safe():
    parts = ["a-b", "a:2d:b", "a b", "a~b", "a=b", "é", "x@1.2"]
    anchors = [report.anchor("c", p) for p in parts]
    assert len(set(anchors)) == len(parts)
    for a in anchors:
        assert "=" not in a and a.count("~") == 1 and " " not in a
    assert report.anchor("c", "bi_identity", "openvino@2026.4.1") == "c~bi_identity~openvino@2026.4.1"


def test_long_texts_are_not_repeated_per_check(merged):
    # A large run has hundreds of known-difference checks per entry: the report must not grow with them.
    data = copy.deepcopy(merged)
    reproducer = "import openvino  # " + "x" * 2000
    for c in data["checks"]:
        if c["verdict"] == "known_difference":
            c["known"] = {**c["known"], "id": "ort-expand-bidirectional", "reproducer": reproducer}
    html = report.render(data)
    assert html.count(reproducer) == 1
    assert html.count("- id: numpy_zero_dim") == 1  # the case as written: once, however many cells fail


def test_cli_merges_files_and_writes_the_report(tmp_path, capsys):
    paths = [tmp_path / "old.json", tmp_path / "new.json"]
    results.save(paths[0], sample.older_run())
    results.save(paths[1], sample.main_run())
    out = tmp_path / "reports" / "index.html"
    assert main(["report", *map(str, paths), "-o", str(out), "--compare", str(paths[0])]) == 0
    printed = capsys.readouterr().out
    assert printed.splitlines()[0] == str(out)
    assert "onnxruntime@1.18.1: 12/20 pass (60.0%), 4 failing, 4 known, 4 not run" in printed
    # the other file's checks are added since, its 8 failing ones new failures
    assert printed.splitlines()[-1].startswith("  since 2025-01-10T09:00:00+00:00: 8 new failures, 0 fixes")
    matrix = parse(out.read_text()).by_id("matrix")
    assert [th.attrs["data-col"] for th in matrix.find_all("th", data_col=True)] == COLUMNS


@pytest.mark.parametrize(("content", "problem"), [
    (None, "no such file"),
    ("{not json", "not a results file"),
    (json.dumps({"format": "something-else/1"}), "not a results file"),
    (json.dumps({"format": results.FORMAT}), "malformed results"),
    ("[" * 100_000 + "]" * 100_000, "not a results file: nested too deeply to read"),
    (json.dumps([1, 2]), "not a results file"),
    ('{"format": NaN}', "malformed results: NaN is no number a results file holds"),
    ('{"header": {"run": {}}}\nnot json\n{"footer": {"complete": true}}\n',
     "malformed results: line 2 of the stream is not an entry: 'not json\\n'"),
    ('{"header": {"run": {}}}\n[1]\n', "malformed results: line 2 of the stream is not an entry"),
])
def test_cli_refuses_a_bad_file_with_status_2(tmp_path, capsys, content, problem):
    """Whatever the file holds, a one-line error with status 2 and no page, never a traceback."""
    bad = tmp_path / ("bad.jsonl" if content and content.startswith('{"header"') else "bad.json")
    if content is not None:
        bad.write_text(content)
    out = tmp_path / "index.html"
    assert main(["report", str(bad), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert problem in err and str(bad) in err
    assert not out.exists()


@pytest.mark.parametrize("constant", ["Infinity", "-Infinity", "NaN"])
def test_cli_refuses_a_results_file_with_a_number_json_has_not(tmp_path, capsys, constant):
    """A results file whose numbers were changed to Infinity or NaN (JSON has neither; Python's json reads them):
    rendering it ended in an OverflowError traceback. Now the one-line error."""
    path = tmp_path / "r.json"
    results.save(path, sample.main_run())
    text = path.read_text()
    assert '"wall_time": ' in text
    path.write_text(re.sub(r'"wall_time": [0-9.]+', f'"wall_time": {constant}', text, count=1))
    out = tmp_path / "index.html"
    assert main(["report", str(path), "-o", str(out)]) == 2
    assert f"malformed results: {constant} is no number a results file holds" in capsys.readouterr().err
    assert not out.exists()


def test_python_dash_m_runs_the_cli(tmp_path):
    path = tmp_path / "r.json"
    results.save(path, sample.main_run())
    out = tmp_path / "index.html"
    done = subprocess.run([sys.executable, "-m", "conformance", "report", str(path), "-o", str(out)],
                          capture_output=True, text=True, cwd=Path(__file__).parents[1], check=False)
    assert done.returncode == 0, done.stderr
    assert out.read_text().startswith("<!DOCTYPE html>")
