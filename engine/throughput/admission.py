"""The one place that decides admission (spec throughput.md §3 "Admission", §5).

A request is a list of ``Draw`` s: units on one resource (the table, or a
GSI) in one direction, in the partition holding one hash. ``Throughput``
checks every draw against the request's buckets and ceilings together, then
charges them all, or refuses the whole request:

- a write's cost is known before it runs: it is admitted only if every
  bucket it draws on holds that cost (the table's, then each touched GSI's);
- a read is admitted while its buckets are above zero, then charged what
  it actually consumed (``charge``), so a bucket may go negative;
- a refused request draws nothing. ``enforce`` raises DynamoDB's throttle;
  ``report`` lets it run and records a warning (so the warnings are exactly
  the throttles ``enforce`` would raise); ``off`` is never asked.

Everything here runs under the engine lock.
"""

from __future__ import annotations

import logging
import math
import threading
from collections import deque
from dataclasses import dataclass

from ..errors import ProvisionedThroughputExceededException, RequestLimitExceeded, ThrottlingException
from .figures import DEFAULT_MODE, EPSILON, MODES, SAMPLE_RATE, WARNINGS_KEPT
from . import report
from .metrics import READ, WRITE
from .state import ACCOUNT, KEY_RANGE, MAX_ON_DEMAND, PROVISIONED, Resource, Settings, TableState

log = logging.getLogger("partiql.engine.throughput")

# Messages, verbatim (spec §5), by (billing, table or index).
MESSAGES = {
    ("provisioned", "Table"): "The level of configured provisioned throughput for the table was exceeded. "
                              "Consider increasing your provisioning level with the UpdateTable API.",
    ("provisioned", "Index"): "The level of configured provisioned throughput for one or more global secondary "
                              "indexes of the table was exceeded. Consider increasing your provisioning level for "
                              "the under-provisioned global secondary indexes with the UpdateTable API.",
    ("on_demand", "Table"): "Throughput exceeds the current capacity of your table or index. DynamoDB is "
                            "automatically scaling your table or index so please try again shortly. If exceptions "
                            "persist, check if you have a hot key: https://docs.aws.amazon.com/amazondynamodb/"
                            "latest/developerguide/bp-partition-key-design.html",
    ("on_demand", "Index"): "Throughput exceeds the current capacity for one or more global secondary indexes. "
                            "DynamoDB is automatically scaling your index so please try again shortly.",
}
ACCOUNT_MESSAGE = ("Throughput exceeds the current throughput quota for your account. Please contact AWS Support "
                   "to request a quota increase.")
UNITS = ("RCU", "WCU")


@dataclass(slots=True)
class Draw:
    """``units`` on ``resource`` in ``direction`` (READ/WRITE), in the partition of hash ``h``.

    ``pk`` / ``sk`` name the key for the top-keys counts and the warnings (sk None: no sort key).
    """

    resource: Resource
    direction: int
    h: int
    units: float
    pk: object = None
    sk: object = None

    def located(self) -> tuple:
        """The key as the engine locates it: (hash, partition key, sort tuple or None)."""
        return self.h, self.pk, None if self.sk is None else (self.sk,)


@dataclass(slots=True)
class Refusal:
    """Why a request is throttled: the draw refused, the reason's suffix, and the figures."""

    draw: Draw
    kind: str          # PROVISIONED, KEY_RANGE, MAX_ON_DEMAND or ACCOUNT
    partition: tuple   # (number from 1, partitions)
    used: float        # what the limit had already served this second (or the bucket's level)
    limit: float

    @property
    def reason(self) -> str:
        """``TableWriteKeyRangeThroughputExceeded`` and the like."""
        return self.draw.resource.sides[self.draw.direction].prefix + self.kind

    def error(self):
        """The exception DynamoDB raises for this refusal (spec §5)."""
        resource = self.draw.resource
        side = "Table" if resource.index is None else "Index"
        reasons = [(self.reason, resource.arn)]
        if self.kind == ACCOUNT:
            return RequestLimitExceeded(ACCOUNT_MESSAGE, reasons)
        on_demand = resource.settings.on_demand
        message = MESSAGES[("on_demand" if on_demand else "provisioned", side)]
        cls = ThrottlingException if on_demand else ProvisionedThroughputExceededException
        return cls(message, reasons)

    def warning(self) -> str:
        """The report-mode warning: reason, resource, partition, key and figures (spec §6)."""
        draw, unit = self.draw, UNITS[self.draw.direction]
        where = f"{self.reason} on {draw.resource.label} partition {self.partition[0]}/{self.partition[1]}"
        key = "" if draw.pk is None else f": key {_shown(draw.pk)}"
        if self.kind == PROVISIONED:
            return (f"{where}{key}: the provisioned {unit} and the burst are used up "
                    f"({self.used:,.1f} {unit} left, {draw.units:,.1f} needed)")
        return f"{where}{key}: {self.used:,.0f} {unit} used this second; the limit is {self.limit:,.0f}"


class Throughput:
    """An engine's throughput model: the switches, each table's state, the warnings.

    ``mode``: "off", "report" (default) or "enforce"; ``adaptive``: adaptive
    capacity (True) or the classic even split (spec §1).
    """

    def __init__(self, engine, mode: str = DEFAULT_MODE, adaptive: bool = True):
        self.engine = engine
        self.clock = engine.clock
        check_switches(mode, adaptive)
        self.mode = mode
        self.adaptive = adaptive
        self.warnings: deque = deque(maxlen=WARNINGS_KEPT)
        self._local = threading.local()

    @property
    def mode(self) -> str:
        return self._mode

    @mode.setter
    def mode(self, mode: str) -> None:
        check_switches(mode)
        self._mode = mode
        self.on = mode != "off"  # the one attribute the request path tests
        self.enforcing = mode == "enforce"

    # ------------------------------------------------------------------ state
    def state(self, table) -> TableState:
        """``table``'s throughput state, (re)configured when its spec changed (UpdateTable)."""
        state = table.throughput
        if state is None:
            state = table.throughput = TableState(table.name, _arn(self.engine, table.name), table)
        if state.spec is not table.spec:
            self._configure(state, table)
        return state

    def _configure(self, state: TableState, table) -> None:
        now, spec = self.clock(), table.spec
        wanted = {None: (table.store, spec.throughput)}
        billing_provisioned = spec.throughput is not None
        for index in spec.gsis:
            wanted[index.name] = (table.gsi_stores[index.name], index.throughput if billing_provisioned else None)
        for name in list(state.resources):
            if name not in wanted:
                del state.resources[name]
        for name, (store, throughput) in wanted.items():
            resource = state.resources.get(name)
            if resource is None or resource.store is not store:
                arn = state.arn if name is None else f"{state.arn}/index/{name}"
                resource = state.resources[name] = Resource(table.name, name, arn, store, adaptive=self.adaptive)
            provisioned = None if throughput is None else (throughput.read, throughput.write)
            resource.spec = spec
            resource.configure(_settings(spec, provisioned, table_level=name is None), now)
        state.spec = spec
        state.table_resource = state.resources[None]

    # -------------------------------------------------------------- decisions
    def take_key(self, table, index, direction: int, partition, located: tuple, units: float,
                 reading: bool = False) -> bool:
        """``take`` for a request on one key of ``table`` (``index``: the IndexSpec read, or None);
        ``partition`` is the store partition holding it (the request found it already), ``located``
        the key's (hash, partition key, sort tuple or None).

        why the fast lane, inlined: it runs on every request, and each call or lookup
        saved is a share of a 2 µs GetItem. A request on an open lane (its partition
        was drawn on in full earlier this second, nothing changed since: see ``Lane``)
        that nothing could refuse is charged on the lane, its side and its bucket;
        everything else takes ``take``, which checks, refuses and opens lanes.
        """
        meter = partition.meter
        now = self.clock()
        if meter is not None:
            lane = meter.lanes[direction]
            if now < lane.until and lane.spec is table.spec:
                bucket = lane.shared
                if bucket is not None and now > bucket.last:  # Bucket.level_at, inlined
                    level = bucket.level + bucket.rate * (now - bucket.last)
                    bucket.level = level if level < bucket.capacity else bucket.capacity
                    bucket.last = now
                side = lane.side
                if ((side.used < lane.limit and lane.used < lane.ceiling and (bucket is None or bucket.level > 0))
                        if reading else
                        (side.used + units <= lane.allowed and lane.used + units <= lane.room
                         and (bucket is None or bucket.level + EPSILON >= units))):
                    side.used += units
                    lane.used += units
                    if bucket is not None:
                        bucket.level -= units
                    keys = lane.keys  # KeyCounts.add, inlined
                    if keys.sampling:
                        chance = units * SAMPLE_RATE
                        if chance < 1:
                            if keys.draw() >= chance:
                                return True
                            units /= chance
                    counts = lane.counts
                    value = counts.get(located)
                    if value is None:
                        keys.insert(0, located, units)
                    else:
                        counts[located] = value + units
                    return True
        state = table.throughput
        if state is None or state.spec is not table.spec:
            state = self.state(table)
        resource = state.table_resource if index is None or index.kind != "GSI" else state.resources[index.name]
        h, pk, sort = located
        return self.take(resource, direction, h, units, pk, sort[0] if sort else None, reading, now)

    def take(self, resource: Resource, direction: int, h: int, units: float, pk=None, sk=None,
             reading: bool = False, now: float | None = None) -> bool:
        """One draw: True when admitted and charged; a refusal raises (``enforce``) or warns and
        returns False (``report``). A read passes what it consumed: nothing changed the buckets
        since it was admitted (the engine lock). ``now``: the clock, when the caller read it."""
        if now is None:
            now = self.clock()
        if now >= resource.next_second:
            resource.roll(math.floor(now))
        partition, meter = _meter(resource, h, resource.second)
        draw = Draw(resource, direction, h, units, pk, sk)
        refusal = _refusal(draw, partition, meter, units, units, reading, now)
        if refusal is None:
            _charge(draw, meter, now)
            return True
        refusal = self._refused(refusal)
        if refusal is not None:
            raise refusal.error()
        return False

    def admit(self, draws: list) -> None:
        """Admit a write of several draws (a table and its GSIs) whole and charge it, or refuse it."""
        refusal = self.verdict(draws)
        if refusal is not None and self.enforcing:
            raise refusal.error()

    def verdict(self, draws: list, reading: bool = False) -> Refusal | None:
        """The refusal of a request, or None: every draw is checked, with what the request's
        earlier draws already ask of the same bucket, before any is charged.

        Admitted writes are charged here; a read's caller charges it once it ran
        (``charge``). A refusal is counted (and warned of in ``report`` mode, where the
        caller serves the request anyway, charging nothing; ``enforcing`` tells).
        """
        refusal = self._first_refusal(draws, reading)
        if refusal is not None:
            self._refused(refusal)
            return refusal
        if not reading:
            self.charge(draws)
        return None

    def charge_second(self, draws: list) -> bool:
        """A whole second's consumption at once (the simulator's aggregated seconds): charged when every draw
        fits as one write asking all of it would — stricter than the requests one by one, so never admitting
        what they would not — and True; else nothing is charged, no throttle counted, and False (the caller
        replays the second request by request)."""
        if self._first_refusal(draws, reading=False) is not None:
            return False
        self.charge(draws)
        return True

    def _first_refusal(self, draws: list, reading: bool) -> Refusal | None:
        """The refusal of the first draw that does not fit, with what the earlier draws already ask of the same
        bucket; None when all fit. Nothing is charged or counted."""
        now = self.clock()
        second = math.floor(now)
        pending: dict = {}  # id(side or lane) -> units this request already asks of it
        for draw in draws:
            resource = draw.resource
            if resource.second != second:
                resource.roll(second)
            partition, meter = _meter(resource, draw.h, second)
            side, lane = resource.sides[draw.direction], meter.lanes[draw.direction]
            on_side = pending[id(side)] = pending.get(id(side), 0.0) + draw.units
            on_lane = pending[id(lane)] = pending.get(id(lane), 0.0) + draw.units
            refusal = _refusal(draw, partition, meter, on_side, on_lane, reading, now)
            if refusal is not None:
                return refusal
        return None

    def charge(self, draws: list) -> None:
        """Charge consumed units (a read's, after it ran; a write's, once admitted)."""
        now = self.clock()
        second = math.floor(now)
        for draw in draws:
            if draw.units:
                if draw.resource.second != second:
                    draw.resource.roll(second)
                _charge(draw, _meter(draw.resource, draw.h, second)[1], now)

    def _refused(self, refusal: Refusal) -> Refusal | None:
        """Count a throttle; the refusal in ``enforce`` mode, None (and a warning) in ``report``."""
        draw = refusal.draw
        resource = draw.resource
        resource.sides[draw.direction].throttled += 1
        resource.events[refusal.reason] = resource.events.get(refusal.reason, 0) + 1
        resource.meter(draw.h)[1].events += 1
        if draw.pk is not None:
            resource.keys.add(1, draw.located(), 1)
        if self.enforcing:
            return refusal
        self.warn(refusal.warning())
        return None

    # ----------------------------------------------------------------- metrics
    def metrics(self, table: str, index: str | None = None, last: int = 60) -> report.Metrics:
        """The last ``last`` seconds of table ``table`` or of its GSI ``index`` (spec §6): per second
        consumed units, throttled requests and throttle events by reason, per partition its hash
        range, items and units, and the top keys by consumed units and by throttle events."""
        with self.engine.lock:
            return report.metrics(self, self.engine.table(table), index, last)

    # ---------------------------------------------------------------- warnings
    def warn(self, text: str) -> None:
        """Record a report-mode warning: kept (``warnings``), logged, and handed to the thread collecting them."""
        self.warnings.append(text)
        # (its subject: what was refused where, without the figures: a server log counts its repeats)
        log.warning("%s", text, extra={"subject": text.rsplit(": ", 1)[0]})
        found = getattr(self._local, "found", None)
        if found is not None:
            found.append(text)

    def collecting(self) -> "_Collecting":
        """Collect the report-mode warnings this thread's requests raise inside the block (``with``: the list)."""
        return _Collecting(self._local)


class _Collecting:
    """``Throughput.collecting``'s block: a class, not a generator (every statement enters one: issue 34)."""

    __slots__ = ("local", "outer", "found")

    def __init__(self, local):
        self.local = local

    def __enter__(self) -> list:
        self.outer = getattr(self.local, "found", None)
        found = self.local.found = []
        self.found = found
        return found

    def __exit__(self, *_) -> None:
        self.local.found = self.outer
        if self.outer is not None:
            self.outer.extend(self.found)


def check_switches(mode: str, adaptive: bool = True) -> None:
    """ValueError unless ``mode`` and ``adaptive`` are values of the switches (spec §1)."""
    if mode not in MODES:
        raise ValueError(f"throughput takes one of {', '.join(MODES)}, got {mode!r}")
    if not isinstance(adaptive, bool):
        raise ValueError(f"adaptive_capacity takes True or False, got {adaptive!r}")


def _meter(resource: Resource, h: int, second: float) -> tuple:
    """(partition, meter) of hash ``h``, the meter's per-second figures reset when the second changed."""
    partition, meter = resource.meter(h)
    if meter.second != second:
        meter.second = second
        for direction, lane in enumerate(meter.lanes):
            lane.open(resource, direction)
        meter.events = 0
        resource.touched.append(meter)
    return partition, meter


def _refusal(draw: Draw, partition, meter, on_side: float, on_lane: float, reading: bool,
             now: float) -> Refusal | None:
    """Whether ``draw`` is refused (§3 "Admission"): the resource first (its bucket, or
    on-demand's allowance), then the partition (its classic bucket, then its ceiling).

    A write must find its whole cost (``on_side`` / ``on_lane``: with what the
    request's earlier draws ask) in each; a read only a bucket above zero.
    """
    resource = draw.resource
    side = resource.sides[draw.direction]
    lane = meter.lanes[draw.direction]
    for bucket, asked in ((side.bucket, on_side), (lane.bucket, on_lane)):
        if bucket is not None:
            level = bucket.level_at(now)
            if (level <= 0) if reading else (level + EPSILON < asked):
                return Refusal(draw, PROVISIONED, _position(resource, partition), level, bucket.rate)
    for used, limit, kind, asked in ((side.used, side.limit, side.kind, on_side),
                                     (lane.used, side.ceiling, KEY_RANGE, on_lane)):
        if (used >= limit) if reading else (used + asked > limit + EPSILON):
            return Refusal(draw, kind, _position(resource, partition), used, limit)
    return None


def _charge(draw: Draw, meter, now: float) -> None:
    units, direction = draw.units, draw.direction
    side = draw.resource.sides[direction]
    lane = meter.lanes[direction]
    side.used += units
    lane.used += units
    if side.bucket is not None:
        side.bucket.level_at(now)
        side.bucket.level -= units
    if lane.bucket is not None:
        lane.bucket.level_at(now)
        lane.bucket.level -= units
    if draw.pk is not None:  # a Scan page reads no one key
        draw.resource.keys.add(0, draw.located(), units)


def _settings(spec, provisioned: tuple | None, table_level: bool) -> Settings:
    """A resource's settings: its throughput, and the table's OnDemandThroughput and WarmThroughput
    (the table's own; its GSIs take no maximum or warm figure of the table's)."""
    if not table_level:
        return Settings(provisioned=provisioned)
    caps = (None, None) if spec.on_demand is None else (spec.on_demand.max_read, spec.on_demand.max_write)
    warm = None if spec.warm is None else (spec.warm.read, spec.warm.write)
    return Settings(provisioned=provisioned, max_on_demand=caps, warm=warm)


def _position(resource: Resource, partition) -> tuple:
    return resource.number(partition) + 1, len(resource.store.partitions)


def _arn(engine, name: str) -> str:
    return f"arn:aws:dynamodb:{engine.region}:{engine.account}:table/{name}"


def _shown(value) -> str:
    return repr(value) if isinstance(value, str) else str(value)


__all__ = ["ACCOUNT", "KEY_RANGE", "MAX_ON_DEMAND", "PROVISIONED", "READ", "WRITE", "Draw", "Refusal",
           "Throughput"]
