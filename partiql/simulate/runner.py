"""Running a workload: its patterns interleaved in virtual time, through the real engine.

``simulate(workload)`` builds an in-memory database on a ``VirtualClock``
with the throughput model in ``enforce`` mode, creates the tables, writes
the seed data (uncharged: before the clock starts), then sends every
pattern's requests in time order: the clock is set to each request's time,
its parameters are drawn from the pattern's generators (each pattern has
its own random generator, seeded from the workload's seed and its
position: the same seed gives the same run), and the statement runs through
``Connection.execute``. A throttle is counted with its reason; any other
error (a failed condition, a duplicate key) as a failure with its code.

It runs as fast as the engine allows; ``progress(done_seconds, duration)``
is called as virtual time passes, and Ctrl-C (KeyboardInterrupt) stops it:
the outcome says what ran.
"""

from __future__ import annotations

import copy
import logging
import random
from collections import Counter
from dataclasses import dataclass, field

import partiql
from partiql.engine.clock import VirtualClock
from partiql.engine.engine import WriteAction
from partiql.engine.errors import DynamoDBError
from partiql.engine.partition import MAIN
from partiql.engine.requests.wire import wire_call
from partiql.engine.types import from_python
from partiql.engine.vectors.meter import VectorMeter

from .errors import WorkloadError
from .autoscaling import Scaler
from .generators import SeededValue
from .item_requests import consumed as item_consumed, search_bytes
from .ledger import Ledger
from .retries import kind_of
from .planned import plan_patterns
from .replay import AGGREGATE_AFTER, Replay
from .workload import Design, Workload


@dataclass
class PatternStats:
    """What one pattern asked for and got, in total and per second of virtual time."""

    name: str
    statement: str
    seconds: list                      # per second: [requested, served, throttled, failed]
    reasons: Counter = field(default_factory=Counter)  # throttle reason -> requests
    errors: Counter = field(default_factory=Counter)   # error code -> requests
    consumed: float = 0.0              # capacity units the served requests consumed
    search_bytes: float = 0.0          # VectorSearchRequestBytes of its served SearchVectors requests
    stale: int = 0                     # requests realism served an earlier version of an item (or none yet)
    stale_items: int = 0               # the items so served
    retried: int = 0                   # attempts its client sent again (retries.py)
    gave_up: int = 0                   # requests that failed on their last retry too
    unfinished: int = 0                # requests still waiting for a retry when the run ended

    def total(self, column: int) -> int:
        return sum(second[column] for second in self.seconds)


@dataclass
class Outcome:
    """A finished (or interrupted) simulation: the database it ran on and what each pattern got."""

    workload: Workload
    db: object                 # the Connection, for the throughput metrics of each table and index
    patterns: list             # PatternStats, in the workload's order
    ran: float                 # virtual seconds that ran (the duration, unless interrupted)
    requests: int
    interrupted: bool = False
    planned: list = field(default_factory=list)  # planned.Planned per pattern: access path, full Scans
    scaler: object = None  # autoscaling.Scaler: the workload's auto-scaled targets, their timelines
    ledger: object = None  # ledger.Ledger: each resource's consumption minute by minute, the whole run
    aggregated: int = 0    # seconds aggregated (replay.py), not replayed request by request


REQUESTED, SERVED, THROTTLED, FAILED = range(4)


def simulate(workload: Workload, *, duration: float | None = None, seed: int | None = None,
             progress=None, design: Design | None = None, database=None, allow_scan: bool = False,
             exact: bool | None = None) -> Outcome:
    """Run ``workload`` (``duration`` / ``seed`` override the file's; ``design`` replaces its tables and
    changes its patterns; ``database``, a database file, lends its tables and items, read from a snapshot
    and never written) and return its ``Outcome``. Every pattern is planned first (``planned``): one that
    cannot run is a WorkloadError before the clock starts; ``allow_scan`` means its full Scans. A run longer
    than an hour aggregates its steady seconds (``replay``) unless ``exact``; ``exact=False`` aggregates a
    shorter one too."""
    if design is not None:
        workload = workload.with_design(design)
    workload = copy.deepcopy(workload)  # why: generators keep state (a sequence's next value); each run starts anew
    duration = workload.duration = workload.duration if duration is None else duration
    seed = workload.seed = workload.seed if seed is None else seed
    clock = VirtualClock()
    db = partiql.connect(throughput="off", clock=clock)  # building and seeding are not charged
    _build(db, workload, random.Random(seed), database)
    for table in db.engine.tables.values():  # (the seed writes are no traffic: vector bytes metered from here)
        table.vectors.meter = VectorMeter()
    planned = plan_patterns(db, workload, allow_scan)
    if workload.realism is not None:  # (after the build: the tables are ACTIVE when the traffic starts)
        db.engine.realism = workload.realism()
        db.engine.realism.level = logging.DEBUG  # (counted in the report, not logged one by one)
    ledger = Ledger(db, [(table, index) for table in db.table_names()
                         for index in [None] + [gsi.name for gsi in db.engine.table(table).spec.gsis]])
    scaler = Scaler(db, workload.autoscaling, workload.source, ledger) if workload.autoscaling else None
    db.engine.throughput.mode = "enforce"
    stats = [PatternStats(p.name, p.statement, [[0, 0, 0, 0] for _ in range(int(-(-duration // 1)))])
             for p in workload.patterns]
    long = duration > AGGREGATE_AFTER
    # why realism and retries replay every second: stale reads, conflicts, faults and retries happen request by
    # request
    aggregate = ((long if exact is None else not exact) and workload.realism is None
                 and all(pattern.retry is None for pattern in workload.patterns))
    replay = Replay(db, clock, workload, stats, _send, seed=seed, scaler=scaler, ledger=ledger,
                    aggregate=aggregate, per_second=long or exact is False)
    try:
        replay.run(duration, progress)
    except KeyboardInterrupt:
        ledger.close(replay.now)
        replay.unfinished()
        return Outcome(workload, db, stats, replay.now, replay.requests, interrupted=True, planned=planned,
                       scaler=scaler, ledger=ledger, aggregated=replay.aggregated)
    ledger.close(duration)
    replay.unfinished()
    # why the clock stays at the last request: the metrics' window ends at the clock's second, and
    # moving it to ``duration`` would push the first second out of a window of ``duration`` seconds
    return Outcome(workload, db, stats, duration, replay.requests, planned=planned, scaler=scaler, ledger=ledger,
                   aggregated=replay.aggregated)


def compare(workload: Workload, designs: list, *, duration: float | None = None, seed: int | None = None,
            progress=None, database=None, allow_scan: bool = False, exact: bool | None = None) -> list:
    """The same traffic against each of ``designs``: their ``Outcome`` s, in order (Ctrl-C ends the
    design running, reported as interrupted, and the comparison with it)."""
    outcomes = []
    for design in designs:
        shown = None if progress is None else (lambda done, total, d=design: progress(d, done, total))
        outcomes.append(simulate(workload, duration=duration, seed=seed, design=design, database=database,
                                 progress=shown, allow_scan=allow_scan, exact=exact))
        if outcomes[-1].interrupted:
            break
    return outcomes


def _send(db, pattern, rng, now: float, second: list, stats: PatternStats, retry: tuple | None = None):
    """One request of ``pattern`` at ``now`` (``retry``: (params, attempt) of one sent before), its outcome
    counted in ``second`` and ``stats``; (when, params, attempt) of its retry when its client retries it."""
    if retry is None:
        params, attempt = [generator.draw(rng, now) for generator in pattern.params], 0
        second[REQUESTED] += 1
    else:
        params, attempt = retry
        stats.retried += 1
    consistency = db.engine.realism.consistency if db.engine.realism is not None else None
    served = consistency.served if consistency is not None else 0
    try:
        if pattern.request is not None:  # an item-API request, through the wire layer
            response = wire_call(db.engine, pattern.request.operation, pattern.request.filled(params))
            consumed = item_consumed(response)
            stats.search_bytes += search_bytes(response)
        elif pattern.all_pages:  # the whole result, page after page: what reading all of it costs
            consumed = sum(page.consumed_capacity.total
                           for page in db.pages(pattern.statement, params, limit=pattern.limit))
        else:
            consumed = db.execute(pattern.statement, params, limit=pattern.limit).consumed_capacity.total
    except DynamoDBError as error:
        code = _code(error)
        if pattern.retry is not None and pattern.retry.retries(kind_of(error, code), attempt):
            return now + pattern.retry.delay(rng, attempt), params, attempt + 1
        stats.gave_up += attempt > 0
        reasons = getattr(error, "throttling_reasons", None)
        if reasons is not None:
            second[THROTTLED] += 1
            stats.reasons.update(reason["reason"] for reason in reasons or [{"reason": error.code}])
        else:
            second[FAILED] += 1
            stats.errors[code] += 1
        return None
    second[SERVED] += 1
    stats.consumed += consumed
    if consistency is not None and consistency.served > served:
        stats.stale += 1
        stats.stale_items += consistency.served - served
    return None


def _code(error: DynamoDBError) -> str:
    """A failure's name in the report: its code, or TransactionConflict for a transaction cancelled by one."""
    reasons = getattr(error, "reasons", None) or []
    return "TransactionConflict" if any(reason.code == "TransactionConflict" for reason in reasons) else error.code


def _build(db, workload: Workload, rng: random.Random, database=None) -> None:
    """The tables and the seed data, before the clock starts (seed writes are not charged)."""
    if database is not None:
        _borrow(db, database, workload.source)
    for ddl in workload.tables:
        try:
            db.execute(ddl)
        except DynamoDBError as error:
            raise WorkloadError(f"{workload.source}: {ddl!r}: {error.message}") from None
    for seed in workload.seeds:
        _seed(db, seed, rng, workload.source)
    _fill_seeded_values(db, workload)


def _borrow(db, database, source: str) -> None:
    """``database``'s tables and items, copied from a read-only snapshot into the simulation's."""
    from partiql.engine.storage import StorageError
    from partiql.schema import create_request

    try:
        origin = partiql.connect(database, read_only=True)
    except StorageError as error:
        raise WorkloadError(f"{source}: {error}") from None
    engine = db.engine
    try:
        for name in origin.table_names():
            engine.create_table(**create_request(origin.describe(name)))
            with origin.engine.lock:
                items = [record.item for record in origin.engine.table(name).store.scan(MAIN)]
            for item in items:
                engine.write(WriteAction("Put", name, item=item))
    finally:
        origin.close()


def _seed(db, seed, rng, source: str) -> None:
    if seed.table not in db.table_names():
        raise WorkloadError(f"{source}: data for {seed.table}, which no statement of tables creates")
    for n, item in enumerate(seed.items or ()):
        try:  # a PutItem: a later item with the same key replaces an earlier one, as DynamoDB would
            db.engine.write(WriteAction("Put", seed.table, item=item))
        except DynamoDBError as error:
            raise WorkloadError(f"{source}: item {n + 1} of the data file for {seed.table} was refused: "
                                f"{error.message}") from None
    for _ in range(seed.count):
        item = {name: generator.draw(rng, 0.0) for name, generator in seed.item.items()}
        try:  # a PutItem: a generator that repeats a key replaces the earlier item, as DynamoDB would
            db.engine.write(WriteAction("Put", seed.table, item=from_python(item)))
        except (DynamoDBError, TypeError, ValueError) as error:
            raise WorkloadError(f"{source}: a seed item of {seed.table} ({item!r}) was refused: "
                                f"{getattr(error, 'message', error)}") from None


def _fill_seeded_values(db, workload: Workload) -> None:
    """Give each ``{ item = "T.attr" }`` generator the values the seed items hold."""
    for pattern in workload.patterns:
        for generator in _leaves(pattern.params):
            if isinstance(generator, SeededValue):
                if generator.table not in db.table_names():
                    raise WorkloadError(f"{workload.source}: {pattern.name} draws from {generator.table}, "
                                        "which no statement of tables creates")
                with db.engine.lock:
                    records = db.engine.table(generator.table).store.scan(MAIN)
                    generator.values = [r.item[generator.attribute] for r in records
                                        if generator.attribute in r.item]


def _leaves(found: list):
    """Every generator of ``found``, those inside a format's args too."""
    for generator in found:
        yield generator
        yield from _leaves(getattr(generator, "args", []))
