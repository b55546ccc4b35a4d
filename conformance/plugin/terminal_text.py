"""Text from backends and case files on its way to the terminal: runtimes' error messages, adapters' exceptions
and YAML values reach pytest's output, and a control character there is an instruction to the terminal (an
escape sequence can clear the screen, rewrite earlier lines, or set the clipboard: OSC 52). Every control
character but newline and tab is shown as a Python escape instead; the results file and the report keep the text
as it was."""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls (a lone 0x9b is CSI to many terminals)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def safe(text: str) -> str:
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
