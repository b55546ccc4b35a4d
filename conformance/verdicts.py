"""The verdicts a check can end with, in the order the report lists them."""

from __future__ import annotations

PASS = "pass"
WRONG_SHAPE = "wrong_shape"
WRONG_DTYPE = "wrong_dtype"
WRONG_VALUES = "wrong_values"
ACCEPTED_INVALID = "accepted_invalid"
WRONG_RULE = "wrong_rule"
REJECTED_VALID = "rejected_valid"
CRASH = "crash"
TIMEOUT = "timeout"
OUT_OF_MEMORY = "out_of_memory"
ERROR = "error"
KNOWN = "known_difference"
NOT_APPLICABLE = "not_applicable"
SKIPPED = "skipped"

# verdict -> (letter shown in the matrix, one-line meaning). The letter keeps the matrix readable without colour.
VERDICTS: dict[str, tuple[str, str]] = {
    PASS: ("P", "output matches the reference bit for bit, or a required rejection happened"),
    WRONG_SHAPE: ("S", "output shape (or the shape declared before running) differs from the reference"),
    WRONG_DTYPE: ("T", "output element type differs from the data's"),
    WRONG_VALUES: ("V", "output bytes differ from the reference"),
    ACCEPTED_INVALID: ("A", "accepted an input the spec says must be rejected"),
    WRONG_RULE: ("W", "rejected an invalid input, naming another rule than the one it breaks"),
    REJECTED_VALID: ("R", "rejected an input the spec says must be accepted"),
    CRASH: ("C", "the worker process died (signal or exit code)"),
    TIMEOUT: ("O", "the check did not finish within the timeout"),
    OUT_OF_MEMORY: ("M", "the check ran out of the worker's memory (limit or machine) instead of a result"),
    ERROR: ("E", "the adapter itself failed (a bug on our side, not a verdict on the backend)"),
    KNOWN: ("K", "a recorded, explained known difference (strict xfail)"),
    NOT_APPLICABLE: ("N", "the backend cannot express this check, for the reason given"),
    SKIPPED: ("-", "the backend's package is not installed"),
}

FAILING = frozenset({WRONG_SHAPE, WRONG_DTYPE, WRONG_VALUES, ACCEPTED_INVALID, WRONG_RULE, REJECTED_VALID, CRASH,
                     TIMEOUT, OUT_OF_MEMORY, ERROR})

# The pytest outcome of a check with each verdict: decided here and nowhere else.
PYTEST_OUTCOME = {verdict: ("failed" if verdict in FAILING else "xfailed" if verdict == KNOWN
                            else "skipped" if verdict in (NOT_APPLICABLE, SKIPPED) else "passed")
                  for verdict in VERDICTS}
