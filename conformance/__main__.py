"""Command line, e.g. ``python3 -m conformance report RESULTS.json [...] -o OUT.html [--compare OLD.json]``.

Each task is a subcommand, so others (running, listing cases) can sit beside ``report``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from conformance import report
from conformance.results import files as results


def _report(args: argparse.Namespace) -> int:
    runs = [report.load(p) for p in args.results]
    old = report.load(args.compare) if args.compare else None
    try:
        merged = results.merge(runs)
        report.write_report(merged, args.output, compare=old, bench=args.bench)
    except (KeyError, TypeError, AttributeError) as e:
        # The right "format" but a broken layout: say so rather than print a traceback.
        files = ", ".join(map(str, [*args.results, *([args.compare] if args.compare else [])]))
        raise report.Unusable(f"malformed results in {files} ({type(e).__name__}: {e})") from e
    print(args.output)
    for col, tally in report.tally_by_column(merged).items():
        rate = f"{100 * tally.rate:.1f}%" if tally.rate is not None else "n/a"
        print(f"  {col}: {tally.passed}/{tally.applicable} pass ({rate}), {tally.failing} failing, "
              f"{tally.known} known, {tally.total - tally.applicable} not run")
    if old is not None:
        counts = report.change_counts(merged, old)
        print(f"  since {old.run.started or args.compare}: " +
              ", ".join(f"{n} {kind.replace('_', ' ')}" for kind, n in counts.items()))
    return 0


def _schema(args: argparse.Namespace) -> int:
    from conformance.cases.schema import SCHEMA_PATH, editor_schema_text

    text = editor_schema_text()
    if args.check:
        if SCHEMA_PATH.read_text(encoding="utf-8") != text:
            print(f"{SCHEMA_PATH} is out of date: run python3 -m conformance schema", file=sys.stderr)
            return 1
        return 0
    SCHEMA_PATH.write_text(text, encoding="utf-8")
    print(SCHEMA_PATH)
    return 0


def _known(args: argparse.Namespace) -> int:
    from conformance.known import KnownFileError, load
    from conformance.known import verify as known_verify

    try:
        entries = load(args.known)
    except KnownFileError as e:
        print(f"broadcast-conformance known: {e}", file=sys.stderr)
        return 2
    if args.list:
        print(known_verify.listing(entries, args.backend))
        return 0
    return known_verify.main(entries, args.backend, timeout=args.timeout, jobs=args.jobs)


def _power(args: argparse.Namespace) -> int:
    import importlib

    from conformance.run import power

    module = importlib.import_module(args.planted)
    refs = [ref for ref, _ in module.planted()]
    if args.only:
        refs = [ref for ref in refs if any(o in ref or o == ref.split(":")[1] for o in args.only)]
    rows = []
    for row in power.measure(refs, args.cases, timeout=args.check_timeout, examples=args.generated_examples,
                             seed=args.generated_seed):
        rows.append(row)
        if args.verbose:
            print(f"  {row.name}: cases {row.cases.seconds:.1f} s, generated {row.generated.seconds:.1f} s",
                  file=sys.stderr)
    print(power.table(rows))
    return 0 if power.enough(rows) else 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="broadcast-conformance",
                                     description="Broadcast conformance suite tools.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rep = commands.add_parser("report", help="render results files as one HTML page",
                              description="Merge results files (a later file wins for the same check) and "
                                          "render them as one self-contained HTML page. Files of either results "
                                          "format (/1, /2) mix: checks are matched by case id and check.")
    rep.add_argument("results", nargs="+", type=Path, metavar="RESULTS.json")
    rep.add_argument("-o", "--output", type=Path, default=Path("reports/index.html"),
                     help="the HTML file to write (default: %(default)s)")
    rep.add_argument("--compare", type=Path, metavar="OLD.json",
                     help="an earlier results file: list new failures, fixes and other changes since it")
    rep.add_argument("--bench", type=Path, metavar="BENCH.json",
                     help="benchmark results (python3 -m bench.broadcast_bench) to chart in the report")
    rep.set_defaults(func=_report)
    schema = commands.add_parser("schema", help="write the case files' JSON Schema from the code's lists",
                                 description="Write conformance/cases/case.schema.json (what editors check case "
                                             "files against) from the ops' keys and rules and the code's lists.")
    schema.add_argument("--check", action="store_true", help="only say whether the file is up to date (exit 1 if not)")
    schema.set_defaults(func=_schema)
    known = commands.add_parser("known", help="list the known differences, or run their reproducers (--verify)",
                                description="Known differences (conformance/known/<backend>.yaml). --verify runs "
                                            "each entry's reproducer against the installed runtimes and prints a "
                                            "table; it exits 1 when an applicable entry's reproducer does not "
                                            "show its bug (fixed, or failed), so that no stale entry hides a fix.")
    what = known.add_mutually_exclusive_group(required=True)
    what.add_argument("--verify", action="store_true", help="run the reproducers (each in a subprocess)")
    what.add_argument("--list", action="store_true", help="the entries with their conditions, one line each")
    known.add_argument("--backend", action="append", metavar="NAME",
                       help="only this backend's entries (repeatable; default: all)")
    known.add_argument("--timeout", type=float, default=300.0, metavar="S",
                       help="seconds a reproducer may take (default: %(default)g)")
    known.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                       help="reproducers run at once (default: the core count)")
    known.add_argument("--known", action="append", type=Path, default=[], metavar="FILE",
                       help="an extra known-differences file (named after its backend), as pytest --known takes")
    known.set_defaults(func=_known)
    from conformance.run import generated

    pw = commands.add_parser("power", help="which planted bugs the YAML cases and the generated check catch",
                             description="Run the YAML cases (until the first failing check) and, separately, "
                                         "the default generated check against each planted bug (a backend with "
                                         "one defect, tests/planted/) and print a table. Exit 1 unless the cases "
                                         "catch every planted bug and the generated check at least 90%.")
    pw.add_argument("--planted", default="tests.planted", metavar="MODULE",
                    help="the module whose planted() lists the planted bugs (default: %(default)s)")
    pw.add_argument("--only", action="append", metavar="NAME", help="only planted bugs whose reference has NAME")
    pw.add_argument("--cases", type=Path, default=Path("cases"), help="the case directory (default: %(default)s)")
    pw.add_argument("--check-timeout", type=float, default=3.0, metavar="S",
                    help="seconds a check of a planted bug may take (default: %(default)g)")
    pw.add_argument("--generated-examples", type=int, default=generated.DEFAULT_EXAMPLES, metavar="N")
    pw.add_argument("--generated-seed", type=int, default=generated.DEFAULT_SEED, metavar="SEED")
    pw.add_argument("-v", "--verbose", action="store_true", help="the time each planted bug took, as it ends")
    pw.set_defaults(func=_power)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.func(args)
    except report.Unusable as e:
        print(f"broadcast-conformance {args.command}: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
