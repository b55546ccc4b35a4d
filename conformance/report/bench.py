"""The benchmark section of the report: a bench file (bench/broadcast_bench.py, reports/bench.json) as plain data
for templates/_bench.html.j2. Per pattern: the points of a chart of GB/s against output size, a table of medians,
GB/s and ratios to the fill limit, and the speed targets as the bench judged them.

Numbers are formatted and chart coordinates computed here; the markup is in the template. Every string of a
bench file is untrusted text, as everything of a results file is, and a number that is not one shows as "—".
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from conformance.report import text

# The table's rows, in this order (keys a bench file has beyond these follow, by name). The limits are the fill
# limit's two ways (the limit is the faster) and the allocating fill a fresh output can hope for at best.
IMPLS = {"local_out": "local out=", "local_fresh": "local fresh", "local_view": "local view (writes nothing)",
         "local_out_1t": "local out=, 1 thread", "local_fresh_1t": "local fresh, 1 thread",
         "numpy_copy": "numpy broadcast_to().copy()", "numpy_copyto": "numpy copyto(out, …)",
         "openvino": "OpenVINO", "openvino_out": "OpenVINO into our array", "onnxruntime": "ONNX Runtime",
         "onnxruntime_iobind": "ONNX Runtime io_binding", "limit_fill": "limit: fill",
         "limit_copyto": "limit: copyto of a value", "limit_fresh": "np.empty + fill per call"}
LIMIT = "fill_limit"  # not an implementation: per case, the faster of limit_fill and limit_copyto
# The chart's series and how each looks apart from its colour: a marker shape and a dash pattern.
SERIES = (("local_out", "local out=", "circle", ""), ("local_fresh", "local fresh", "square", "7 3"),
          ("local_view", "local view", "diamond", "1 3"), ("numpy_copy", "numpy .copy()", "triangle", "5 2 1 2"),
          ("openvino", "OpenVINO", "down", "3 2"), ("onnxruntime", "ONNX Runtime", "cross", "10 3"),
          (LIMIT, "fill limit", "bar", "2 2"))
# The targets the bench judges (bench.broadcast_bench.targets), on the medians; None where one does not apply.
TARGETS = (("out_at_least_0.9_limit", "out= ≥ 0.9 × fill limit", "outputs from 1 MiB"),
           ("fresh_at_least_best_peer", "fresh ≥ the best peer", "outputs from 1 MiB"),
           ("tiny_no_slower_than_numpy_copy", "fresh and out= ≥ numpy .copy()", "4 KiB outputs"))
PEERS = {"numpy_copy": "numpy .copy()", "openvino": "OpenVINO", "onnxruntime": "ONNX Runtime",
         "numpy_copyto": "numpy copyto", "openvino_out": "OpenVINO into our array",
         "onnxruntime_iobind": "ONNX Runtime io_binding"}
# Chart geometry (px): the plot area sits inside the margins; every chart has the same axes.
WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 330, 214, 46, 12, 14, 40


def _number(value: Any) -> float | None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    return float(value) if ok else None


def _rate(value: float | None) -> str:
    """GB/s or a ratio: three significant figures, thousands grouped (a view's nominal GB/s runs to 10**5)."""
    if value is None:
        return "—"
    return f"{value:.2f}" if abs(value) < 10 else f"{value:.1f}" if abs(value) < 100 else f"{value:,.0f}"


def _seconds(value: float | None) -> str:
    if value is None:
        return "—"
    unit, scale = next(((u, x) for u, x in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)) if value >= x), ("ns", 1e-9))
    return f"{value / scale:#.3g}".rstrip(".") + f" {unit}"


def _size(size: int, short: bool = False) -> str:
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if size >= 1 << shift and size % (1 << shift) == 0:
            return f"{size >> shift}{unit}" if short else f"{size >> shift} {unit}iB"
    return f"{size}" if short else f"{size} B"


def _ticks(top: float) -> tuple[float, list[float]]:
    """A round top of the y axis at or above `top`, and 3 to 6 ticks from 0 to it."""
    top = max(top, 1e-9)
    magnitude = 10 ** math.floor(math.log10(top))
    step = next(m * magnitude for m in (0.2, 0.5, 1, 2, 5, 10) if top / (m * magnitude) <= 5)
    end = math.ceil(top / step - 1e-9) * step
    return end, [i * step for i in range(round(end / step) + 1)]


def _series_value(result: dict[str, Any], key: str) -> tuple[float | None, float | None, float | None]:
    """(median seconds, GB/s, ratio to the fill limit) of one series in one case."""
    if key == LIMIT:
        return _number(result.get("limit_s")), _number(result.get("limit_gbps")), 1.0
    impl = result["impls"].get(key)
    if not isinstance(impl, dict):
        return None, None, None
    return _number(impl.get("median_s")), _number(impl.get("gbps")), _number(impl.get("ratio_to_limit"))


def _target_views(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The targets that apply to one case, each with the numbers it was judged on."""
    targets = result.get("targets")
    if not isinstance(targets, dict):
        return []
    ratio = {key: _series_value(result, key)[2] for key in ("local_out", "local_fresh", "numpy_copy")}
    out = []
    for key, label, _ in TARGETS:
        met = targets.get(key)
        if not isinstance(met, bool):
            continue
        if key == "out_at_least_0.9_limit":
            # three decimals: 0.897 must not read as 0.90 beside "not met"
            out_ratio = ratio["local_out"]
            detail = f"out= at {'—' if out_ratio is None else f'{out_ratio:.3f}'}× the fill limit"
        elif key == "fresh_at_least_best_peer":
            peer = targets.get("fresh_best_peer")
            detail = (f"fresh at {_rate(_number(targets.get('fresh_speedup_vs_best_peer')))}× "
                      f"{PEERS.get(str(peer), str(peer))}")
        else:
            numpy = ratio["numpy_copy"]
            detail = " and ".join(f"{name} at {_rate(r / numpy if r is not None and numpy else None)}×"
                                  for name, r in (("fresh", ratio["local_fresh"]), ("out=", ratio["local_out"])))
            detail += " numpy .copy()"
        out.append({"key": key, "label": label, "met": met, "detail": detail})
    return out


def _chart(rows: list[dict[str, Any]], x_of: dict[int, float], y_top: float) -> list[dict[str, Any]]:
    """The lines of one pattern's chart, in plot coordinates; a point above the axis is drawn where the line
    leaves the plot and marked `off` (the view's nominal GB/s: it writes no bytes)."""
    height = HEIGHT - TOP - BOTTOM
    lines = []
    for i, (key, label, shape, dash) in enumerate(SERIES):
        points = []
        for r in rows:
            median, gbps, ratio = _series_value(r, key)
            if gbps is None:
                continue
            y = height * (1 - gbps / y_top)
            points.append({"x": round(x_of[r["size_bytes"]], 1), "y": round(y, 1), "off": gbps > y_top,
                           "title": f"{label} · {_size(r['size_bytes'])}: {_rate(gbps)} GB/s, "
                                    f"{_rate(ratio)}× fill limit, median {_seconds(median)}"})
        if points:
            lines.append({"key": key, "label": label, "index": i, "shape": shape, "dash": dash,
                          "points": " ".join(f"{p['x']},{p['y']}" for p in points), "marks": points})
    return lines


def _table(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of implementations (the fill limit just before the limits it comes from), a cell per size."""
    keys = [k for k in IMPLS if any(k in r["impls"] for r in rows)]
    keys += sorted({k for r in rows for k in r["impls"]} - set(keys))
    at = next((i for i, k in enumerate(keys) if k.startswith("limit_")), len(keys))
    out = []
    for key in [*keys[:at], LIMIT, *keys[at:]]:
        cells = []
        for r in rows:
            median, gbps, ratio = _series_value(r, key)
            impl = r["impls"].get(key)
            skipped = r["skipped"].get(key) if isinstance(r.get("skipped"), dict) else None
            cells.append({"median": _seconds(median), "gbps": _rate(gbps), "ratio": _rate(ratio),
                          "missing": gbps is None, "skipped": skipped,
                          "wrong": isinstance(impl, dict) and impl.get("correct") is False})
        note = next((r["impls"][key].get("note") for r in rows if isinstance(r["impls"].get(key), dict)), None)
        out.append({"key": key, "label": "fill limit (the faster of the two limits below)" if key == LIMIT
                    else IMPLS.get(key, key), "note": note, "limit": key == LIMIT, "cells": cells})
    return out


def _shapes(result: dict[str, Any]) -> str:
    axes = result.get("axes_mapping")
    return " ".join(x for x in (
        f"data {text.shape(result.get('data_shape'))} → {text.shape(result.get('target_shape'))}",
        f"axes_mapping {text.shape(axes)}" if axes is not None else "",
        f"{result['repeats']} repeats" if isinstance(result.get("repeats"), int) else "") if x)


def _meta(meta: dict[str, Any], source: str | None) -> list[tuple[str, str]]:
    versions = meta.get("versions")
    if not isinstance(versions, dict):
        versions = {}
    load = [meta.get(k) for k in ("loadavg_before", "loadavg_after")]
    items = [("Machine", " · ".join(str(x) for x in (meta.get("machine"), meta.get("cpus") and
                                                       f"{meta['cpus']} CPUs") if x)),
             ("Threads of local", str(meta.get("local_threads") or "")),
             ("Element type", str(meta.get("dtype") or "")),
             ("Versions", " · ".join(f"{k} {v}" for k, v in versions.items() if v)),
             ("Bench took", text.duration(_number(meta.get("seconds"))) or ""),
             ("Load average", " → ".join(" ".join(f"{x:.2f}" for x in v if _number(x) is not None)
                                         for v in load if isinstance(v, list)) + " (before → after; 1, 5, 15 min)"
              if all(isinstance(v, list) for v in load) else ""),
             ("Command", " ".join(["python -m bench.broadcast_bench", *map(str, meta.get("argv") or [])])
              if isinstance(meta.get("argv"), list) else ""),
             ("Method", str(meta.get("method") or "")), ("File", source or "")]
    return [(k, v) for k, v in items if v]


def results_of(bench: Any) -> list[dict[str, Any]]:
    """The usable cases of a bench file (pattern, size, impls); ValueError naming what is wrong with it."""
    if not isinstance(bench, dict) or not isinstance(bench.get("results"), list):
        raise ValueError("not a bench file: no 'results' list")
    rows = [r for r in bench["results"] if isinstance(r, dict) and isinstance(r.get("pattern"), str)
            and isinstance(r.get("size_bytes"), int) and r["size_bytes"] > 0 and isinstance(r.get("impls"), dict)]
    if len(rows) != len(bench["results"]):
        raise ValueError("malformed bench file: a result without its pattern, size_bytes or impls")
    if not rows:
        raise ValueError("the bench file holds no results")
    return rows


def _summary(patterns: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    judged = [t for p in patterns for ts in p["targets"] for t in ts]
    return [{"label": label, "when": when, "met": sum(t["met"] for t in judged if t["key"] == key),
             "total": sum(1 for t in judged if t["key"] == key)}
            for key, label, when in TARGETS if any(t["key"] == key for t in judged)]


def view(bench: Any, source: str | None = None) -> dict[str, Any]:
    """The template's data for a bench file (a dict from its JSON); ValueError if it is not one."""
    rows = results_of(bench)
    sizes = sorted({r["size_bytes"] for r in rows})
    width = WIDTH - LEFT - RIGHT
    low, high = math.log2(sizes[0]), math.log2(sizes[-1])
    x_of = {s: width * ((math.log2(s) - low) / (high - low) if high > low else 0.5) for s in sizes}
    # One y axis for every chart, to the fastest series that writes its output (the view writes nothing).
    y_top, y_ticks = _ticks(max([g for r in rows for key, *_ in SERIES if key != "local_view"
                                 for g in [_series_value(r, key)[1]] if g is not None] or [1.0]))
    plot_h = HEIGHT - TOP - BOTTOM
    patterns = []
    for i, name in enumerate(dict.fromkeys(r["pattern"] for r in rows)):
        # The last result of each size wins (a file should have one).
        mine = sorted({r["size_bytes"]: r for r in rows if r["pattern"] == name}.values(),
                      key=lambda r: r["size_bytes"])
        first = mine[0]
        patterns.append({
            "name": name, "anchor": f"bench-{i}", "description": first.get("description"),
            "sizes": [_size(r["size_bytes"]) for r in mine], "size_bytes": [r["size_bytes"] for r in mine],
            "shapes": [_shapes(r) for r in mine],
            "lines": _chart(mine, x_of, y_top), "table": _table(mine),
            "targets": [_target_views(r) for r in mine],
            "wrong": [f"{IMPLS.get(k, k)} at {_size(r['size_bytes'])}" for r in mine
                      for k, impl in r["impls"].items() if isinstance(impl, dict) and impl.get("correct") is False]})
    meta = bench.get("meta") if isinstance(bench.get("meta"), dict) else {}
    return {
        "meta": _meta(meta, source), "summary": _summary(patterns), "patterns": patterns,
        "sizes": [_size(s) for s in sizes], "size_bytes": sizes,
        "series": [{"key": k, "label": label, "index": i, "shape": shape, "dash": dash}
                   for i, (k, label, shape, dash) in enumerate(SERIES)],
        "chart": {"width": WIDTH, "height": HEIGHT, "left": LEFT, "top": TOP, "plot_w": width, "plot_h": plot_h,
                  "x": [{"x": round(x_of[s], 1), "label": _size(s, short=True)} for s in sizes],
                  "y": [{"y": round(plot_h * (1 - v / y_top), 1), "label": f"{v:g}"}
                        for v in y_ticks]},
    }
