"""How fast the report page is in Chromium: opening it, applying filters, "Expand all" and following a #check=
link, each the median of several runs, judged against the targets (open < 2 s, any filter < 200 ms).

    python3 -m bench.synthetic_results --checks 200000 -o /tmp/synthetic.json
    python3 -m conformance report /tmp/synthetic.json -o /tmp/synthetic.html
    python3 -m bench.report_speed /tmp/synthetic.html --results /tmp/synthetic.json

Times are wall-clock on this machine, in a headless Chromium (Debian's /usr/bin/chromium) at 1440 x 900:
"open" from navigation until the filter bar is shown (the page's script has run and drawn the page) and the next
frame, a filter (with the matrix in view) from the change of a control until the page has been laid out again and
the next frame, and a #check= link from navigation until the check
is shown, marked. Exit status 1 when a median misses its target (a shared machine is noisy: run it again).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import quote

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
TARGETS = {"open": 2.0, "filter": 0.2}
# Filters a reader applies, one after the other (control name, value or the index of an option); each is timed.
FILTERS = (("v", "failing"), ("dtype", "f32"), ("v", ""), ("q", "syn_"), ("mode", "explicit"), ("v", "nonpass"),
           ("col", 1), ("variant", 2), ("dtype", ""), ("q", ""), ("mode", ""), ("col", ""), ("variant", ""),
           ("v", ""))

# Set a control, fire its events and force the layout the change causes, then wait for the next frame.
_CHANGE = """async ([name, value]) => {
  const el = document.querySelector('#filters [name="' + name + '"]');
  if (!el) return null;
  if (typeof value === 'number') value = el.options[value] ? el.options[value].value : null;
  if (value === null || (el.tagName === 'SELECT' && value && !Array.from(el.options).some((o) => o.value === value))) {
    return null;
  }
  const t0 = performance.now();
  el.value = value;
  el.dispatchEvent(new Event(el.tagName === 'SELECT' ? 'change' : 'input', {bubbles: true}));
  document.body.getBoundingClientRect(); void document.body.scrollHeight;
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  return (performance.now() - t0) / 1000;
}"""
_EXPAND = """async () => {
  const b = document.querySelector('#details-tools button[data-open="true"]');
  const t0 = performance.now();
  b.click();
  document.body.getBoundingClientRect(); void document.body.scrollHeight;
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  return (performance.now() - t0) / 1000;
}"""


def check_to_link(results: Path) -> str | None:
    """The id of a check with details in a results file, to follow a #check= link to: a failing one, else a known
    difference (a default run fails nowhere)."""
    checks = json.loads(results.read_text(encoding="utf-8"))["checks"]
    failing = (c["id"] for c in checks if c["verdict"] not in ("pass", "not_applicable", "skipped", "known_difference"))
    known = (c["id"] for c in checks if c["verdict"] == "known_difference")
    return next(failing, None) or next(known, None)


def measure(page_path: Path, check_id: str | None, runs: int) -> dict[str, list[float]]:
    from playwright.sync_api import sync_playwright

    times: dict[str, list[float]] = {"open": [], "filter": [], "filter (slowest)": [], "expand all": [],
                                     "#check= link": []}
    url = page_path.resolve().as_uri()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for _ in range(runs):
            context = browser.new_context(viewport={"width": 1440, "height": 900})
            page = context.new_page()
            start = time.perf_counter()
            page.goto(url, timeout=120_000)
            page.wait_for_selector("#filters:not([hidden])", timeout=120_000)
            page.evaluate("() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))")
            times["open"].append(time.perf_counter() - start)
            page.evaluate("document.getElementById('matrix').scrollIntoView()")  # a reader filters the matrix
            took = [t for f in FILTERS if (t := page.evaluate(_CHANGE, list(f))) is not None]
            times["filter"].append(statistics.median(took))
            times["filter (slowest)"].append(max(took))
            times["expand all"].append(page.evaluate(_EXPAND))
            context.close()
            if check_id:
                context = browser.new_context(viewport={"width": 1440, "height": 900})
                page = context.new_page()
                start = time.perf_counter()
                page.goto(url + "#check=" + quote(check_id), timeout=120_000)
                page.locator("#details .linked").first.wait_for(state="visible", timeout=120_000)
                times["#check= link"].append(time.perf_counter() - start)
                context.close()
        browser.close()
    return {k: v for k, v in times.items() if v}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("page", type=Path)
    parser.add_argument("--results", type=Path, help="the results file of the page, to pick a check to link to")
    parser.add_argument("--check", help="the id of a check with details, for the #check= link")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    check_id = args.check or (check_to_link(args.results) if args.results else None)
    times = measure(args.page, check_id, args.runs)
    print(f"{args.page}: {args.page.stat().st_size / 1e6:.1f} MB, medians of {args.runs} runs")
    missed = False
    for name, values in times.items():
        target = TARGETS.get(name.split(" ")[0] if name != "filter (slowest)" else "filter")
        median = statistics.median(values)
        over = target is not None and median > target
        missed |= over
        print(f"  {name:18} {median * 1000:8.0f} ms   (runs: {', '.join(f'{v * 1000:.0f}' for v in values)})"
              + (f"   target < {target * 1000:.0f} ms: {'MISSED' if over else 'met'}" if target else ""))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
