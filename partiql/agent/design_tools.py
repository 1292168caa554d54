"""The design-time tools of ``partiql mcp``: heat, simulate and compare_designs (``registry.tool``).

A workload is TOML (WORKLOADS.md), given inline (``workload``) or as a local file (``path``: its data files
are read beside it). A run replays it on a virtual clock with DynamoDB's partition throughput enforced —
seconds of wall time for minutes of traffic — on tables of its own: the server's database is not touched.
"""

from __future__ import annotations

from .answers import Answer, ToolError, plain
from .registry import tool

MAX_DESIGNS = 8
WORKLOAD = {"type": "string", "minLength": 1, "description": "the workload as TOML text (tables, [[pattern]]s with "
            "statements and rates, [[data]]; see the workloads resource)"}
PATH = {"type": "string", "minLength": 1, "description": "a workload file (TOML) on this machine"}
RUN = {"duration": {"type": "number", "exclusiveMinimum": 0, "description": "seconds of virtual time (default: "
                    "the workload's)"},
       "seed": {"type": "integer"},
       "allow_scan": {"type": "boolean", "description": "full Scans are meant (else a pattern that is one is "
                      "reported as an undeclared Scan)"}}


@tool("heat", "A table's (or GSI's) partitions over the last seconds: consumed units against each partition's "
      "ceiling (3,000 RCU / 1,000 WCU), throttles by reason, the top keys, and advice (a hot key, a thin GSI).",
      {"table": {"type": "string", "minLength": 1}, "index": {"type": "string", "minLength": 1},
       "seconds": {"type": "integer", "minimum": 1, "maximum": 3600, "default": 60}}, ("table",))
def heat(desk, arguments: dict) -> Answer:
    from partiql.engine.throughput.report import advice
    from partiql.extension import metrics_to_wire
    from partiql.shell.heat import render

    seconds = arguments.get("seconds", 60)
    found = desk.db.metrics(arguments["table"], arguments.get("index"), last=seconds)
    return Answer(render(found, seconds), plain(dict(metrics_to_wire(found), Advice=advice(found))))


def _workload(arguments: dict, tool_name: str):
    from partiql.simulate import load, parse

    if ("workload" in arguments) == ("path" in arguments):
        raise ToolError(f"{tool_name}: give workload (TOML text) or path (a file) — one of the two")
    if "path" in arguments:
        return load(arguments["path"])
    return parse(arguments["workload"], "the workload given")


def _run_options(arguments: dict) -> dict:
    from partiql.simulate.workload import check_duration

    duration = arguments.get("duration")
    return {"duration": None if duration is None else check_duration(duration, "duration"),
            "seed": arguments.get("seed"), "allow_scan": arguments.get("allow_scan", False)}


def _simulated(run):
    """``run()``, a workload's errors (a WorkloadError: its words name the place) become the tool's."""
    from partiql.simulate import WorkloadError

    try:
        return run()
    except WorkloadError as error:
        raise ToolError(str(error)) from None


def _summary(found: dict) -> list:
    from partiql.shell.simulate import pattern_lines
    from partiql.simulate.wording import cost_lines

    lines = [f"{found['workload']}: {found['ran']:,.0f} s of virtual time, {found['requests']:,} requests "
             f"(seed {found['seed']})", found["verdict"]]
    for pattern in found["patterns"]:
        lines += pattern_lines(pattern)
    lines += [f"advice: {text}" for text in found["advice"]] + cost_lines(found)
    return lines


def _undeclared(outcomes: list) -> list:
    return sorted({pattern.name for outcome in outcomes
                   for pattern, plan in zip(outcome.workload.patterns, outcome.planned)
                   if plan.scan and not plan.meant})


@tool("simulate", "Run a workload (access patterns with rates, on its tables) on a virtual clock with DynamoDB's "
      "partition throughput enforced: which patterns throttle and why (a hot key, a thin GSI, on-demand's "
      "doubling), stale reads and conflicts if realism is on, and the monthly cost. Answers a summary and the "
      "report as data.", {"workload": WORKLOAD, "path": PATH, **RUN})
def simulate(desk, arguments: dict) -> Answer:
    from partiql.simulate import report, simulate as run

    workload = _simulated(lambda: _workload(arguments, "simulate"))
    outcome = _simulated(lambda: run(workload, **_run_options(arguments)))
    found = report(outcome)
    lines = _summary(found)
    unmeant = _undeclared([outcome])
    if unmeant:
        lines.append(f"undeclared full Scan: {', '.join(unmeant)} (scan = true on the pattern says it is meant)")
    return Answer("\n".join(lines), plain(dict(found, undeclared_scans=unmeant)))


@tool("compare_designs", f"Run the same workload against 2 to {MAX_DESIGNS} designs (each its CREATE TABLE "
      "statements, and changes to the workload's patterns: a sharded key's statement or params) and compare "
      "them: requests served, throttles and why, "
      "capacity, cost per million requests and a month.",
      {"workload": WORKLOAD, "path": PATH,
       "designs": {"type": "array", "minItems": 2, "maxItems": MAX_DESIGNS, "items": {
           "type": "object", "properties": {
               "name": {"type": "string", "minLength": 1},
               "tables": {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1},
                          "description": "CREATE TABLE statements (default: the workload's)"},
               "pattern": {"type": "array", "items": {"type": "object"}, "description": "changes to the "
                           "workload's patterns, by name: statement, params, rate, all_pages, limit (as a "
                           "workload's [[design.pattern]])"}},
           "required": ["name"], "additionalProperties": False}},
       **RUN}, ("designs",))
def compare_designs(desk, arguments: dict) -> Answer:
    from partiql.shell.simulate import render_comparison
    from partiql.simulate import compare, comparison
    from partiql.simulate.workload import parse_design

    names = [design["name"] for design in arguments["designs"]]
    if len(set(names)) < len(names):
        raise ToolError(f"compare_designs: two designs are named {next(n for n in names if names.count(n) > 1)!r}; "
                        "each needs a name of its own")
    workload = _simulated(lambda: _workload(arguments, "compare_designs"))
    names = [pattern.name for pattern in workload.patterns]
    designs = _simulated(lambda: [parse_design(design, f"designs[{n}]", names)
                                  for n, design in enumerate(arguments["designs"])])
    outcomes = _simulated(lambda: compare(workload, designs, **_run_options(arguments)))
    found = comparison(outcomes)
    lines = [render_comparison(found)]
    for each in found["designs"]:
        lines += ["", f"design {each.get('design')}: {each['verdict']}"] + [f"  advice: {a}" for a in each["advice"]]
    unmeant = _undeclared(outcomes)
    if unmeant:
        lines.append(f"undeclared full Scan: {', '.join(unmeant)}")
    return Answer("\n".join(lines), plain({"comparison": found["comparison"], "undeclared_scans": unmeant,
                                           "designs": [{"design": each.get("design"), "verdict": each["verdict"],
                                                        "advice": each["advice"], "patterns": [
                                                            {k: p[k] for k in ("name", "requested", "served",
                                                                               "throttled", "failed", "reasons")}
                                                            for p in each["patterns"]]}
                                                       for each in found["designs"]]}))
