"""Known differences: recorded, explained divergences of a backend from the spec, applied as strict xfails.

An entry describes a bug by the conditions under which it happens, not by a list of cases, so that a new case
or path that hits the same bug is explained by it and a new bug is not. One YAML file per backend in
conformance/known/ (``<backend>.yaml``), a list of entries::

    - id: short-name                      # unique for the backend
      match:                              # every condition given must hold; a value is a glob or a list of globs
        op: broadcast                     # case.op
        group: [rule, edge]               # case.group
        mode: bidirectional               # a field of the op's params (conformance.ops.get(op).fields)
        path: {opset: "3", target_shape: Parameter}  # path axis -> value glob(s); a path without the axis: no match
        variant: opset3-param             # the path label (kept for compatibility; prefer path)
        dtype: [i64, u64]                 # the element type
        shape_dtype: [i8, u8]             # the integer type of the shape inputs (target_shape, axes_mapping)
        version: "2025.[0-3].*"           # the backend's package version (never matches a backend without one)
        hardware: cpu:bf16                # a feature the backend reports (Backend.hardware): on_hardware() drops
                                          # the entry at load where no feature matches ("not cpu:bf16": where
                                          # the backend reports it)
        case: [id-glob, ...]              # only for what no condition describes, and then cases_why says why
      inputs: [zero_size_data, not zero_meets_one]  # traits of the case's params (conformance.ops.get(op).traits)
                                          # that all hold ("not t": t does not); [[a], [b, c]]: alternatives
      verdict: wrong_values               # the verdict the divergence produces ([wrong_shape, wrong_values]: one of
                                          # them, where what decides it is nothing a condition can follow)
      unreported_error: true              # the backend found that the run raised an error it did not report
                                          # (Outcome.unreported_error: OpenVINO's one-thread inference)
      reason: why the backend does this   # the mechanism the conditions encode, with the runtime's source lines
      link: https://upstream/issue        # and/or reproducer: reproducers/<backend>/<entry-id>.py, a standalone
                                          # script (exit 0: the bug shows; 1: fixed): ``conformance known --verify``
      may_pass: why a check may also pass # only where what decides it is nothing a condition can follow (the
                                          # compiler's choice of loop): such a check passes or gives the verdict;
                                          # it needs a reproducer, which shows the bug whatever the checks do

Named and generated checks are looked up alike (``find``); the first entry in file order whose conditions all
hold is the check's, so a file lists an earlier stage's failure (a rejection or a crash) before a later one
that the same inputs would otherwise also meet (values computed in 32 bits). A matching check with the entry's
verdict is a known difference (xfail); one that now passes (unless the entry says why it may), or fails another
way, fails loudly; an entry that
matched no check of an unrestricted run is listed in the report (``unmatched``).
"""

from __future__ import annotations

from typing import Any

from conformance.known.entries import KNOWN_DIR, MATCH_KEYS, Known, KnownFileError, load, read_file
from conformance.known.facts import Facts, candidates, path_of_label, trait_holds


def find(entries: list[Known], facts: Facts | Any, *legacy: Any, verdict: str | None = None) -> Known | None:
    """The first entry whose conditions all hold for the check (with ``verdict``: among entries of that verdict,
    as a generated check asks: its inputs were not chosen, so only the failure it shows can be explained).

    ``find(entries, case_or_id, variant, dtype, version=None, shape_dtype="i64")``, the form before Facts, is
    still read while the callers move to Facts (a case id alone cannot meet conditions on the case's params).
    """
    if not isinstance(facts, Facts):
        facts = _legacy_facts(facts, *legacy)
    return next((k for k in candidates(entries, facts)
                 if (verdict is None or verdict in k.verdicts) and all(test(facts) for test in k.tests[1])), None)


def explaining(entries: list[Known], case: Any, variant: str, dtype: str, version: str | None, shape_dtype: str,
               verdict: str) -> Known | None:
    """The form before Facts for a generated check: ``find(entries, facts, verdict=verdict)``."""
    return find(entries, Facts.of(case, variant, dtype, shape_dtype, version), verdict=verdict)


class _IdOnly:
    """A case known by its id only (the legacy form of ``find``): conditions on its params do not hold."""

    op, group, params = "", "", None

    def __init__(self, case_id: str) -> None:
        self.id = case_id


def _legacy_facts(case: Any, variant: str, dtype: str, version: str | None = None, shape_dtype: str = "i64") -> Facts:
    return Facts.of(_IdOnly(case) if isinstance(case, str) else case, variant, dtype, shape_dtype, version)


def on_hardware(entries: dict[str, list[Known]], hardware: dict[str, tuple[str, ...]]) -> dict[str, list[Known]]:
    """The entries that apply on this machine: those for some hardware only where the backend reports it."""
    return {name: [k for k in ks if k.applies_on(hardware.get(name, ()))] for name, ks in entries.items()}


def unmatched(entries_by_backend: dict[str, list[Known]], matched: set[tuple[str, str]],
              versions: dict[str, str | None], restricted: bool) -> list[dict[str, Any]]:
    """The entries of the backends that ran (``versions``' keys) that matched no check, as report records
    ({"backend", "entry"}), leaving out those for other releases. A restricted run (--shard, --check, --dtype,
    --mode, -k, node ids ...) ran some checks only: an entry for the others matching nothing is no news, so
    nothing is listed."""
    if restricted:
        return []
    return [{"backend": name, "entry": k.to_json()} for name, ks in entries_by_backend.items() if name in versions
            for k in ks if (name, k.id) not in matched and k.applies_to_version(versions[name] or "")]


__all__ = ["KNOWN_DIR", "MATCH_KEYS", "Facts", "Known", "KnownFileError", "explaining", "find", "load",
           "on_hardware", "path_of_label", "read_file", "trait_holds", "unmatched"]
