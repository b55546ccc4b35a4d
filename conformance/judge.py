"""The one judge: a check's verdict from what was expected, what the backend did, whether the check applies at
all, and the known difference that describes it. An outcome is judged crash and timeout first, then
rejection (and the rule it names, where the backend says), shape, declared shape, element type, and bit-exact
values (NaN payloads and signed zeros count), with the first differing index; then a known difference that
matches turns its own verdict into ``known_difference``, and any other verdict into a failure that asks for the
entry to be updated. The pytest outcome of every verdict is conformance.verdicts.PYTEST_OUTCOME."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance import verdicts as v
from conformance.backends.base import Outcome
from conformance.rejections import NOT_A_RULE


@dataclass(frozen=True)
class Judgement:
    verdict: str
    message: str | None = None  # `what=actual, but should be expected`; None for a plain pass
    first_diff: dict[str, Any] | None = None
    known: Any = None  # the known difference (conformance.known.Known) that matched the check, if any


@dataclass(frozen=True)
class Expectation:
    """What the spec prescribes for a check."""

    output: np.ndarray | None  # the reference output of a valid check that runs (None: a rejection, shape-only)
    shape: tuple[int | None, ...] | None  # the output shape (None: a rejection)
    rule: str | None  # the rule a rejection must follow (a backend's own rule may follow it in parentheses)
    shape_only: bool = False  # nothing runs: the backend declares its shape or rejects
    partial: bool = False  # data dimensions unknown until run time


def rule_name(rule: str | None) -> str | None:
    return None if rule is None else rule.split(" ", 1)[0]


def judge(expect: Expectation | None, outcome: Outcome | None, *, known: Any = None, not_applicable: str | None = None,
          skipped: str | None = None, harness_error: str | None = None) -> Judgement:
    """The verdict of one check."""
    if skipped is not None:
        return Judgement(v.SKIPPED, skipped)
    if not_applicable is not None:
        return Judgement(v.NOT_APPLICABLE, not_applicable)
    if harness_error is not None or expect is None or outcome is None:
        return Judgement(v.ERROR, f"harness error: {harness_error or 'nothing to judge'}")
    return with_known(judge_outcome(expect.output, expect.rule, outcome, shape_only=expect.shape_only,
                                    expected_shape=expect.shape, partial=expect.partial), known)


def with_known(base: Judgement, entry: Any) -> Judgement:
    """A known difference over a verdict: its own verdict is the known difference; any other verdict fails and
    says the entry is out of date (a pass too: the bug was fixed), except a pass under an entry that may pass
    (``may_pass``: what decides whether the bug shows is nothing a condition can follow), which stays a pass."""
    if entry is None:
        return base
    if base.verdict == v.PASS and entry.may_pass:  # the bug may show here, and did not: a pass, the entry not its
        return Judgement(v.PASS, f"{base.message + '; ' if base.message else ''}known difference {entry.id} "
                                 f"({entry.where}) may show here and did not: {entry.may_pass}")
    if base.verdict in entry.verdicts:
        gave = f" ({base.verdict})" if len(entry.verdicts) > 1 else ""
        return Judgement(v.KNOWN, f"known difference {entry.id}{gave}: {entry.reason} "
                                  f"({entry.link or 'reproducer given'})", base.first_diff, entry)
    message = (f"known difference {entry.id} ({entry.where}) expects {entry.verdict}, but the check gave "
               f"{base.verdict}: {base.message or 'pass'}. Update or remove the entry.")
    return Judgement(v.ERROR if base.verdict == v.PASS else base.verdict, message, base.first_diff, entry)


def judge_rejection(outcome: Outcome, rule: str | None) -> Judgement:
    """An invalid input the backend rejected: for the rule it breaks, where the backend names the rule or its table
    of messages finds it (conformance/rejections); a message neither places is unclassified, and passes."""
    want, got = rule_name(rule), outcome.rule
    if got is None or want is None:
        return Judgement(v.PASS, f"rejected at {outcome.stage}: {outcome.error}")
    rules = got.split("|")
    if set(want.split("|")) & set(rules):  # an input may break several rules (rule_a|rule_b): any of them
        return Judgement(v.PASS, f"rejected at {outcome.stage} for rule {got}: {outcome.error}")
    if rules == [NOT_A_RULE]:
        return Judgement(v.WRONG_RULE, f"rejected at {outcome.stage} for no rule of the spec ({outcome.rule_why}): "
                                       f"{outcome.error}, but the input breaks rule {' or '.join(want.split('|'))}")
    return Judgement(v.WRONG_RULE, f"rejected at {outcome.stage} for rule {got}: {outcome.error}, but "
                                   f"the input breaks rule {' or '.join(want.split('|'))}")


def show_value(x: np.generic) -> str:
    """A value with its bits, so -0.0 and NaN payloads are visible."""
    arr = np.asarray(x)
    if arr.dtype.kind in "USO":
        return repr(arr.item())
    if arr.dtype.kind in "fcV" or arr.dtype.itemsize > 1:
        bits = arr.reshape(1).view(f"u{arr.dtype.itemsize}")[0]
        return f"{arr.item()!r} (0x{int(bits):0{arr.dtype.itemsize * 2}x})"
    return repr(arr.item())


def first_difference(expected: np.ndarray, actual: np.ndarray) -> dict[str, Any] | None:
    """Compare bytes element by element: float == would call NaN unequal to itself and -0.0 equal to 0.0.
    Strings compare by value."""
    if expected.dtype.kind in "USO":  # strings: by value (there are no bits to compare beyond the characters)
        diff = np.flatnonzero(expected.reshape(-1) != actual.reshape(-1))
    else:
        as_bits = np.dtype(f"u{expected.dtype.itemsize}")
        diff = np.flatnonzero(expected.reshape(-1).view(as_bits) != actual.reshape(-1).view(as_bits))
    if diff.size == 0:
        return None
    index = tuple(int(i) for i in np.unravel_index(diff[0], expected.shape))
    return {"index": list(index), "expected": show_value(expected[index]), "actual": show_value(actual[index]),
            "count": int(diff.size), "size": int(expected.size)}


def declared_matches(declared: tuple[int | None, ...] | None, shape: tuple[int, ...]) -> bool:
    """A declared shape is right if it is compatible: same rank, and every static dimension equal."""
    if declared is None:
        return True
    return len(declared) == len(shape) and all(d is None or d == s for d, s in zip(declared, shape, strict=True))


def fmt_shape(shape: tuple[int | None, ...] | None) -> str:
    if shape is None:
        return "dynamic rank"
    return "(" + ", ".join("?" if d is None else str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


# How runtimes say an allocation failed: such a refusal of a valid input is a resource verdict, not a rule.
ALLOCATION_FAILURES = re.compile(
    r"bad_alloc|Failed to allocate|Unable to allocate|out of memory|bfc_arena|array is too big", re.I)


def judge_partial(expected: tuple[int | None, ...], declared: tuple[int | None, ...] | None) -> Judgement:
    """A case with dimensions unknown until run time: the declared shape must not claim what the rule cannot
    know, nor contradict what it does; a "?" where the rule knows the dimension is imprecise, not wrong."""
    shown = f"declared shape={fmt_shape(declared)}"
    if declared is None:
        return Judgement(v.NOT_APPLICABLE, f"{shown}: the backend declares nothing to check, the rule gives "
                                           f"{fmt_shape(expected)}")
    if len(declared) != len(expected):
        return Judgement(v.WRONG_SHAPE, f"{shown}, but the rule gives rank {len(expected)}: {fmt_shape(expected)}")
    for axis, (d, e) in enumerate(zip(declared, expected, strict=True)):
        if d is not None and d != e:
            known = "is unknown until run time" if e is None else f"is {e}"
            return Judgement(v.WRONG_SHAPE, f"{shown}, but dimension {axis} {known}: {fmt_shape(expected)}")
    looser = [i for i, (d, e) in enumerate(zip(declared, expected, strict=True)) if d is None and e is not None]
    if looser:
        return Judgement(v.PASS, f"{shown} is compatible with {fmt_shape(expected)}, less precise at "
                                 f"dimension(s) {looser}")
    return Judgement(v.PASS, f"{shown}, as the rule gives")


def judge_declared(expected_shape: tuple[int | None, ...] | None, expected_rule: str | None, outcome: Outcome,
                   partial: bool = False) -> Judgement:
    """A shape-only check (the output would exceed the memory budget, or the case's data has "?" dimensions:
    ``partial``): the declared shape, or a rejection."""
    if expected_shape is None:
        if outcome.error is not None:
            return judge_rejection(outcome, expected_rule)
        if outcome.declared_shape is None:
            why = "the data has dimensions unknown until run time" if partial else \
                "the output would exceed the memory budget"
            return Judgement(v.NOT_APPLICABLE, "shape-only check: the backend cannot tell its output shape "
                                               f"without running, and {why}")
        return Judgement(v.ACCEPTED_INVALID, f"declared shape={fmt_shape(outcome.declared_shape)}, but should be "
                                             f"a rejection [{expected_rule}]")
    if outcome.error is not None:
        return Judgement(v.REJECTED_VALID, f"rejected at {outcome.stage}: {outcome.error}, but should give shape "
                                           f"{fmt_shape(expected_shape)}")
    if partial:
        return judge_partial(expected_shape, outcome.declared_shape)
    if outcome.declared_shape is None or None in outcome.declared_shape:
        return Judgement(v.NOT_APPLICABLE, f"shape-only check: declared shape={fmt_shape(outcome.declared_shape)} "
                                           "is not static, and the output would exceed the memory budget")
    if tuple(outcome.declared_shape) != tuple(expected_shape):
        return Judgement(v.WRONG_SHAPE, f"declared shape={fmt_shape(outcome.declared_shape)}, but should be "
                                        f"{fmt_shape(expected_shape)}")
    return Judgement(v.PASS, "shape-only check: the declared shape is right")


def plain_array(output: Any) -> np.ndarray | None:
    """A backend's output as a plain ndarray of its own bytes: a subclass (a masked array, one with its own
    ``!=``) or another array-like is judged by the values it holds, never by what it chooses to show or how it
    compares. None if it is no array at all."""
    if output is None:
        return None
    try:
        return np.asarray(output)  # a subclass (a masked array too: every element): its bytes as a plain ndarray
    except Exception:  # noqa: BLE001 -- whatever the object does when asked for its values
        return None


def judge_withheld(expected: np.ndarray, withheld: tuple[tuple[int, ...], str, int]) -> Judgement:
    """An output larger than the output budget, which the worker did not send: wrong whatever it holds (a right
    one would fit: a check whose right output does not is shape-only), judged from its shape and type."""
    shape, dtype, size = withheld
    what = f"(an output of {size} bytes, more than the output budget: judged from its shape, not received)"
    if tuple(shape) != expected.shape:
        return Judgement(v.WRONG_SHAPE, f"out.shape={fmt_shape(tuple(shape))}, but should be "
                                        f"{fmt_shape(expected.shape)} {what}")
    return Judgement(v.WRONG_DTYPE, f"out.dtype={dtype}, but should be {expected.dtype} {what}")


def judge_outcome(expected: np.ndarray | None, expected_rule: str | None, outcome: Outcome, *,
                  shape_only: bool = False, expected_shape: tuple[int | None, ...] | None = None,
                  partial: bool = False) -> Judgement:
    """expected is the reference output for a valid check, or None with the rule a rejection must follow;
    a shape-only check gives the expected shape instead of an output (None with a rule for a rejection)."""
    if outcome.crash is not None:
        return Judgement(v.CRASH, f"worker died: {outcome.crash}")
    if outcome.timeout is not None:
        return Judgement(v.TIMEOUT, f"no result after {outcome.timeout:g} s")
    if outcome.out_of_memory is not None:
        return Judgement(v.OUT_OF_MEMORY, f"ran out of memory: {outcome.out_of_memory}")
    if outcome.adapter_error is not None:
        return Judgement(v.ERROR, f"adapter error: {outcome.adapter_error}")
    if outcome.error is not None and ALLOCATION_FAILURES.search(outcome.error):
        # a refusal for want of memory is no verdict on the rules: of a valid input, nor of an invalid one
        # (the backend accepted it and tried to allocate its output)
        return Judgement(v.OUT_OF_MEMORY, f"failed to allocate at {outcome.stage}: {outcome.error}")
    if shape_only:
        return judge_declared(expected_shape, expected_rule, outcome, partial)
    if expected is None:
        if outcome.error is not None:
            return judge_rejection(outcome, expected_rule)
        out = plain_array(outcome.output)
        got = "no output" if out is None else f"output of shape {fmt_shape(out.shape)}"
        if outcome.withheld is not None:
            got = f"output of shape {fmt_shape(outcome.withheld[0])}"
        return Judgement(v.ACCEPTED_INVALID, f"result={got}, but should be a rejection [{expected_rule}]")
    if outcome.error is not None:
        return Judgement(v.REJECTED_VALID, f"rejected at {outcome.stage}: {outcome.error}, "
                                           f"but should give shape {fmt_shape(expected.shape)}")
    if outcome.withheld is not None:
        return judge_withheld(expected, outcome.withheld)
    if outcome.output is None:
        return Judgement(v.ERROR, "adapter returned neither an output nor an error")
    actual = plain_array(outcome.output)
    if actual is None:
        return Judgement(v.ERROR, f"adapter returned an output that is no array: {type(outcome.output).__name__}")
    if actual.shape != expected.shape:
        return Judgement(v.WRONG_SHAPE, f"out.shape={fmt_shape(actual.shape)}, but should be "
                                        f"{fmt_shape(expected.shape)}")
    if not declared_matches(outcome.declared_shape, expected.shape):
        return Judgement(v.WRONG_SHAPE, f"declared shape={fmt_shape(outcome.declared_shape)}, but the output "
                                        f"is {fmt_shape(expected.shape)}")
    if actual.dtype != expected.dtype and not (actual.dtype.kind == expected.dtype.kind == "U"):
        # (a string is a string whatever the width numpy gives the array)
        return Judgement(v.WRONG_DTYPE, f"out.dtype={actual.dtype}, but should be {expected.dtype}")
    diff = first_difference(expected, actual)
    if diff is not None:
        return Judgement(v.WRONG_VALUES,
                         f"out[{', '.join(map(str, diff['index']))}]={diff['actual']}, but should be "
                         f"{diff['expected']} ({diff['count']} of {diff['size']} elements differ)", diff)
    return Judgement(v.PASS)
