"""The operations under test, each a package saying everything particular to it (conformance/ops/base.py).

A case file names its op (``op:``; ``broadcast`` where omitted): a built-in op's name, or the module path of an
op package anywhere importable (``tests.toy_op``). Worker processes resolve the same name the same way.
"""

from __future__ import annotations

import importlib
from functools import cache

from conformance.ops.base import Op, RuleError, Shape

BUILTIN = {"broadcast": "conformance.ops.broadcast", "elementwise": "conformance.ops.elementwise"}
DEFAULT = "broadcast"


class OpNotFound(ValueError):
    pass


@cache
def get(name: str) -> Op:
    """The op a case names; OpNotFound says why there is none."""
    module_name = BUILTIN.get(name, name)
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise OpNotFound(f"op {name!r}: no built-in op ({', '.join(BUILTIN)}) and no importable op package "
                         f"({e})") from None
    op = getattr(module, "OP", None)
    if not isinstance(op, Op):
        raise OpNotFound(f"op {name!r}: module {module_name} has no OP = conformance.ops.base.Op(...)")
    return op


__all__ = ["BUILTIN", "DEFAULT", "Op", "OpNotFound", "RuleError", "Shape", "get"]
