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

import tomllib
from dataclasses import dataclass, field

from . import generators, rates
from .errors import WorkloadError

MAX_DURATION = 3600  # the throughput model keeps an hour of seconds: a report covers all of them
TOP_LEVEL = ("duration", "seed", "tables", "data", "pattern")


@dataclass
class Pattern:
    """One access pattern: a statement, its parameters' generators and its rate."""

    name: str
    statement: str
    params: list
    rate: rates.Rate


@dataclass
class Seed:
    """``count`` items for ``table``, each attribute drawn from its generator."""

    table: str
    count: int
    item: dict


@dataclass
class Workload:
    duration: float = 60.0
    seed: int = 0
    tables: list = field(default_factory=list)    # DDL statements
    seeds: list = field(default_factory=list)     # Seed
    patterns: list = field(default_factory=list)  # Pattern
    source: str = "<workload>"


def load(path) -> Workload:
    """The workload in the TOML file ``path``."""
    try:
        with open(path, "rb") as file:
            text = file.read().decode("utf-8")
    except UnicodeDecodeError as error:
        raise WorkloadError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    return parse(text, str(path))


def parse(text: str, source: str = "<workload>") -> Workload:
    """The workload TOML ``text`` describes (``source`` names it in errors)."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise WorkloadError(f"{source}: not TOML: {error}") from None
    unknown = sorted(set(document) - set(TOP_LEVEL))
    if unknown:
        raise WorkloadError(f"{source}: unknown setting {', '.join(unknown)} (it takes duration, seed, tables, "
                            "[[data]] and [[pattern]])")
    workload = Workload(source=source)
    if "duration" in document:
        workload.duration = check_duration(document["duration"], f"{source}: duration")
    workload.seed = check_seed(document.get("seed", 0), f"{source}: seed")
    data = document.get("data", [])
    if not isinstance(data, list):
        raise WorkloadError(f"{source}: data takes [[data]] tables (table, count, item)")
    workload.seeds = [_seed(entry, f"{source}: data[{n}]") for n, entry in enumerate(data)]
    tables = document.get("tables", [])
    if not isinstance(tables, list) or not all(isinstance(t, str) and t.strip() for t in tables):
        raise WorkloadError(f"{source}: tables takes a list of CREATE TABLE statements")
    workload.tables = tables
    patterns = document.get("pattern", [])
    if not isinstance(patterns, list) or not patterns:
        raise WorkloadError(f"{source}: no [[pattern]]: a workload needs at least one access pattern")
    workload.patterns = [_pattern(entry, f"{source}: pattern[{n}]") for n, entry in enumerate(patterns)]
    names = [p.name for p in workload.patterns]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise WorkloadError(f"{source}: two patterns are named {', '.join(twice)}")
    return workload


def check_duration(value, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= MAX_DURATION:
        raise WorkloadError(f"{where} takes seconds from 1 to {MAX_DURATION}, not {value!r}")
    return float(value)


def check_seed(value, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise WorkloadError(f"{where} takes a whole number, not {value!r}")
    return value


def _pattern(entry, where: str) -> Pattern:
    _members(entry, where, required=("statement", "rate"), optional=("name", "params"))
    statement = entry["statement"]
    if not isinstance(statement, str) or not statement.strip():
        raise WorkloadError(f"{where}.statement takes a PartiQL statement")
    params = entry.get("params", [])
    if not isinstance(params, list):
        raise WorkloadError(f"{where}.params takes a list: one generator per ?")
    name = entry.get("name", where.rpartition(": ")[2])
    if not isinstance(name, str) or not name:
        raise WorkloadError(f"{where}.name takes a name")
    return Pattern(name, statement, [generators.build(spec, f"{where}.params[{n}]") for n, spec in enumerate(params)],
                   rates.build(entry["rate"], f"{where}.rate"))


def _seed(entry, where: str) -> Seed:
    _members(entry, where, required=("table", "count", "item"))
    table, count, item = entry["table"], entry["count"], entry["item"]
    if not isinstance(table, str) or not table:
        raise WorkloadError(f"{where}.table takes a table name")
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise WorkloadError(f"{where}.count takes a whole number of items >= 0")
    if not isinstance(item, dict) or not item:
        raise WorkloadError(f"{where}.item takes a table of attribute = generator")
    return Seed(table, count, {name: generators.build(spec, f"{where}.item.{name}") for name, spec in item.items()})


def _members(entry, where: str, required: tuple, optional: tuple = ()) -> None:
    if not isinstance(entry, dict):
        raise WorkloadError(f"{where} takes a table ({', '.join(required + optional)})")
    missing = [name for name in required if name not in entry]
    if missing:
        raise WorkloadError(f"{where} needs {', '.join(missing)}")
    unknown = sorted(set(entry) - set(required) - set(optional))
    if unknown:
        raise WorkloadError(f"{where}: unknown {', '.join(unknown)} (it takes {', '.join(required + optional)})")
