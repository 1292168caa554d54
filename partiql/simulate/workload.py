"""A workload file: the tables, the seed data and the access patterns of a simulation (TOML).

::

    # votes.toml -- 1,500 votes a second, nine in ten for one candidate
    duration = 60            # seconds of virtual time (--duration overrides)
    seed = 7                 # the same seed, the same run (--seed overrides)

    tables = [
      "CREATE TABLE Votes PRIMARY KEY (Candidate STRING HASH, Voter STRING RANGE) BILLING MODE ON DEMAND",
    ]

    [[data]]                 # seed items, written before the clock starts (no throughput is charged)
    table = "Votes"
    count = 1000
    item = { Candidate = { uniform = 10, prefix = "c" }, Voter = { sequence = "seed#{}" } }

    [[pattern]]
    name = "vote"
    statement = "INSERT INTO Votes VALUE {'Candidate': ?, 'Voter': ?}"
    params = [{ choice = ["CandidateA", "CandidateB"], weights = [9, 1] }, { sequence = "voter#{}" }]
    rate = 1500              # requests a second; see ``rates`` for ramps and spikes

The generators of ``params`` and ``item`` are those of ``generators``.
``load(path)`` / ``parse(text, source)`` return a ``Workload`` or raise
``WorkloadError`` naming the file and the place in it.
"""

from __future__ import annotations

import copy
import tomllib
from dataclasses import dataclass, field

from . import generators, rates
from .autoscaling import Policy, Scaling
from .cost_settings import CostSettings, parse_cost
from .retries import Retry, parse_retry
from .errors import WorkloadError
from .expected import Expect, parse_expect
from .item_requests import ItemRequest, parse_request
from .members import members as _members
from .numbers import MAX_SEED_ITEMS, number, whole

MAX_DURATION = 7 * 86_400  # a week: auto scaling's daily decrease quota and a bill need days (replay.py aggregates)
TOP_LEVEL = ("duration", "seed", "tables", "data", "pattern", "design", "prices", "autoscaling", "cost", "realism")
SCALING = ("table", "dimension", "min", "max", "target")
SCALING_OPTIONS = ("index", "scale_in_cooldown", "scale_out_cooldown", "disable_scale_in")
PRICES = ("read", "write")  # $ per million read / write request units (on demand), for the comparison


@dataclass
class Pattern:
    """One access pattern: a statement, its parameters' generators and its rate; ``limit`` is
    ExecuteStatement's Limit (a top ten reads ten items), and with ``all_pages`` a request follows
    NextToken to the end (what an application reading a whole result does)."""

    name: str
    statement: str
    params: list
    rate: rates.Rate
    all_pages: bool = False
    limit: int | None = None
    scan: bool = False  # a full Scan, and meant (planned.py)
    expect: Expect | None = None  # what it returns for the seed data (expected.py)
    request: ItemRequest | None = None  # an item-API request instead of PartiQL (``statement`` shows it)
    retry: Retry | None = None  # its client's retries (retries.py), or None: every failure is final


@dataclass
class Design:
    """A table design to run the same traffic against: its tables (None: the workload's) and, by
    pattern name, what its patterns do differently (statement, params, rate)."""

    name: str
    tables: list | None = None
    patterns: dict = field(default_factory=dict)  # name -> {"statement": ..., "params": [...], ...}


@dataclass
class Seed:
    """``count`` items for ``table``, each attribute drawn from its generator; or the ``items`` of a file."""

    table: str
    count: int
    item: dict
    items: list | None = None  # engine items read from ``[[data]] file``


@dataclass
class Workload:
    duration: float = 60.0
    seed: int = 0
    tables: list = field(default_factory=list)    # DDL statements
    seeds: list = field(default_factory=list)     # Seed
    patterns: list = field(default_factory=list)  # Pattern
    designs: list = field(default_factory=list)   # Design: compared side by side
    prices: dict | None = None                    # {"read": $, "write": $} per million request units
    source: str = "<workload>"
    design: str | None = None                     # the design this workload is (``with_design``)
    autoscaling: list = field(default_factory=list)  # autoscaling.Scaling
    cost: CostSettings = field(default_factory=CostSettings)  # [cost]: region, table classes, sizes
    realism: object = None  # [realism]: a function making a fresh engine.realism.Realism for each run, or None

    def with_design(self, design: Design) -> "Workload":
        """This workload with ``design``'s tables and pattern changes (a new Workload)."""
        patterns = []
        for pattern in self.patterns:
            changes = design.patterns.get(pattern.name, {})
            patterns.append(Pattern(pattern.name, changes.get("statement", pattern.statement),
                                    changes.get("params", pattern.params), changes.get("rate", pattern.rate),
                                    changes.get("all_pages", pattern.all_pages), changes.get("limit", pattern.limit),
                                    pattern.scan, pattern.expect,
                                    None if "statement" in changes else pattern.request, pattern.retry))
        return Workload(self.duration, self.seed, self.tables if design.tables is None else design.tables,
                        self.seeds, patterns, [], self.prices, self.source, design.name, self.autoscaling, self.cost,
                        self.realism)


def merged(model: Workload, workload: Workload) -> Workload:
    """``workload`` (its patterns, duration, seed, costs) run on ``model``'s tables, data, auto scaling and
    patterns too: ``partiql simulate WORKLOAD --model FILE``."""
    names = [pattern.name for pattern in model.patterns + workload.patterns]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise WorkloadError(f"{workload.source}: the model has patterns named {', '.join(twice)} too")
    out = copy.copy(workload)
    out.tables, out.seeds = model.tables + workload.tables, model.seeds + workload.seeds
    out.patterns, out.autoscaling = model.patterns + workload.patterns, model.autoscaling + workload.autoscaling
    return out


def load(path, patterns_needed: bool = True) -> Workload:
    """The workload in the TOML file ``path`` (one without a pattern only when not ``patterns_needed``: a
    model's tables, to run another file's patterns on)."""
    try:
        with open(path, "rb") as file:
            text = file.read().decode("utf-8")
    except UnicodeDecodeError as error:
        raise WorkloadError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    from pathlib import Path

    return parse(text, str(path), Path(path).parent, patterns_needed)


def parse(text: str, source: str = "<workload>", folder=None, patterns_needed: bool = True) -> Workload:
    """The workload TOML ``text`` describes (``source`` names it in errors; ``folder`` is where its data files
    are, by default the working directory)."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise WorkloadError(f"{source}: not TOML: {error}") from None
    except RecursionError:  # (tomllib reads nested arrays and tables recursively)
        raise WorkloadError(f"{source}: not a workload: arrays or tables nested too deeply to read") from None
    unknown = sorted(set(document) - set(TOP_LEVEL))
    if unknown:
        raise WorkloadError(f"{source}: unknown setting {', '.join(unknown)} (it takes duration, seed, tables, "
                            "[[data]], [[pattern]], [[design]], [prices], [[autoscaling]], [cost] and [realism])")
    workload = Workload(source=source)
    if "duration" in document:
        workload.duration = check_duration(document["duration"], f"{source}: duration")
    workload.seed = check_seed(document.get("seed", 0), f"{source}: seed")
    data = document.get("data", [])
    if not isinstance(data, list):
        raise WorkloadError(f"{source}: data takes [[data]] tables (table, count, item)")
    workload.seeds = [_seed(entry, f"{source}: data[{n}]", folder) for n, entry in enumerate(data)]
    tables = document.get("tables", [])
    if not isinstance(tables, list) or not all(isinstance(t, str) and t.strip() for t in tables):
        raise WorkloadError(f"{source}: tables takes a list of CREATE TABLE statements")
    workload.tables = tables
    patterns = document.get("pattern", [])
    if not isinstance(patterns, list) or (not patterns and patterns_needed):
        raise WorkloadError(f"{source}: no [[pattern]]: a workload needs at least one access pattern")
    workload.patterns = [_pattern(entry, f"{source}: pattern[{n}]") for n, entry in enumerate(patterns)]
    names = [p.name for p in workload.patterns]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise WorkloadError(f"{source}: two patterns are named {', '.join(twice)}")
    designs = document.get("design", [])
    if not isinstance(designs, list):
        raise WorkloadError(f"{source}: design takes [[design]] tables (name, tables, [[design.pattern]])")
    workload.designs = [parse_design(entry, f"{source}: design[{n}]", names) for n, entry in enumerate(designs)]
    if "prices" in document:
        workload.prices = _prices(document["prices"], f"{source}: prices")
    if "cost" in document:
        workload.cost = parse_cost(document["cost"], f"{source}: cost")
    scalings = document.get("autoscaling", [])
    if not isinstance(scalings, list):
        raise WorkloadError(f"{source}: autoscaling takes [[autoscaling]] tables ({', '.join(SCALING)})")
    workload.autoscaling = [_scaling(entry, f"{source}: autoscaling[{n}]") for n, entry in enumerate(scalings)]
    if "realism" in document:
        workload.realism = _realism(document["realism"], f"{source}: realism", folder)
    return workload


def _realism(value, where: str, folder):
    """``[realism]`` (a realism file's settings), or ``realism = "aws"`` (a preset) or a file's path: checked
    now, made anew for each run (a Realism keeps state: its generator, held items, recent writes)."""
    from pathlib import Path

    from partiql.engine.realism import PRESETS, RealismError, realism_from
    from partiql.engine.realism.settings import parse as parse_realism

    if isinstance(value, str) and value not in PRESETS:
        value = str(Path(folder or ".") / value)
    elif not isinstance(value, (str, dict)):
        raise WorkloadError(f"{where} takes a [realism] table, a preset ({', '.join(PRESETS)}) or a file's path")

    def made():
        return parse_realism(value, where) if isinstance(value, dict) else realism_from(value)
    try:
        made()
    except RealismError as error:
        raise WorkloadError(str(error) if isinstance(value, dict) else f"{where}: {error}") from None
    return made


def _scaling(entry, where: str) -> Scaling:
    _members(entry, where, required=SCALING, optional=SCALING_OPTIONS)
    for name in ("table", "index"):
        if name in entry and (not isinstance(entry[name], str) or not entry[name]):
            raise WorkloadError(f"{where}.{name} takes a name")
    if entry["dimension"] not in ("read", "write"):
        raise WorkloadError(f"{where}.dimension takes read or write, not {entry['dimension']!r}")
    policy = Policy(whole(entry["min"], f"{where}.min", 1), whole(entry["max"], f"{where}.max", 1),
                    number(entry["target"], f"{where}.target", what="percent"),
                    number(entry.get("scale_in_cooldown", 0), f"{where}.scale_in_cooldown", what="seconds"),
                    number(entry.get("scale_out_cooldown", 0), f"{where}.scale_out_cooldown", what="seconds"),
                    _flag(entry.get("disable_scale_in", False), f"{where}.disable_scale_in")).check(where)
    return Scaling(entry["table"], entry.get("index"), entry["dimension"], policy)


def parse_design(entry, where: str, patterns: list) -> Design:
    """A ``[[design]]`` table (``name``, ``tables``, ``[[design.pattern]]`` changes to the ``patterns`` named),
    checked; ``where`` names its place in errors."""
    _members(entry, where, required=("name",), optional=("tables", "pattern"))
    name, tables = entry["name"], entry.get("tables")
    if not isinstance(name, str) or not name:
        raise WorkloadError(f"{where}.name takes a name")
    if tables is not None and (not isinstance(tables, list) or not all(isinstance(t, str) for t in tables)):
        raise WorkloadError(f"{where}.tables takes a list of CREATE TABLE statements")
    changes = {}
    for n, change in enumerate(entry.get("pattern", [])):
        at = f"{where}.pattern[{n}]"
        _members(change, at, required=("name",), optional=("statement", "params", "rate", "all_pages", "limit"))
        if change["name"] not in patterns:
            raise WorkloadError(f"{at}: no pattern is named {change['name']!r} ({', '.join(patterns)})")
        built = {}
        if "statement" in change:
            built["statement"] = _statement(change["statement"], at)
        if "params" in change:
            built["params"] = _params(change["params"], at)
        if "rate" in change:
            built["rate"] = rates.build(change["rate"], f"{at}.rate")
        if "all_pages" in change:
            built["all_pages"] = _flag(change["all_pages"], f"{at}.all_pages")
        if "limit" in change:
            built["limit"] = _limit(change["limit"], f"{at}.limit")
        changes[change["name"]] = built
    return Design(name, tables, changes)


def _prices(entry, where: str) -> dict:
    _members(entry, where, required=PRICES)
    return {name: number(entry[name], f"{where}.{name}", what="dollars per million request units")
            for name in PRICES}


def design_from_file(path) -> Design:
    """A ``--design FILE``: the CREATE TABLE statements of a .sql file, named for the file."""
    from pathlib import Path

    from partiql.splitter import split_statements

    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise WorkloadError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    statements = [statement for statement, _ in split_statements(text)]
    if not statements:
        raise WorkloadError(f"{path}: no statement: a design file holds CREATE TABLE statements")
    return Design(Path(path).stem, statements)


def check_duration(value, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= MAX_DURATION:
        raise WorkloadError(f"{where} takes seconds from 1 to {MAX_DURATION:,} (a week), not {value!r}")
    return float(value)


def check_seed(value, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise WorkloadError(f"{where} takes a whole number, not {value!r}")
    return value


def _pattern(entry, where: str) -> Pattern:
    said = "statement" if not isinstance(entry, dict) or "statement" in entry or "operation" not in entry \
        else "request"
    required = ("statement", "rate") if said == "statement" else ("operation", "request", "rate")
    _members(entry, where, required=required,
             optional=("name", "params", "all_pages", "limit", "scan", "expect", "retries"))
    name = entry.get("name", where.rpartition(": ")[2])
    if not isinstance(name, str) or not name:
        raise WorkloadError(f"{where}.name takes a name")
    limit = entry.get("limit")
    request = None
    if said == "request":
        request = parse_request(entry["operation"], entry["request"], where)
        if "expect" in entry or "all_pages" in entry or "limit" in entry:
            raise WorkloadError(f"{where}: expect, all_pages and limit are a statement's (a request says its own "
                                "Limit)")
    statement = _statement(entry["statement"], where) if request is None else request.shown
    return Pattern(name, statement, _params(entry.get("params", []), where),
                   rates.build(entry["rate"], f"{where}.rate"),
                   _flag(entry.get("all_pages", False), f"{where}.all_pages"),
                   None if limit is None else _limit(limit, f"{where}.limit"),
                   _flag(entry.get("scan", False), f"{where}.scan"),
                   None if "expect" not in entry else parse_expect(entry["expect"], f"{where}.expect", statement),
                   request, parse_retry(entry["retries"], f"{where}.retries") if "retries" in entry else None)


def _limit(value, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise WorkloadError(f"{where} takes a whole number of items >= 1 (ExecuteStatement's Limit)")
    return value


def _statement(statement, where: str) -> str:
    if not isinstance(statement, str) or not statement.strip():
        raise WorkloadError(f"{where}.statement takes a PartiQL statement")
    return statement


def _params(params, where: str) -> list:
    if not isinstance(params, list):
        raise WorkloadError(f"{where}.params takes a list: one generator per ?")
    return [generators.build(spec, f"{where}.params[{n}]") for n, spec in enumerate(params)]


def _flag(value, where: str) -> bool:
    if not isinstance(value, bool):
        raise WorkloadError(f"{where} takes true or false")
    return value


def _seed(entry, where: str, folder) -> Seed:
    _members(entry, where, required=("table",), optional=("count", "item", "file"))
    table = entry["table"]
    if not isinstance(table, str) or not table:
        raise WorkloadError(f"{where}.table takes a table name")
    if "file" in entry:
        if "count" in entry or "item" in entry:
            raise WorkloadError(f"{where} takes file, or count and item: not both")
        return Seed(table, 0, {}, data_file(entry["file"], f"{where}.file", folder))
    _members(entry, where, required=("table", "count", "item"))
    count, item = entry["count"], entry["item"]
    whole(count, f"{where}.count", 0, MAX_SEED_ITEMS)
    if not isinstance(item, dict) or not item:
        raise WorkloadError(f"{where}.item takes a table of attribute = generator")
    return Seed(table, count, {name: generators.build(spec, f"{where}.item.{name}") for name, spec in item.items()})


def data_file(name, where: str, folder) -> list:
    """The items of a DynamoDB-JSON-lines file (``name`` relative to the workload's ``folder``)."""
    from pathlib import Path

    from partiql.transfer_formats import FORMATS

    if not isinstance(name, str) or not name:
        raise WorkloadError(f"{where} takes a DynamoDB JSON lines file's name")
    path = Path(folder or ".") / name
    try:
        with open(path, "rb") as stream:
            rows = list(FORMATS["ddb-json"].read(stream, None))
    except OSError as error:
        raise WorkloadError(f"{where}: cannot read {path}: {error.strerror or error}") from None
    problems = [(line, problem) for line, _, problem in rows if problem]
    if problems:
        line, problem = problems[0]
        raise WorkloadError(f"{where}: {path}, line {line}: {problem}")
    return [item for _, item, _ in rows]
