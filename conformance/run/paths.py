"""Paths: the ways a backend can run a check, as data. A backend declares its axes (``Backend.axes``), each with
its values; a check's path is one value per axis. The path's label in check ids (``opset1-const``) is made
here and nowhere else, from each value's label in axis order; a value equal to its axis's ``default`` is left
out, so that an axis added later keeps the ids of the checks that ran before it existed."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

# A check's path: (axis name, value) pairs in the backend's axis order
Path = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Axis:
    name: str  # e.g. "target_shape"
    values: tuple[str, ...]  # e.g. ("Constant", "Parameter")
    labels: Mapping[str, str] = field(default_factory=dict)  # value -> its part of check ids (else the value)
    help: str = ""  # what the axis varies, for --list-paths and the report
    default: str | None = None  # a value left out of check ids
    # The values on whose paths a default run sweeps every element type (conformance/run/plan.py ``sampled``):
    # by default the axis's default value, or every value of an axis without one.
    swept: tuple[str, ...] | None = None

    def sweeps(self, value: str) -> bool:
        if self.swept is not None:
            return value in self.swept
        return self.default is None or value == self.default

    def label(self, value: str) -> str:
        return "" if value == self.default else self.labels.get(value, value)


def every_path(axes: Iterable[Axis]) -> Iterator[Path]:
    axes = tuple(axes)
    for values in itertools.product(*(a.values for a in axes)):
        yield tuple(zip((a.name for a in axes), values, strict=True))


def label(axes: Iterable[Axis], path: Path) -> str:
    """The path's part of a check id: its values' labels joined by "-" (``opset3-param``)."""
    by_name = {a.name: a for a in axes}
    return "-".join(part for name, value in path
                    if (part := by_name[name].label(value) if name in by_name else value))


def describe(path: Path) -> str:
    """For people: ``opset 3, target_shape Parameter``."""
    return ", ".join(f"{name} {value}" for name, value in path)


def parse_selection(texts: Iterable[str]) -> dict[str, set[str]]:
    """``--path AXIS=VALUE`` options as axis -> the values selected (ValueError names a malformed one)."""
    selected: dict[str, set[str]] = {}
    for text in texts:
        name, sep, value = text.partition("=")
        if not sep or not name or not value:
            raise ValueError(f"--path {text!r}: give AXIS=VALUE, e.g. --path target_shape=Parameter "
                             "(--list-paths shows every backend's axes)")
        selected.setdefault(name.strip(), set()).add(value.strip())
    return selected


def selected(path: Path, selection: Mapping[str, set[str]]) -> bool:
    """A path is selected when, for every axis it has that the selection names, its value is among those named."""
    return all(value in selection[name] for name, value in path if name in selection)


def pairwise(paths: list[Path], seed: Iterable[Path] = ()) -> list[Path]:
    """A subset of ``paths`` (one backend's applicable paths, all over the same axes) in which every pair of values
    of two axes that occurs in ``paths`` occurs at least once: the ``seed`` paths among them first, then chosen
    greedily and deterministically (the path that covers most pairs not yet covered, the first such in order).
    With two axes or fewer it is every path."""
    if not paths or len(paths[0]) <= 2:
        return list(paths)

    def pairs(path: Path) -> set[tuple[tuple[str, str], tuple[str, str]]]:
        return {(a, b) for i, a in enumerate(path) for b in path[i + 1:]}

    uncovered = set().union(*(pairs(p) for p in paths))
    chosen = [p for p in seed if p in paths]
    for path in chosen:
        uncovered -= pairs(path)
    while uncovered:
        best = max(paths, key=lambda p: len(pairs(p) & uncovered))
        chosen.append(best)
        uncovered -= pairs(best)
    return [p for p in paths if p in chosen]  # in the backend's order


def as_before(axes: Iterable[Axis], path: Path) -> bool:
    """A path whose every axis that has a default is at it: its id is the one it had before those axes existed."""
    defaults = {a.name: a.default for a in axes if a.default is not None}
    return all(defaults.get(name, value) == value for name, value in path)


def swept(axes: Iterable[Axis], path: Path) -> bool:
    """A path on which a default run takes a case's every element type: each of its values sweeps (``Axis.swept``)."""
    by_name = {a.name: a for a in axes}
    return all(by_name[name].sweeps(value) for name, value in path if name in by_name)


# Which of a case's paths a default run takes, by the case's group: the spec's own cases every path, the others
# every pair of axis values, always with the paths that keep the ids of earlier runs (``as_before``), so that a
# run can be compared with one from before an axis was added (``--paths all``: every path of every case).
FULL_GROUPS = frozenset({"spec_example", "rule", "interpretation"})


def covering(paths: list[Path], group: str, everything: bool = False, axes: Iterable[Axis] = ()) -> list[Path]:
    if everything or group in FULL_GROUPS:
        return list(paths)
    axes = tuple(axes)
    added = any(a.default is not None for a in axes)  # without such an axis there was no "before"
    return pairwise(paths, [p for p in paths if added and as_before(axes, p)])
