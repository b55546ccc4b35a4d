"""broadcast-conformance: runs Broadcast cases on several backends and judges them against `reference`."""

from __future__ import annotations

__version__ = "0.1.0"
