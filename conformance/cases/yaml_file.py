"""Reading one YAML case file safely: PyYAML's safe loader only (``yaml.compose`` for positions,
``construct_document`` for values), so no tag can construct an object; bounds on size, depth and aliases; keys
given twice; every problem a CaseFileError with the file and line."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import yaml

# libyaml's safe loader where PyYAML has it (about 10x faster, same marks and tags), else the pure-Python one
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class CaseFileError(Exception):
    """A problem in a case file, with where it is."""

    def __init__(self, file: str, line: int | None, message: str) -> None:
        self.file, self.line, self.message = file, line, message
        super().__init__(f"{file}:{line}: {message}" if line else f"{file}: {message}")


def node_at(node: yaml.Node, path: Iterable[Any]) -> yaml.Node:
    """The YAML node a jsonschema error path points at (as deep as the path can be followed)."""
    for step in path:
        if isinstance(node, yaml.MappingNode):
            children = [v for k, v in node.value if k.value == step]
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            children = [node.value[step]]
        else:
            children = []
        if not children:
            break
        node = children[0]
    return node


def _bad_keys(node: yaml.Node) -> Iterator[tuple[yaml.Node, str]]:
    """Keys given twice in one mapping (PyYAML silently keeps the last, which would hide a typo), and keys
    that are not plain scalars (``? [a, b]``)."""
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key, value in node.value:
            if not isinstance(key, yaml.ScalarNode):
                yield key, "a mapping key must be a plain name, not a list or mapping"
            elif key.value in seen:
                yield key, f"key {key.value!r} given twice in one mapping"
            else:
                seen.add(key.value)
            yield from _bad_keys(value)
    elif isinstance(node, yaml.SequenceNode):
        for child in node.value:
            yield from _bad_keys(child)


# Bounds on what one case file may hold: far beyond any real case file, far below what hurts the run.
MAX_FILE_BYTES = 1_000_000
MAX_NODES = 200_000  # counted with every alias expanded: an alias bomb is small on disk, huge in memory
MAX_DEPTH = 32


def _check_bounds(name: str, root: yaml.Node) -> None:
    """Depth and expanded size of the node graph, in linear time (aliases are shared node objects)."""
    expanded: dict[int, int] = {}
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, children_done = stack.pop()
        if depth > MAX_DEPTH:
            raise CaseFileError(name, node.start_mark.line + 1, f"nesting deeper than {MAX_DEPTH} levels")
        if id(node) in expanded:
            continue
        if isinstance(node, yaml.MappingNode):
            children = [n for pair in node.value for n in pair]
        elif isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        else:
            expanded[id(node)] = 1
            continue
        if not children_done:
            stack.append((node, depth, True))
            stack.extend((child, depth + 1, False) for child in children if id(child) not in expanded)
            continue
        expanded[id(node)] = 1 + sum(expanded[id(child)] for child in children)
        if expanded[id(node)] > MAX_NODES:
            raise CaseFileError(name, node.start_mark.line + 1,
                                f"more than {MAX_NODES} values once aliases are expanded (an alias bomb?)")


def read_bounded(path: Path, name: str) -> bytes:
    """The file's bytes, its size checked before anything is read (a 3 GB file is refused, not loaded): a regular
    file only (a FIFO would wait for a writer forever), and any error of the system named."""
    try:
        # O_NONBLOCK: opening a FIFO waits for a writer otherwise (a regular file's reads do not mind it)
        with os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb", buffering=0) as f:
            info = os.fstat(f.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise CaseFileError(name, None, "not a regular file: a case file must be one")
            if info.st_size > MAX_FILE_BYTES:
                raise CaseFileError(name, 1, _too_big(info.st_size))
            raw = f.read(MAX_FILE_BYTES + 1)  # it may have grown since
    except OSError as e:
        raise CaseFileError(name, None, f"cannot be read: {e.strerror or e}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise CaseFileError(name, 1, _too_big(len(raw)))
    return raw


def _too_big(size: int) -> str:
    return (f"file is {size / 1e6:.1f} MB, but a case file may hold at most {MAX_FILE_BYTES / 1e6:g} MB: split "
            "it")


def parse(path: Path, name: str) -> tuple[Any, yaml.Node, str]:
    raw = read_bounded(path, name)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise CaseFileError(name, line, f"not UTF-8 text ({e.reason} at byte {e.start})") from None
    loader = None
    try:
        loader = SAFE_LOADER(text)  # the safe loader only: no tag can construct an object
        root = loader.get_single_node()
        if root is None:
            raise CaseFileError(name, 1, "empty file: a case file has `group` and a list of `cases`")
        _check_bounds(name, root)
        for key, problem in _bad_keys(root):
            raise CaseFileError(name, key.start_mark.line + 1, problem)
        data = loader.construct_document(root)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        raise CaseFileError(name, mark.line + 1 if mark else None, f"YAML error: {e.problem or e}") from None
    except yaml.reader.ReaderError as e:
        line = text[: e.position].count("\n") + 1
        raise CaseFileError(name, line, f"YAML error: unacceptable character #x{e.character:04x}") from None
    except yaml.YAMLError as e:
        raise CaseFileError(name, None, f"YAML error: {e}") from None
    except RecursionError:
        raise CaseFileError(name, None, "nesting too deep for the YAML parser") from None
    finally:
        if loader is not None:
            loader.dispose()
    return data, root, text
