"""Nothing in a results file is ever markup: every string of a results file (case ids and descriptions,
runtime error messages, values, versions, package names, links...) is poisoned with script and markup, and
the report must show it as text, in the parsed HTML and in a real browser."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import sample_results as sample

from conformance import report

PAYLOAD = ('<script>window.__pwned="{tag}"</script><img src=x onerror="window.__pwned=\'{tag}\'">'
           '"><svg onload="window.__pwned=1"></svg><a href="javascript:window.__pwned=1">x</a>')
KEEP = {"format", "verdict"}  # the only strings whose meaning the report needs


def poison(value: Any, path: str = "") -> Any:
    if isinstance(value, dict):
        return {(k if k in KEEP or not path.endswith("packages") else k + PAYLOAD.format(tag=f"{path}.key")):
                (v if k in KEEP else poison(v, f"{path}.{k}")) for k, v in value.items()}
    if isinstance(value, list):
        return [poison(v, f"{path}[]") for v in value]
    if isinstance(value, str):
        return value + PAYLOAD.format(tag=path)
    return value


def hostile_results() -> dict[str, Any]:
    data = poison(sample.main_run())
    # case ids are keys of `cases` and values of each check's `case`: rename them consistently
    rename = {case_id: case_id + PAYLOAD.format(tag="case-id") for case_id in data["cases"]}
    data["cases"] = {rename[k]: v for k, v in data["cases"].items()}
    for check in data["checks"]:
        check["case"] = rename.get(check["case"].split("<", 1)[0], check["case"])
    data["format"] = sample.FORMAT
    first = data["checks"][0]
    first.update(verdict="known_difference", known={"id": PAYLOAD.format(tag="known.id"),
                                                    "reason": PAYLOAD.format(tag="known.reason"),
                                                    "link": "javascript:window.__pwned=1",
                                                    "reproducer": PAYLOAD.format(tag="known.reproducer"),
                                                    "verdict": "wrong_values", "match": {}, "where": "x"})
    data["checks"][1].update(verdict="wrong_values", first_diff={"index": [0], "expected": PAYLOAD.format(tag="e"),
                                                                 "actual": PAYLOAD.format(tag="a")})
    data["checks"][2].update(verdict="crash", looks_like=[  # the first names the known entry above: a link to it
        {k: PAYLOAD.format(tag=f"looks_like.{k}") for k in ("id", "differs_in", "entry", "check", "verdict", "where")}
        | {"id": PAYLOAD.format(tag="known.id")},
        {k: PAYLOAD.format(tag=f"looks_like.{k}") for k in ("id", "differs_in", "entry", "check", "verdict", "where")}])
    return data


class Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))


def test_every_string_is_escaped_in_the_html(tmp_path: Path) -> None:
    html = report.render(hostile_results())
    parser = Elements()
    parser.feed(html)
    tags = [t for t, _ in parser.tags]
    # The page's data, inert JSON, and the report's own script: nothing from the results.
    assert [attrs for t, attrs in parser.tags if t == "script"] == [[("type", "application/json"),
                                                                      ("id", "report-data")], []]
    # The data holds every string of the results, and no "<" that could end its element or start markup.
    start = html.index('<script type="application/json" id="report-data">')
    data = html[html.index(">", start) + 1:html.index("</script>", start)]
    assert "<" not in data and ">" not in data and "&" not in data
    assert json.dumps(json.loads(data)).count("<script>window.__pwned") > 50  # read back as text
    assert not {"img", "iframe", "object", "embed"} & set(tags)  # (the report draws its charts as inline svg)
    for tag, attrs in parser.tags:
        for name, value in attrs:
            assert not name.startswith("on"), (tag, name, value)
            assert not (value or "").strip().lower().startswith("javascript:"), (tag, name, value)
    assert html.count("&lt;script&gt;window.__pwned") > 50  # shown, as text


def test_nothing_runs_in_a_browser(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="the Python package 'playwright' is not installed")
    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        pytest.skip(f"{chromium} is missing (apt-get install chromium)")
    path = tmp_path / "hostile.html"
    report.write_report(hostile_results(), path)
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--no-first-run"]
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(chromium), args=args)
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(path.as_uri() + "#q=" + "%3Cscript%3E")
        for button in page.locator("button").all():  # expand everything there is to expand
            if button.is_visible():
                button.click()
        for summary in page.locator("details > summary").all()[:200]:
            if summary.is_visible():
                summary.click()
        page.fill("#filters input[name=q]", "<img src=x onerror=window.__pwned=1>")
        page.wait_for_timeout(300)
        assert page.evaluate("typeof window.__pwned") == "undefined"
        hostile = "img, iframe, object, embed, [onload], [onerror], a[href^='javascript']"
        assert page.evaluate(f"document.querySelectorAll({hostile!r}).length") == 0
        assert "window.__pwned" in page.evaluate("document.body.innerText")
        page.screenshot(path=str(tmp_path / "hostile.png"))
        assert errors == []
        browser.close()


def test_the_report_imports_no_module_a_results_file_names(tmp_path, monkeypatch):
    # An op is a module path (conformance.ops.get imports it): a results file naming one must not run its code.
    (tmp_path / "planted_op.py").write_text("import pathlib\npathlib.Path(__file__).with_name('ran').touch()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    data = sample.main_run()
    for case in data["cases"].values():
        case["op"] = "planted_op"
    html = report.render(data)
    assert not (tmp_path / "ran").exists() and "planted_op" in html
