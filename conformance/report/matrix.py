"""The page's data: the matrix, the details and the filters' codes of every check, as compact JSON that the page's
script (templates/_page.js.j2) draws from on demand. A run of hundreds of thousands of checks would be hundreds of
megabytes as markup, and a page that slow to open; as columns of small integers and tables of the strings they
share, it is a few megabytes, and the page draws only the rows in view and the details a reader opens.

Layout (every list in matrix order; "S" is the table of strings that evidence, ids and commands share):

- ``cols``: the columns; ``colA``: each column's part of an anchor (text.anchor), so the script builds the anchors
  of cells and rows exactly as the templates once did.
- ``case``: one list per field (``id``, ``a`` its anchor part, ``file`` index into ``files``, ``line``, ``mode``,
  ``group``, ``desc``, ``suites`` (codes, as the suite filter lists them), ``interp``, ``op``, ``params``,
  ``expect``, ``spec``, ``specL`` (the public pages of its spec, as indexes into ``specs``: [title, url] each,
  report/specs.spec_links), ``source``, ``text``).
- ``end``: where each cell's checks end in ``k`` (a cell is case x column, case-major).
- ``ptext``: each path code's path for people (text.path_text).
- ``k``: each check's code, ((path * len(dtypes)) + dtype) * len(verdicts) + verdict (Codes' lists), cell by cell,
  worst verdict first; ``g``: the check's group in its cell's section (a block of evidence, or a line of reasons
  for not-applicable and skipped checks), -1 for a pass or a skip.
- ``sec``: per cell with details (key: the cell's index), ``[blocks, briefs]``: a block is ``[evidence, checks]``,
  each check ``[x, part, t]`` (its id is ``S[x] + "[" + part + "]"``, or ``part`` when x is -1; its rerun command is
  ``S[t]`` with "\\x01" standing for part and "\\x02" for ``S[x]``, or ``S[-t - 1]`` as it is when t is negative); a
  brief is ``[verdict, reason]``.
- ``ev``: evidence shared by checks (verdict, dtype, message, expected, actual shape, actual dtype, declared shape,
  error, stage, first difference index, expected, actual, count, size, known entry, looks like: a list of [entry id,
  what differs, the entry's anchor] of the entries a failing check nearly matches, the key line of a multi-line error);
  the message quotes such an error by its key line (text.told), the error row shows it in full. Strings as indexes
  into S and -1 for none.
- ``known``: the known differences' entries that evidence names (label, anchor, reason, link, href, verdict).

Everything here is untrusted text from a results file: the script puts it into the page as text, never as markup,
and the JSON is written so that no "<" can close its script element (see dumps).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from conformance.report.tally import rank
from conformance.report.text import anchor, key_line, outcome, shape, told
from conformance.report.views import Codes, known_key
from conformance.results.record import CheckRecord
from conformance.verdicts import NOT_APPLICABLE, PASS, SKIPPED

# Verdicts listed as one line per reason in a cell's details rather than as a block of their own.
BRIEF = frozenset({NOT_APPLICABLE, SKIPPED})
QUIET = BRIEF | {PASS}  # no block of their own
# What checks sharing a block may differ in: which check it is and how it was run, not what it found.
_NOT_EVIDENCE = ("id", "path", "variant", "rerun", "duration")

_ID = re.compile(r"(.*)\[([^\[\]]*)\]", re.DOTALL)


class _Strings:
    """A table of distinct strings; index() gives a string's place in it, -1 for None."""

    def __init__(self) -> None:
        self.table: list[str] = []
        self._index: dict[str, int] = {}

    def index(self, s: Any) -> int:
        if s is None:
            return -1
        s = str(s)
        i = self._index.get(s)
        if i is None:
            i = self._index[s] = len(self.table)
            self.table.append(s)
        return i


def evidence_key(c: CheckRecord) -> str:
    """What a block of evidence shows: checks that differ only in path (and so in id and rerun command) share a
    block, since a backend usually fails the same way on every path, and one block naming the paths reads better,
    and weighs less, than the same evidence again and again."""
    return json.dumps({k: v for k, v in c.to_json().items() if k not in _NOT_EVIDENCE}, sort_keys=True, default=str)


def _check_ref(c: CheckRecord, strings: _Strings) -> list[Any]:
    """[x, part, t]: a check's id and rerun command, the parts many checks share in the string table."""
    m = _ID.fullmatch(c.id)
    if not m or "\x01" in c.id or "\x02" in c.id:
        x, head, part = -1, "", c.id
    else:
        head, part = m[1], m[2]
        x = strings.index(head)
    rerun = c.rerun or c.id
    template = rerun
    if x >= 0 and "\x01" not in rerun and "\x02" not in rerun:
        template = rerun.replace(part, "\x01") if part else rerun
        template = template.replace(head, "\x02") if head else template
    rebuilt = template.replace("\x02", head).replace("\x01", part) if x >= 0 else template
    t = strings.index(template) if rebuilt == rerun and x >= 0 else -1 - strings.index(rerun)
    return [x, part, t]


def _evidence(c: CheckRecord, known: dict[str, int], anchors: dict[str, str], strings: _Strings) -> list[Any]:
    actual, diff = c.actual, c.first_diff
    s = strings.index
    error = actual.error if actual and isinstance(actual.error, str) else None
    return [s(c.verdict), s(c.dtype), s(told(str(c.message or ""), error)), s(outcome(c.expected)),
            s(shape(actual.shape) if actual else None), s(actual.dtype if actual else None),
            # The shape declared before running matters when it is not the shape that came out.
            s(shape(actual.declared_shape) if actual and actual.declared_shape != actual.shape else None),
            s(actual.error if actual else None), s(actual.stage if actual else None),
            s(shape(diff.index) if diff else None), s(diff.expected if diff else None),
            s(diff.actual if diff else None), diff.count if diff and isinstance(diff.count, int) else -1,
            diff.size if diff and isinstance(diff.size, int) else -1,
            known.get(known_key(c.known), -1) if isinstance(c.known, dict) else -1,
            _looks_like(c, anchors, strings),
            s(key_line(error)) if error and "\n" in error.strip() else -1]


def _looks_like(c: CheckRecord, anchors: dict[str, str], strings: _Strings) -> list[list[int]]:
    """[[id, what differs, anchor], ...] of the known entries a failing check nearly matches (conformance.known.near),
    as indexes into S; the anchor (-1: none) where the report lists the entry, because some check met it."""
    near = c.looks_like if isinstance(c.looks_like, list) else []
    out = []
    for n in near:
        if not isinstance(n, dict):
            continue
        differs = f"{n.get('differs_in')}: the entry asks {n.get('entry')}, the check has {n.get('check')}"
        out.append([strings.index(n.get("id")), strings.index(differs), strings.index(anchors.get(str(n.get("id"))))])
    return out


def page_data(cases: list[dict[str, Any]], columns: list[str], checks: Iterable[CheckRecord], codes: Codes,
              known: dict[str, dict[str, Any]], files: list[str]) -> dict[str, Any]:
    """The page's data (see the module's docstring) of `cases` (case views, in matrix order), `columns`, `checks`,
    their filter `codes`, the `known` entries (known_entries) and the case `files` in matrix order."""
    strings = _Strings()
    by_cell: dict[tuple[str, str], list[CheckRecord]] = defaultdict(list)
    for c in checks:
        by_cell[(c.case, c.column)].append(c)
    known_list = list(known.values())
    known_index = {key: i for i, key in enumerate(known)}
    known_anchors = {str(entry["label"]): str(entry["anchor"]) for entry in known.values()}
    file_index = {f: i for i, f in enumerate(files)}
    nd, nv = len(codes.dtypes), len(codes.verdicts)
    ends: list[int] = []
    k: list[int] = []
    g: list[int] = []
    sec: dict[str, list[Any]] = {}
    evidence: dict[str, int] = {}
    ev_rows: list[list[Any]] = []
    for ci, (case, col) in enumerate((case, col) for case in cases for col in columns):
        found = sorted(by_cell.get((case["id"], col), ()), key=lambda c: (rank(c.verdict), str(c.id)))
        blocks: dict[str, list[Any]] = {}
        briefs: dict[tuple[str, str], int] = {}
        groups: list[Any] = []  # per check: its block's key, its brief's key, or None
        for c in found:
            k.append((codes.path_code(c) * nd + codes.dtype_code(c)) * nv + codes.verdict_code(c.verdict))
            if c.verdict in BRIEF:
                key = (c.verdict, str(c.message or "no reason given"))
                briefs.setdefault(key, len(briefs))
                groups.append(key)
            elif c.verdict in QUIET:
                groups.append(None)
            else:
                ekey = evidence_key(c)
                if ekey not in blocks:
                    if ekey not in evidence:
                        evidence[ekey] = len(ev_rows)
                        ev_rows.append(_evidence(c, known_index, known_anchors, strings))
                    blocks[ekey] = [evidence[ekey], []]
                blocks[ekey][1].append(_check_ref(c, strings))
                groups.append(ekey)
        block_index = {key: i for i, key in enumerate(blocks)}
        # The lines of not-applicable and skipped checks follow the blocks.
        g.extend(-1 if key is None else block_index[key] if isinstance(key, str) else len(blocks) + briefs[key]
                 for key in groups)
        ends.append(len(k))
        if any(c.verdict not in (PASS, SKIPPED) for c in found):
            sec[str(ci)] = [list(blocks.values()),
                            [[codes.verdict_code(v), strings.index(reason)] for v, reason in briefs]]
    field = {name: [case[key] for case in cases] for name, key in (
        ("id", "id"), ("mode", "mode"), ("group", "group"), ("desc", "description"), ("suites", "suite_codes"),
        ("interp", "interpretation"), ("op", "op"), ("params", "params"),
        ("expect", "expect"), ("spec", "spec_ref"), ("source", "source"), ("text", "text"), ("line", "line"))}
    # A case's spec pages as indexes into one list: the same few urls for thousands of cases
    pages: dict[tuple[str, str], int] = {}
    field["specL"] = [[pages.setdefault((title, url), len(pages)) for title, url in case["spec_links"]]
                      for case in cases]
    return {"cols": columns, "colA": [anchor(col) for col in columns], "files": files, "ptext": codes.path_texts(),
            "specs": [list(page) for page in pages],
            "case": {**field, "a": [anchor(case["id"]) for case in cases],
                     "file": [file_index[str(case["file"])] for case in cases]},
            "end": ends, "k": k, "g": g, "sec": sec, "ev": ev_rows, "S": strings.table,
            "known": [{key: entry[key] for key in ("label", "anchor", "reason", "link", "href", "verdict")}
                      for entry in known_list]}


def dumps(data: Any) -> str:
    """JSON to put inside <script type="application/json">: "<", ">" and "&" written as \\u escapes, so that no
    text of a results file can end the element or start markup; JSON.parse reads them back unchanged."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
