"""`pytest conformance` loads the conformance plugin from here, so that `pytest tests` runs without it.
(``-p conformance.plugin`` loads the same plugin for any other arguments.)"""

from __future__ import annotations

from typing import Any


def pytest_addoption(parser: Any, pluginmanager: Any) -> None:
    # registered here, its own pytest_addoption and pytest_configure run too (both are historic hooks)
    if not pluginmanager.has_plugin("conformance.plugin"):
        pluginmanager.import_plugin("conformance.plugin")
