"""`pytest conformance` loads the conformance plugin from here, so `pytest tests` runs without it."""

from conformance.plugin import *  # noqa: F403  (pytest finds the hooks by name in this module)
