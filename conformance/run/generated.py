"""Generated cases: hypothesis draws inputs of every mode, valid and invalid, and runs them on a backend.

An input is drawn as a valid broadcast (an output shape, then data and target_shape that broadcast to it), and
then, often, given one defect: a changed dimension, a negative target value, or an axes_mapping that is
shifted, reversed, repeated, too short, too long or given in the wrong mode. The reference says what the spec
prescribes for the result, valid or which rule it breaks, so a drawn input needs no expectation of its own.

Each drawn input runs as a check on one of the backend's variants and element types, in a worker process like
every other check, and is judged the same way. A failing verdict is fine only if a known difference explains it
by the traits of its inputs (conformance/traits.py, ``inputs:`` of an entry). Any other failure is shrunk by
hypothesis to a minimal input and written to ``cases/found/`` as a YAML case with the seed that found it, so it
becomes a permanent, named case that runs in every later run.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, Phase, assume, given, seed, settings
from hypothesis import strategies as st

import reference
from conformance import traits
from conformance.cases import GENERATED, Case, as_yaml_dims
from conformance.checks import Check, execute, result_record

DEFAULT_EXAMPLES = 40
DEFAULT_SEED = 20261123
DTYPES = ("u8", "f32")  # a 1-byte and a 4-byte type: the copy paths differ by element size
MAX_RANK = 6
DIMS = (0, 1, 1, 2, 3, 4)  # 1 twice: it is the dimension every rule treats apart
DEFECTS = (None, None, None, "dim", "dim", "short_target", "negative", "axes_shift", "axes_reverse", "axes_repeat",
           "axes_drop", "axes_extra", "axes_in_numpy", "axes_missing")
SPEC_REF = {"numpy": "000_ece0cbba5cb063a0.txt#Detailed description",
            "explicit": "000_ece0cbba5cb063a0.txt#Detailed description",
            "bidirectional": "003_38ca088f58e9a6c7.txt#Rules (Bidirectional broadcast)"}


@st.composite
def inputs(draw: Callable[..., Any]) -> dict[str, Any]:
    """mode, data_shape, target_shape and axes_mapping (None outside explicit mode, unless a defect adds it)."""
    mode = draw(st.sampled_from(("numpy", "explicit", "bidirectional")))
    rank = draw(st.integers(0, MAX_RANK))
    out = draw(st.lists(st.sampled_from(DIMS), min_size=rank, max_size=rank))
    axes = None
    if mode == "numpy":
        data_rank = draw(st.integers(0, rank))
        data = [draw(st.sampled_from((d, 1))) for d in out[rank - data_rank:]]
        target = list(out)
    elif mode == "explicit":
        axes = sorted(draw(st.sets(st.integers(0, rank - 1), max_size=rank))) if rank else []
        data = [draw(st.sampled_from((out[a], 1))) for a in axes]
        target = list(out)
    else:  # each side a right-aligned part of the output, each dimension the output's or 1
        data = [draw(st.sampled_from((d, 1))) for d in out[rank - draw(st.integers(0, rank)):]]
        target = [draw(st.sampled_from((d, 1))) for d in out[rank - draw(st.integers(0, rank)):]]
    defect = draw(st.sampled_from(DEFECTS))
    if defect == "dim" and (data or target):  # a dimension that no longer matches (unless it faces a 1)
        side = data if data and (not target or draw(st.booleans())) else target
        axis = draw(st.integers(0, len(side) - 1))
        side[axis] = draw(st.sampled_from([d for d in (0, 2, 3, 5) if d != side[axis]]))
    elif defect == "short_target" and target:
        target = target[1:]
    elif defect == "negative" and target:
        target[draw(st.integers(0, len(target) - 1))] = draw(st.sampled_from((-1, -2)))
    elif mode == "explicit" and axes:
        if defect == "axes_shift":
            axes = [a + 1 for a in axes]
        elif defect == "axes_reverse" and len(axes) > 1:
            axes = axes[::-1]
        elif defect == "axes_repeat":
            axes = axes + axes[-1:]
            data = data + [1]
        elif defect == "axes_drop":
            axes = axes[:-1]
        elif defect == "axes_extra":
            axes = axes + [rank]
        elif defect == "axes_missing":
            axes = None
    elif defect == "axes_in_numpy" and mode != "explicit":
        axes = list(range(len(data)))
    return {"mode": mode, "data_shape": data, "target_shape": target, "axes_mapping": axes}


def as_case(drawn: dict[str, Any]) -> Case:
    """The drawn input as a Case, with the outcome the reference prescribes."""
    mode = drawn["mode"]
    try:
        shape = reference.output_shape(drawn["data_shape"], drawn["target_shape"], drawn["axes_mapping"], mode)
        expect_shape, reject = tuple(shape), None
    except reference.BroadcastRuleError as e:
        expect_shape, reject = None, e.rule
    key = json.dumps(drawn, sort_keys=True)
    return Case(id=f"gen_{hashlib.sha1(key.encode()).hexdigest()[:10]}", file="(generated)", line=0,
                group=GENERATED, mode=mode, versions=(3,) if mode == "bidirectional" else (1, 3),
                data_shape=tuple(drawn["data_shape"]), target_shape=list(drawn["target_shape"]),
                axes_mapping=drawn["axes_mapping"], expect_shape=expect_shape, expect_reject=reject,
                spec_ref=SPEC_REF[mode])


@dataclass
class Search:
    """What one backend's search saw: counts by verdict, known differences by id, and the failure it shrank."""

    examples: int = 0  # checks run until the first failure (the rest shrank it)
    shrinks: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)
    known: Counter[str] = field(default_factory=Counter)
    failure: tuple[Check, str, dict[str, Any]] | None = None  # the last failing check: hypothesis's minimal one

    def summary(self) -> str:
        counts = ", ".join(f"{n} {verdict}" for verdict, n in self.verdicts.most_common())
        known = f"; known differences: {', '.join(f'{k} ×{n}' for k, n in self.known.most_common())}" \
            if self.known else ""
        shrunk = f"; then {self.shrinks} more to shrink the failure" if self.shrinks else ""
        return f"{self.examples} generated checks ({counts}){known}{shrunk}"


def search(backend: Any, backend_ref: str, run: Callable[..., Any], known: list[Any], version: str | None,
           examples: int, seed_value: int, budget: int) -> Search:
    """Run ``examples`` generated checks on one backend; on a failure, hypothesis shrinks it and the minimal
    failing check is in ``Search.failure``."""
    seen = Search()

    @settings(max_examples=examples, database=None, deadline=None, print_blob=False, report_multiple_bugs=False,
              phases=(Phase.generate, Phase.shrink), suppress_health_check=list(HealthCheck))
    @seed(seed_value)
    @given(drawn=inputs(), choice=st.data())
    def prop(drawn: dict[str, Any], choice: st.DataObject) -> None:
        case = as_case(drawn)
        variants = sorted(v for v, why in backend.variants_for(case).items() if why is None)
        assume(variants)  # an input the backend cannot express does not count as an example
        variant = choice.draw(st.sampled_from(variants), label="variant")
        dtype = choice.draw(st.sampled_from(DTYPES), label="dtype")
        check = Check(case, backend.name, backend_ref, variant, dtype, backend.variants[variant],
                      backend.why_not(case, variant, dtype), "i64", backend.shape_type_rule(variant, "i64"))
        assume(not check.not_applicable)
        record = result_record(check, check.name, version)
        outcome, message = execute(check, run, known, record, budget=budget)
        if seen.failure is not None:
            seen.shrinks += 1
        else:
            seen.examples += 1
            seen.verdicts[record["verdict"]] += 1
            if record["known"]:
                seen.known[record["known"]["id"]] += 1
        if outcome == "failed":
            seen.failure = (check, message or record["verdict"], record)
            raise AssertionError(message)

    try:
        prop()
    except Exception:  # the failure, or hypothesis's Flaky when it did not fail again while shrinking
        if seen.failure is None:
            raise
    return seen


def found_case_yaml(check: Check, message: str, seed_value: int, examples: int) -> tuple[str, str]:
    """A found failure as a case file: (case id, YAML text)."""
    case = check.case
    case_id = "found_" + case.id.removeprefix("gen_")
    entry: dict[str, Any] = {
        "id": case_id,
        "description": (f"Found by the generated checks on {check.backend} ({check.variant}, {check.dtype}): "
                        f"{message.split(' [')[0]}"),
        "mode": case.mode, "data_shape": list(case.data_shape), "target_shape": case.target_shape}
    if case.axes_mapping is not None:
        entry["axes_mapping"] = case.axes_mapping
    entry["expect"] = {"shape": as_yaml_dims(case.expect_shape)} if case.valid else {"reject": case.expect_reject}
    entry["spec_ref"] = case.spec_ref
    entry["dtypes"] = [check.dtype]
    header = (f"# yaml-language-server: $schema=../../conformance/case.schema.json\n"
              f"# Written by the generated checks (conformance/generated.py): seed {seed_value}, {examples} examples\n"
              f"# (pytest conformance --backend {check.backend_ref} --generated-seed {seed_value} "
              f"--generated-examples {examples}),\n# shrunk by hypothesis to this input. Traits of the input: "
              f"{', '.join(traits.of(case)) or 'none'}.\n")
    body = yaml.safe_dump({"group": "found", "description": "A divergence the generated checks found.",
                           "cases": [entry]}, sort_keys=False, width=110, allow_unicode=True)
    return case_id, header + body


def write_found(cases_dir: Path, check: Check, message: str, seed_value: int, examples: int) -> Path:
    """Write the found case under cases_dir/found/ (once: a file already there is kept as it is)."""
    case_id, text = found_case_yaml(check, message, seed_value, examples)
    path = cases_dir / "found" / f"{case_id}.yaml"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    return path


def case_data(examples: int, seed_value: int) -> dict[str, Any]:
    """The report's row for the generated checks (they share one row, a check per backend)."""
    return {"file": "conformance/generated.py", "line": 1, "group": GENERATED, "mode": "any", "versions": [1, 3],
            "data_shape": [], "target_shape": [], "axes_mapping": None, "expect": {},
            "spec_ref": "000_ece0cbba5cb063a0.txt", "source": None, "upstream_error": None, "interpretation": None,
            "description": (f"Inputs drawn by hypothesis, valid and invalid, every mode: {examples} per backend, "
                            f"seed {seed_value}; a failure no known difference explains is shrunk and written to "
                            "cases/found/."),
            "text": None}
