"""Generated cases: hypothesis draws inputs of an op (its ``Op.strategy``: for Broadcast, every mode, valid and
invalid) and runs them on a backend.

Each drawn input runs as a check on one of the backend's paths and element types, in a worker process like
every other check, and is judged the same way. A failing verdict is fine only if a known difference explains it
(by the traits of its inputs, its path, its types: conformance/known/). Any other failure is shrunk by
hypothesis to a minimal input and written to ``cases/found/`` as a YAML case with the seed that found it, so it
becomes a permanent, named case that runs in every later run.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, Phase, assume, given, seed, settings
from hypothesis import strategies as st

from conformance import ops
from conformance import verdicts as v
from conformance.backends import Backend
from conformance.cases import GENERATED, Case, as_yaml_dims
from conformance.results.record import CaseRecord, CheckRecord
from conformance.run import paths
from conformance.run.execute import Runner, execute, record_for
from conformance.run.plan import Check

DEFAULT_EXAMPLES = 40
DEFAULT_SEED = 20261123
DTYPES = ("u8", "f32")  # a 1-byte and a 4-byte type: the copy paths differ by element size
OP = ops.DEFAULT  # the op whose inputs are drawn


def as_case(drawn: dict[str, Any], op_name: str = OP) -> Case:
    """The drawn input as a Case, with the outcome the reference prescribes."""
    op = ops.get(op_name)
    params = op.parse({k: value for k, value in drawn.items() if value is not None})
    expect_shape, reject = op.outcome(params)
    key = json.dumps(drawn, sort_keys=True)
    return Case(id=f"gen_{hashlib.sha1(key.encode()).hexdigest()[:10]}", file="(generated)", line=0,
                group=GENERATED, op=op_name, params=params, expect_shape=expect_shape, expect_reject=reject,
                spec_ref=op.spec_ref(params))


@dataclass
class Search:
    """What one backend's search saw: counts by verdict, known differences by id, and the failure it shrank."""

    examples: int = 0  # checks run until the first failure (the rest shrank it)
    shrinks: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)
    known: Counter[str] = field(default_factory=Counter)
    # the last failing check, its input as drawn, and its record: hypothesis's minimal one
    failure: tuple[Check, dict[str, Any], CheckRecord] | None = None

    def summary(self) -> str:
        counts = ", ".join(f"{n} {verdict}" for verdict, n in self.verdicts.most_common())
        known = f"; known differences: {', '.join(f'{k} ×{n}' for k, n in self.known.most_common())}" \
            if self.known else ""
        shrunk = f"; then {self.shrinks} more to shrink the failure" if self.shrinks else ""
        return f"{self.examples} generated checks ({counts}){known}{shrunk}"


def search(backend: Backend, backend_ref: str, runner: Runner, known: list[Any], version: str | None,
           examples: int, seed_value: int, budget: int, shrink: bool = True) -> Search:
    """Run ``examples`` generated checks on one backend; on a failure, hypothesis shrinks it (unless not
    ``shrink``) and the minimal failing check is in ``Search.failure``."""
    seen = Search()
    op = ops.get(OP)
    assert op.strategy is not None
    axes = backend.path_axes()

    @settings(max_examples=examples, database=None, deadline=None, print_blob=False, report_multiple_bugs=False,
              phases=(Phase.generate, Phase.shrink) if shrink else (Phase.generate,),
              suppress_health_check=list(HealthCheck))
    @seed(seed_value)
    @given(drawn=op.strategy(), choice=st.data())
    def prop(drawn: dict[str, Any], choice: st.DataObject) -> None:
        case = as_case(drawn)
        applicable = {paths.label(axes, p): p for p, why in backend.paths_for(case).items() if why is None and p}
        assume(applicable)  # an input the backend cannot express does not count as an example
        variant = choice.draw(st.sampled_from(sorted(applicable)), label="variant")
        path = applicable[variant]
        dtype = choice.draw(st.sampled_from(DTYPES), label="dtype")
        check = Check(case, backend.name, backend_ref, path, variant, dtype, backend.op_version(path, case.op),
                      backend.why_not(case, path, dtype), "i64", backend.shape_type_rule(path, "i64"))
        assume(not check.not_applicable)
        record = execute(check, runner, known, record_for(check, check.name, version, ""), budget=budget)
        if seen.failure is not None:
            seen.shrinks += 1
        else:
            seen.examples += 1
            seen.verdicts[record.verdict] += 1
            if record.known:
                seen.known[record.known["id"]] += 1
        if v.PYTEST_OUTCOME[record.verdict] == "failed":
            seen.failure = (check, drawn, record)
            raise AssertionError(record.message)

    try:
        prop()
    except Exception:  # the failure, or hypothesis's Flaky when it did not fail again while shrinking
        if seen.failure is None:
            raise
    return seen


def found_case_yaml(check: Check, drawn: dict[str, Any], message: str, seed_value: int,
                    examples: int) -> tuple[str, str]:
    """A found failure as a case file: (case id, YAML text)."""
    case = check.case
    case_id = "found_" + case.id.removeprefix("gen_")
    entry: dict[str, Any] = {
        "id": case_id,
        "description": (f"Found by the generated checks on {check.backend} ({check.variant}, {check.dtype}): "
                        f"{message.split(' [')[0]}"),
        **({"op": case.op} if case.op != ops.DEFAULT else {}),
        **{k: value for k, value in drawn.items() if value is not None}}
    entry["expect"] = {"shape": as_yaml_dims(case.expect_shape or ())} if case.valid else {"reject": case.expect_reject}
    entry["spec_ref"] = case.spec_ref
    entry["dtypes"] = [check.dtype]
    header = (f"# yaml-language-server: $schema=../../conformance/cases/case.schema.json\n"
              f"# Written by the generated checks (conformance/run/generated.py): seed {seed_value}, "
              f"{examples} examples\n"
              f"# (pytest conformance --backend {check.backend_ref} --generated-seed {seed_value} "
              f"--generated-examples {examples}),\n# shrunk by hypothesis to this input. Traits of the input: "
              f"{', '.join(ops.get(case.op).traits_of(case.params)) or 'none'}.\n")
    body = yaml.safe_dump({"group": "found", "description": "A divergence the generated checks found.",
                           "cases": [entry]}, sort_keys=False, width=110, allow_unicode=True)
    return case_id, header + body


def write_found(cases_dir: Path, check: Check, drawn: dict[str, Any], message: str, seed_value: int,
                examples: int) -> Path:
    """Write the found case under cases_dir/found/ (once: a file already there is kept as it is)."""
    case_id, text = found_case_yaml(check, drawn, message, seed_value, examples)
    path = cases_dir / "found" / f"{case_id}.yaml"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    return path


def case_record(examples: int, seed_value: int) -> CaseRecord:
    """The report's row for the generated checks (they share one row, a check per backend)."""
    return CaseRecord(file="conformance/run/generated.py", line=1, group=GENERATED, op=OP,
                      params={"mode": "any", "versions": [1, 3], "data_shape": [], "target_shape": [],
                              "axes_mapping": None},
                      spec_ref="000_ece0cbba5cb063a0.txt",
                      description=(f"Inputs drawn by hypothesis, valid and invalid, every mode: {examples} per "
                                   f"backend, seed {seed_value}; a failure no known difference explains is shrunk "
                                   "and written to cases/found/."))
