"""``partiql simulate [WORKLOAD] [DATABASE] [--design FILE]… [--duration S] [--seed N] [--exact] [--model FILE]
[--costs FILE] [--region R] [--json] [--html F]``: run a workload (on DATABASE's tables and items, when given),
print its report; with designs (``--design`` files, or the workload's ``[[design]]`` tables) the same
traffic runs against each and a side-by-side comparison ends the report.

The terminal report: per pattern what was requested, served, throttled
(with the reasons) and failed, with a line of the throttled share per
second; per table and GSI its partitions' heat over the last minute, top
keys and advice (``shell.heat``). ``--json`` prints ``partiql.simulate.report``
instead. A progress bar runs on stderr (on a terminal); Ctrl-C stops the run
and reports what ran. Exit status: 0, or 1 for a workload that cannot run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from partiql.cli_help import WordWrap
from partiql.simulate import WorkloadError, compare, comparison, design_from_file, load, report, simulate
from partiql.simulate.wording import cost_lines, realism_line, retry_line, scaling_lines, stale_line
from partiql.simulate.cost_settings import check_region
from partiql.simulate.workload import check_duration, check_seed

from . import heat
from .printable import printable
from .progress import Progress, bar

HEAT_SECONDS = 60  # the heat picture's columns: the last minute of the run
STRIP = 60         # columns of a pattern's throttled-share strip at most (a column covers more seconds in long runs)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(formatter_class=WordWrap, prog="partiql simulate",
                                     description="Run an access-pattern workload "
                                     "(a TOML file) against its table design on a virtual clock, with "
                                     "DynamoDB's partition throughput enforced, and report where it throttles.")
    parser.add_argument("workload", metavar="WORKLOAD", nargs="?",
                        help="the workload file (TOML; see examples/); optional with --model")
    parser.add_argument("database", metavar="DATABASE", nargs="?",
                        help="a database file whose tables and items the run starts from (read, never written)")
    parser.add_argument("--duration", type=float, metavar="S", help="seconds of virtual time (default: the file's)")
    parser.add_argument("--seed", type=int, metavar="N", help="random seed (default: the file's)")
    parser.add_argument("--design", action="append", default=[], metavar="FILE",
                        help="a table design to compare (CREATE TABLE statements; repeatable)")
    parser.add_argument("--allow-scan", action="store_true",
                        help="full Scans are meant (else a pattern that is one makes the exit status 1; "
                        "scan = true says so for one pattern)")
    parser.add_argument("--exact", action="store_true",
                        help="replay every request of a run longer than an hour (by default its steady seconds are "
                        "aggregated: the same throttles, minutes instead of hours)")
    parser.add_argument("--region", metavar="REGION", help="price the monthly cost in REGION (default: the file's "
                        "[cost] region, else us-east-1)")
    parser.add_argument("--model", metavar="FILE", help="a NoSQL Workbench model or an MCP server "
                        "dynamodb_data_model.json: its tables, items, auto scaling and access patterns (with a "
                        "WORKLOAD, its patterns run on them too)")
    parser.add_argument("--costs", metavar="FILE", help="the MCP server's cost input: the model's pattern rates")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--html", metavar="FILE", help="also write the report as a self-contained HTML page")
    return parser


def main(argv: list) -> int:
    args = build_parser().parse_args(argv)
    progress = Progress(sys.stderr, delay=0.5)
    started = time.perf_counter()
    try:
        workload = _workload(args)
        duration = None if args.duration is None else check_duration(args.duration, "--duration")
        seed = None if args.seed is None else check_seed(args.seed, "--seed")
        if args.region is not None:
            workload.cost.region = check_region(args.region, "--region")
        designs = [design_from_file(path) for path in args.design] or workload.designs
        if designs:
            outcomes = compare(workload, designs, duration=duration, seed=seed, database=args.database,
                               allow_scan=args.allow_scan, exact=args.exact or None,
                               progress=lambda design, done, total: progress.show(
                                   f"simulating {design.name} {bar(int(done), int(total))} s of virtual time"))
        else:
            outcomes = [simulate(workload, duration=duration, seed=seed, database=args.database,
                                 allow_scan=args.allow_scan, exact=args.exact or None,
                                 progress=lambda done, total: progress.show(
                                     f"simulating {bar(int(done), int(total))} s of virtual time"))]
    except (WorkloadError, OSError) as error:
        progress.clear()
        print(f"partiql simulate: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # (while the tables are built and seeded: the traffic itself stops cleanly)
        progress.clear()
        print("partiql simulate: interrupted while building and seeding the tables; no traffic ran", file=sys.stderr)
        return 130
    progress.clear()
    elapsed = time.perf_counter() - started
    if designs:
        found = comparison(outcomes)
        text = "\n\n".join([render(each, outcome, elapsed / len(outcomes))
                             for each, outcome in zip(found["designs"], outcomes)] + [render_comparison(found)])
    else:
        found = report(outcomes[0])
        text = render(found, outcomes[0], elapsed)
    print(json.dumps(found, indent=2) if args.json else text)
    if args.html:
        from partiql.simulate.html import page

        try:
            with open(args.html, "w", encoding="utf-8") as file:
                file.write(page(found))
        except OSError as error:
            print(f"partiql simulate: cannot write {args.html}: {error.strerror or error}", file=sys.stderr)
            return 1
        print(f"report written to {args.html}", file=sys.stderr)
    unmeant = sorted({p.name for outcome in outcomes for p, plan in zip(outcome.workload.patterns, outcome.planned)
                      if plan.scan and not plan.meant})
    if unmeant:
        print(f"partiql simulate: {', '.join(unmeant)}: a full Scan not declared (scan = true on the pattern, or "
              "--allow-scan)", file=sys.stderr)
        return 1
    return 0


def _workload(args):
    """The workload to run: the WORKLOAD file, the --model's, or the file's patterns on the model's tables."""
    if args.model is None:
        if args.workload is None:
            raise WorkloadError("give a WORKLOAD file, or --model FILE")
        return load(args.workload)
    import tempfile
    from pathlib import Path

    from partiql.model_files import ModelError, read_model
    from partiql.model_files.workload_text import workload_files
    from partiql.simulate.workload import merged

    if args.workload is not None and not args.workload.endswith(".toml") and args.database is None:
        args.workload, args.database = None, args.workload  # (with --model, one argument not .toml is a DATABASE)
    try:
        model = read_model(args.model, args.costs)
        with tempfile.TemporaryDirectory() as folder:  # (data files are read as the workload is)
            path = workload_files(model, Path(folder) / "model.toml", args.model, starters=args.workload is None)[0]
            imported = load(path, patterns_needed=args.workload is None)
    except ModelError as error:
        raise WorkloadError(str(error)) from None
    imported.source = args.model
    return imported if args.workload is None else merged(imported, load(args.workload))


def render_comparison(found: dict) -> str:
    """The designs side by side."""
    from tabulate import tabulate

    rows = [[row["design"], f"{row['requested']:,}", f"{row['served_share']:.1%}" if row["requested"] else "-",
             f"{row['throttled']:,}", ", ".join(row["reasons"]) or "-", f"{row['read_units']:,.0f}",
             f"{row['write_units']:,.0f}",
             "-" if row["cost_per_million_requests"] is None else f"${row['cost_per_million_requests']:,.2f}",
             f"${row['monthly']:,.2f}",
             "-" if row["per_million_served"] is None else f"${row['per_million_served']:,.2f}"]
            for row in found["comparison"]]
    return "designs compared:\n" + printable(tabulate(rows, headers=["design", "requests", "served", "throttled", "why",
                                                            "RCU", "WCU", "per million requests", "a month",
                                                            "per million served"],
                                            tablefmt="plain", disable_numparse=True))


def render(found: dict, outcome, elapsed: float) -> str:
    """The terminal report (names and keys from the workload shown escaped: ``printable``)."""
    return printable(_render(found, outcome, elapsed))


def _render(found: dict, outcome, elapsed: float) -> str:
    name = found["workload"] if found.get("design") is None else f"{found['workload']}, design {found['design']}"
    head = (f"{name}: {found['ran']:,.0f} s of virtual time, {found['requests']:,} requests "
            f"(seed {found['seed']}), run in {elapsed:,.1f} s ({found['requests'] / max(elapsed, 1e-9):,.0f} "
            "requests/s)" + _aggregated(found) + (" -- interrupted" if found["interrupted"] else ""))
    lines = [head, "", found["verdict"], ""] + [line for line in [realism_line(found)] if line]
    for pattern in found["patterns"]:
        lines += pattern_lines(pattern)
    lines += [f"advice: {text}" for text in found["advice"]]
    for text, target in zip(scaling_lines(found), found.get("autoscaling", [])):
        lines += [text, _utilization(target)]
    lines += ["", *cost_lines(found)]
    for resource in found["resources"]:
        metrics = outcome.db.engine.throughput.metrics(resource["table"], resource["index"],
                                                       last=max(1, min(HEAT_SECONDS, int(found["ran"]) or 1)))
        lines += ["", _capacity(resource), heat.render(metrics, HEAT_SECONDS)]
    return "\n".join(lines)


def _utilization(target: dict) -> str:
    """A target's consumption over its capacity, minute by minute (at most ``STRIP`` columns), ``!`` past it."""
    minutes = target["per_minute"]
    width = max(1, -(-len(minutes) // STRIP))
    cells = []
    for at in range(0, len(minutes), width):
        chunk = minutes[at:at + width]
        share = max(consumed / 60 / units for _, units, consumed in chunk)
        top = len(heat.SHADES) - 1
        cells.append("!" if share > 1 else heat.SHADES[min(top, round(share * top))])
    return (f"  consumed / capacity, a column {'a minute' if width == 1 else f'per {width:,} min'} |{''.join(cells)}|"
            " (! past it: burst, then throttles)")


def _aggregated(found: dict) -> str:
    """How much of the run was aggregated (steady seconds charged at once: replay.py), if any."""
    aggregated = found.get("aggregated_seconds", 0)
    if not aggregated:
        return ""
    return (f"; {aggregated:,} of {found['ran']:,.0f} s aggregated (steady seconds charged at once; the rest "
            "replayed request by request, --exact for all)")


def pattern_lines(pattern: dict) -> list:
    """A pattern's lines of the report: what was requested and served, its access path, its throttles and
    failures."""
    requested = pattern["requested"]
    share = f" ({pattern['served_share']:.0%})" if requested else ""
    lines = [f"{pattern['name']}: {requested:,} requested, {pattern['served']:,} served{share}, "
             f"{pattern['throttled']:,} throttled, {pattern['failed']:,} failed · {pattern['statement']}",
             f"  {pattern['access']}" + ("" if not pattern["full_scan"] else " -- a full Scan every request"
                                           + ("" if pattern["scan_meant"] else " (not declared)"))]
    if pattern.get("expected"):
        lines.append(f"  expect: {pattern['expected']}")
    if pattern["throttled"]:
        seconds = pattern["per_second"]
        width = max(1, -(-len(seconds) // STRIP))  # (seconds a column: a long run's strip stays a line)
        cells = "".join(_share_cell([sum(s[c] for s in seconds[at:at + width]) for c in range(4)])
                        for at in range(0, len(seconds), width))
        lines.append(f"  throttled share, a column {'a second' if width == 1 else f'per {width:,} s'} |{cells}|")
    if pattern.get("vector_search_bytes"):
        lines.append(f"  vector search: {pattern['vector_search_bytes'] / max(1, pattern['served']):,.0f} bytes a "
                     "search examined (VectorSearchRequestBytes)")
    lines += [f"  throttled: {reason} × {count:,}" for reason, count in pattern["reasons"].items()]
    lines += [f"  failed: {code} × {count:,}" for code, count in pattern["errors"].items()]
    return lines + [f"  {line}" for line in (stale_line(pattern), retry_line(pattern)) if line]


def _share_cell(second: list) -> str:
    requested, _, throttled, _ = second
    if not throttled:
        return heat.SHADES[0]
    return heat.SHADES[min(len(heat.SHADES) - 1, 1 + int(throttled / requested * (len(heat.SHADES) - 2)))]


def _capacity(resource: dict) -> str:
    name = resource["table"] if resource["index"] is None else f"{resource['table']} index {resource['index']}"
    seconds = resource["consumed_per_second"] or [[0.0, 0.0]]
    average = [sum(second[d] for second in seconds) / len(seconds) for d in (0, 1)]
    peak = [max(second[d] for second in seconds) for d in (0, 1)]
    provisioned = resource["provisioned"]
    against = "on demand" if provisioned is None else f"provisioned {provisioned[0]:,} RCU / {provisioned[1]:,} WCU"
    return (f"{name} ({against}): consumed {average[0]:,.0f} RCU/s (peak {peak[0]:,.0f}), "
            f"{average[1]:,.0f} WCU/s (peak {peak[1]:,.0f})")

