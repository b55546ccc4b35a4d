"""The report's overview by origin (case group, and a row per upstream suite) and its benchmark section."""

from __future__ import annotations

import json

import sample_results as sample
from test_report import Node, parse

from conformance import report


def _with_class(node: Node, tag: str, cls: str) -> list[Node]:
    return [n for n in node.find_all(tag) if cls in (n.attrs.get("class") or "").split()]


def _origin_page() -> Node:
    return parse(report.render(sample.with_upstream()))


def test_overview_by_origin_has_a_row_per_group_and_per_upstream_suite():
    table = _origin_page().by_id("overview-group")
    groups = [tr.attrs["data-group"] for tr in table.find_all("tr", data_group=True)]
    assert groups == ["spec_example", "rule", "interpretation", "edge", "upstream", "found"]
    suites = [tr.attrs["data-suite"] for tr in table.find_all("tr", data_suite=True)]
    assert sorted(suites) == sorted([sample.SUITE_OV, sample.SUITE_ORT])


def test_a_case_from_two_suites_counts_in_each():
    table = _origin_page().by_id("overview-group")
    ov = table.one("tr", data_suite=sample.SUITE_OV)
    ort = table.one("tr", data_suite=sample.SUITE_ORT)
    # up_type_prop and up_both come from the OpenVINO suite, up_expand_3x1 and up_both from ONNX Runtime's.
    # openvino@2025.0.0 has one wrong_values (up_type_prop, f32) among them; pass / known / failing / n.a.
    assert ov.one("td", data_col="openvino@2025.0.0").words.split()[-7:] == \
        [str(n) if isinstance(n, int) else n for n in ov_counts()]
    # up_both is a known difference on onnxruntime@1.18.1 for every variant and dtype: counted in both suites
    assert ort.one("td", data_col="onnxruntime@1.18.1").words.split()[3] == \
        ov.one("td", data_col="onnxruntime@1.18.1").words.split()[3] != "0"


def ov_counts() -> list[object]:
    run = sample.with_upstream()
    mine = [c for c in run["checks"] if c["case"] in ("up_type_prop", "up_both") and c["backend"] == "openvino"
            and c["backend_version"] == "2025.0.0"]
    verdicts = [c["verdict"] for c in mine]
    passed, known = verdicts.count("pass"), verdicts.count("known_difference")
    na = sum(v in ("not_applicable", "skipped") for v in verdicts)
    return [passed, "/", known, "/", len(verdicts) - passed - known - na, "/", na]


def test_the_suite_link_filters_the_matrix_to_its_cases():
    table = _origin_page().by_id("overview-group")
    link = table.one("tr", data_suite=sample.SUITE_ORT).one("a")
    assert link.attrs["href"].startswith("#group=upstream&suite=")


def test_bench_section_charts_every_pattern_and_judges_the_targets():
    page = parse(report.render(sample.main_run(), bench=sample.bench(), bench_source="bench.json (written now)"))
    section = page.by_id("bench")
    figures = _with_class(section, "figure", "bench-figure")
    assert len(figures) == len(sample.BENCH_GBPS)
    for fig in figures:
        assert fig.find_all("svg")  # a chart, inline
    assert "bench.json (written now)" in section.text
    targets = section.by_id("bench-targets")
    judged = _with_class(targets, "p", "target") + _with_class(targets, "div", "target")
    assert judged and {n.attrs["class"].split()[-1] for n in judged} <= {"met", "unmet"}
    # the wrong bytes of local_fresh (outer, 1 MiB) are shown, not hidden
    assert "wrong" in section.text.lower() or "incorrect" in section.text.lower()


def test_an_unusable_bench_file_is_named_and_the_report_still_written(tmp_path):
    bad = tmp_path / "bench.json"
    bad.write_text("{not json")
    out = tmp_path / "index.html"
    report.write_report(sample.main_run(), out, bench=bad)
    problem = parse(out.read_text()).by_id("bench-problem")
    assert str(bad) in problem.text
    good = tmp_path / "good.json"
    good.write_text(json.dumps(sample.bench()))
    report.write_report(sample.main_run(), out, bench=good)
    assert _with_class(parse(out.read_text()).by_id("bench"), "figure", "bench-figure")
