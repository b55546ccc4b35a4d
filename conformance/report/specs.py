"""Where each specification document of ../shared/spec/ (cited by file name in a case's ``spec_ref``) is published,
so that the report links a case to the page a reader can open. The nGraph v0 Broadcast has no public page any more:
its reference stays text."""

from __future__ import annotations

from typing import Any

OPENVINO_SPECS = "https://docs.openvino.ai/2024/documentation/openvino-ir-format/operation-sets/operation-specs"
BROADCAST_3 = f"{OPENVINO_SPECS}/movement/broadcast-3.html"
BROADCAST_1 = f"{OPENVINO_SPECS}/movement/broadcast-1.html"
BROADCAST_RULES = f"{OPENVINO_SPECS}/broadcast-rules.html"
ONNX_EXPAND = "https://onnx.ai/onnx/operators/onnx__Expand.html"

# spec file (/work/shared/spec/README.md) -> (title, public page)
PAGES: dict[str, tuple[str, str]] = {
    "000_ece0cbba5cb063a0.txt": ("OpenVINO Broadcast-3", BROADCAST_3),
    "001_3e6cf45f37fe0ec2.txt": ("OpenVINO Broadcast-1", BROADCAST_1),
    "002_2059dcf659ca5970.txt": ("OpenVINO Broadcast-1", BROADCAST_1),
    "003_38ca088f58e9a6c7.txt": ("OpenVINO broadcast rules", BROADCAST_RULES),
}


def spec_links(spec_ref: Any, mode: str | None = None) -> list[list[str]]:
    """[[title, url], ...] for a case: the page of the document its spec_ref names, and ONNX Expand's for a
    bidirectional case (the ONNX backends run it as Expand, whose rule that is)."""
    links = []
    if isinstance(spec_ref, str):
        page = PAGES.get(spec_ref.split("#", 1)[0].strip())
        if page is not None:
            links.append(list(page))
    if mode == "bidirectional":
        links.append(["ONNX Expand", ONNX_EXPAND])
    return links
