"""Generated cases: hypothesis draws inputs of an op (its ``Op.strategy``: for Broadcast, every mode, valid and
invalid) and runs them on a backend.

The examples go through the strategy's strata in turn (for Broadcast: mode x valid or one rule broken, with bands
of ranks and kinds of output shape: conformance/ops/broadcast/strategy.py), PER_STRATUM in each, one hypothesis
search per stratum. Each drawn input runs as a check on one of the backend's paths, element types and integer
types of the shape inputs, in a worker process like every other check, and is judged the same way. A failing
verdict is fine only if a known difference explains it (by the traits of its inputs, its path, its types:
conformance/known/). Any other failure is shrunk by hypothesis (within its stratum) to a minimal input and
written to ``cases/found/`` as a YAML case with the seed that found it, so it becomes a permanent, named case
that runs in every later run.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import yaml
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from conformance import ops
from conformance import verdicts as v
from conformance.backends import Backend
from conformance.cases import GENERATED, Case, as_yaml_dims
from conformance.data import DTYPES, INTEGERS
from conformance.results.record import CaseRecord, CheckRecord
from conformance.run import paths
from conformance.run.execute import Runner, execute, record_for
from conformance.run.plan import Check

DEFAULT_EXAMPLES = 60  # PER_STRATUM in each stratum once (conformance/ops/broadcast/strategy.py STRATA: 30)
PER_STRATUM = 2  # examples of each stratum: hypothesis's simplest input of it, and one drawn at random
MAX_ROUNDS = 5
DEFAULT_SEED = 20261123
# The integer types of the shape inputs (T_SHAPE): int64 one draw in two, else another that holds the values
SHAPE_TYPES = tuple(t for t in DTYPES if t in INTEGERS and t not in ("i4", "u4"))  # DTYPES order: seeded draws repeat
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


def _turned(values: list[str], index: int) -> list[str]:
    """The values rotated by the stratum's number: hypothesis's simplest draw of each stratum (the first value)
    then takes each path and element type in turn."""
    at = index % len(values) if values else 0
    return values[at:] + values[:at]


def shape_types(case: Case, backend: Backend, path: Any) -> st.SearchStrategy[str]:
    """int64 one draw in two, else another integer type that holds every value of the case's shape inputs; for an
    input that breaks a rule, only a type the backend's op takes (``Backend.shape_type_rule``: ONNX Expand takes
    int64 only), so that the input has one defect, not two whose order of checking decides the rule named."""
    values = [int(v) for raw in ops.get(case.op).shape_inputs(case.params, np.dtype(np.int64)).values()
              if raw is not None for v in raw.reshape(-1).tolist()]
    fits = [t for t in SHAPE_TYPES if t != "i64" and all(np.iinfo(DTYPES[t]).min <= v <= np.iinfo(DTYPES[t]).max
                                                          for v in values)
            and (case.valid or backend.shape_type_rule(path, t) is None)]
    return st.sampled_from(["i64"] * max(len(fits), 1) + fits)


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
    """Run ``examples`` generated checks on one backend, PER_STRATUM in each stratum of the op's strategy in
    turn (``Op.strategy(index)``); on a failure, hypothesis shrinks it within its stratum (unless not
    ``shrink``) and the minimal failing check is in ``Search.failure``."""
    seen = Search()
    # Strata the backend cannot take (ONNX Expand: modes other than bidirectional) run no check: take further
    # strata until ``examples`` checks ran, up to MAX_ROUNDS times the strata an ``examples`` search needs.
    for index in range(MAX_ROUNDS * -(-examples // PER_STRATUM)):
        if seen.examples >= examples or seen.failure is not None:
            break
        prop = _stratum_search(seen, index, min(PER_STRATUM, examples - seen.examples), backend, backend_ref,
                               runner, known, version, seed_value + index, budget, shrink)
        try:
            prop()
        except Exception:  # the failure, or hypothesis's Flaky when it did not fail again while shrinking
            if seen.failure is None:
                raise
    return seen


def _stratum_search(seen: Search, index: int, examples: int, backend: Backend, backend_ref: str, runner: Runner,
                    known: list[Any], version: str | None, seed_value: int, budget: int,
                    shrink: bool) -> Callable[[], None]:
    """The hypothesis test of one stratum: ``examples`` checks of the index-th stratum's inputs."""
    op = ops.get(OP)
    assert op.strategy is not None
    axes = backend.all_axes()

    @settings(max_examples=examples, database=None, deadline=None, print_blob=False, report_multiple_bugs=False,
              phases=(Phase.generate, Phase.shrink) if shrink else (Phase.generate,),
              suppress_health_check=list(HealthCheck))
    @seed(seed_value)
    @given(drawn=op.strategy(index), choice=st.data())
    def prop(drawn: dict[str, Any], choice: st.DataObject) -> None:
        case = as_case(drawn)
        applicable = {paths.label(axes, t): t for p, why in backend.paths_for(case).items() if why is None and p
                      for t, absent in backend.targeted(p) if absent is None}
        if not applicable:  # an input the backend cannot express: no check (and no filtering hypothesis
            return          # would give up on slowly)
        variant = choice.draw(st.sampled_from(_turned(sorted(applicable), index)), label="variant")
        path = applicable[variant]
        usable = _turned([d for d in DTYPES if backend.why_not(case, path, d) is None], index)
        if not usable:
            return
        dtype = choice.draw(st.sampled_from(usable), label="dtype")
        shape_dtype = choice.draw(shape_types(case, backend, path), label="shape_dtype")
        check = Check(case, backend.name, backend_ref, path, variant, dtype, backend.op_version(path, case.op),
                      None, shape_dtype, backend.shape_type_rule(path, shape_dtype))
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

    return prop


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
    if check.shape_dtype != "i64":
        entry["shape_dtypes"] = [check.shape_dtype]
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
                      description=(f"Inputs drawn by hypothesis by strata, valid and invalid, every mode: {examples} "
                                   f"per backend, seed {seed_value}; a failure no known difference explains is shrunk "
                                   "and written to cases/found/."))
