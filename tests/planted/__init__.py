"""Planted bugs: the local implementation with one defect each, to measure what the suite catches
(``python3 -m conformance power``, tests/test_power.py). Each is a plug-in backend (``tests.planted.rules:
IgnoresNumpyDim``); its docstring's first line says the defect."""

from __future__ import annotations

from tests.planted import layout, rules, values
from tests.planted.base import Planted

MODULES = (rules, values, layout)


def planted() -> list[tuple[str, type[Planted]]]:
    """Every planted bug as (module:Class reference, class), in the modules' order."""
    found = []
    for module in MODULES:
        for attr, value in vars(module).items():
            if isinstance(value, type) and issubclass(value, Planted) and not attr.startswith("_") \
                    and value.__module__ == module.__name__:
                found.append((f"{module.__name__}:{attr}", value))
    return found
