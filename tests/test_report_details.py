"""What the report's details say, built in Python: a runtime's error by its key line, the spec's public pages, the
command that ran. (What a reader sees of them in a browser: tests/test_browser.py.)"""

from __future__ import annotations

import copy
import json

import pytest
import sample_results as sample
from test_report import parse

from conformance import report
from conformance.report import specs
from conformance.report.text import key_line, told

OV_ERROR = ("Exception from src/inference/src/cpp/infer_request.cpp:224:\n"
            "Exception from src/plugins/intel_cpu/src/node.cpp:823:\n"
            "[CPU] Multiply node with name 'broadcast' Exception from src/plugins/intel_cpu/src/nodes/kernels/x64/"
            "jit_uni_eltwise_generic.cpp:602:\nunsupported src_prc: f8e4m3\n\n\n")
OV_CHECK = ("Exception from src/core/src/node.cpp:637:\n"
            "Check 'false' failed at src/core/src/op/util/broadcast_base.cpp:258:\n"
            "While validating node 'opset3::Broadcast Broadcast_1 (a[0]:f32[2,3]) -> (dynamic...)' with "
            "friendly_name 'Broadcast_1':\nBroadcast incorrect target shape. Expecting either 1 or 3. Got 2\n")


@pytest.mark.parametrize(("error", "line"), [
    (OV_ERROR, "unsupported src_prc: f8e4m3"),
    (OV_CHECK, "Broadcast incorrect target shape. Expecting either 1 or 3. Got 2"),
    ("adapter failed: TypeError: 'NoneType' object is not subscriptable\n"
     "  File \"conformance/backends/openvino.py\", line 61, in run", "adapter failed: TypeError: 'NoneType' object is "
                                                                       "not subscriptable"),
    ("Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\nValueError: bad\n", "ValueError: bad"),
    ("Exception from src/inference/src/cpp/core.cpp:9:\n", "Exception from src/inference/src/cpp/core.cpp:9:"),
    ("one line", "one line"),
])
def test_the_key_line_of_an_error_says_what_not_where(error, line):
    assert key_line(error) == line


def test_a_message_quotes_a_multi_line_error_by_its_key_line():
    message = f"rejected at infer: {OV_ERROR}, but should give shape (2, 3)"
    assert told(message, OV_ERROR) == "rejected at infer: unsupported src_prc: f8e4m3, but should give shape (2, 3)"
    assert told(message, "a one-line error") == message  # nothing to shorten, or not quoted
    assert told("known difference x: its reason", OV_ERROR) == "known difference x: its reason"


def _page_data(data: dict) -> dict:
    html = report.render(data)
    start = html.index('<script type="application/json" id="report-data">') + len(
        '<script type="application/json" id="report-data">')
    return json.loads(html[start:html.index("</script>", start)])


def test_the_pages_evidence_holds_the_key_line_and_the_error_once():
    data = sample.main_run()
    c = next(c for c in data["checks"] if c["verdict"] == "crash")
    c["actual"]["error"] = OV_ERROR
    c["message"] = f"rejected at infer: {OV_ERROR}, but should give shape (0, 3)"
    page = _page_data(data)
    S = page["S"]
    [ev] = [e for e in page["ev"] if S[e[7]] == OV_ERROR]
    assert S[ev[2]] == "rejected at infer: unsupported src_prc: f8e4m3, but should give shape (0, 3)"
    assert S[ev[7]] == OV_ERROR and S[ev[16]] == "unsupported src_prc: f8e4m3"
    assert sum(OV_ERROR in s for s in S) == 1


@pytest.mark.parametrize(("spec_ref", "mode", "links"), [
    ("000_ece0cbba5cb063a0.txt#Detailed description (explicit)", "explicit",
     [["OpenVINO Broadcast-3", specs.BROADCAST_3]]),
    ("001_3e6cf45f37fe0ec2.txt#Inputs", "numpy", [["OpenVINO Broadcast-1", specs.BROADCAST_1]]),
    ("002_2059dcf659ca5970.txt", "numpy", [["OpenVINO Broadcast-1", specs.BROADCAST_1]]),
    ("003_38ca088f58e9a6c7.txt#Rules (Bidirectional broadcast, rule 3)", "bidirectional",
     [["OpenVINO broadcast rules", specs.BROADCAST_RULES], ["ONNX Expand", specs.ONNX_EXPAND]]),
    ("004_f535a019e64b3d53.txt#Broadcast", "numpy", []),  # nGraph v0: no public page
    (None, None, []),
])
def test_spec_references_link_to_the_public_pages(spec_ref, mode, links):
    assert specs.spec_links(spec_ref, mode) == links


def test_the_public_pages_are_those_the_issue_names():
    assert specs.BROADCAST_1 == ("https://docs.openvino.ai/2024/documentation/openvino-ir-format/operation-sets/"
                                 "operation-specs/movement/broadcast-1.html")
    assert specs.BROADCAST_RULES.endswith("/operation-specs/broadcast-rules.html")
    assert specs.ONNX_EXPAND == "https://onnx.ai/onnx/operators/onnx__Expand.html"


def test_every_spec_file_the_cases_cite_has_a_page_or_is_v0():
    from pathlib import Path

    import yaml
    cited = set()
    for path in (Path(__file__).resolve().parents[1] / "cases").rglob("*.yaml"):
        for case in (yaml.safe_load(path.read_text()) or {}).get("cases") or []:
            cited.add(str(case.get("spec_ref", "")).split("#")[0])
    assert cited - set(specs.PAGES) <= {"004_f535a019e64b3d53.txt"}


def test_the_page_data_gives_each_case_its_spec_links():
    page = _page_data(sample.main_run())
    links = {i: [page["specs"][k] for k in ks] for i, ks in zip(page["case"]["id"], page["case"]["specL"], strict=True)}
    assert links["bidirectional_zero_vs_one"] == [["OpenVINO Broadcast-3", specs.BROADCAST_3],
                                                  ["ONNX Expand", specs.ONNX_EXPAND]]
    assert links["numpy_zero_dim"] == [["OpenVINO Broadcast-3", specs.BROADCAST_3]]


def test_the_header_shows_the_command_that_ran():
    data = sample.main_run()
    data["run"]["command"] = "python3 -m pytest conformance -n auto"
    command = parse(report.render(data)).by_id("command")
    assert command.find_all("code")[0].text == "python3 -m pytest conformance -n auto"
    assert "does not record" not in command.text


def test_a_file_without_the_command_shows_pytests_arguments_as_such():
    data = copy.deepcopy(sample.main_run())
    data["run"].pop("command", None)
    command = parse(report.render(data)).by_id("command")
    assert command.find_all("code")[0].text == "pytest -n 8 --results reports/results.json"
    assert "pytest's arguments: this results file does not record the command line" in command.text
