"""A table's throughput state: per resource (the table, each GSI), per direction, per partition.

A ``Resource`` is what DynamoDB throttles and names in a ThrottlingReason:
the table (its LSIs share its throughput and live in its partitions) or one
GSI. It has two ``Side`` s, read and write, each holding this second's
consumption and what limits it: the provisioned bucket (adaptive capacity),
or on-demand's allowance (twice the previous peak, the maximum on-demand
throughput, the account's per-table quota, whichever is least). Each of its
partitions has a ``Meter`` with a ``Lane`` per direction: the partition's
use in the current second (its ceiling) and, in the classic model, its own
bucket. Meters hang off the store's partitions, created when first needed;
a partition that split gets fresh meters (its buckets start full, §3).

The resource closes each second lazily, when the first request of a later
second arrives (``roll``): it records the second for the metrics, lets
on-demand peaks grow (splitting partitions as they do, §2), and isolates hot
items (§3.3). Everything here runs under the engine lock.
"""

from __future__ import annotations

from dataclasses import dataclass

from .buckets import Bucket
from .figures import (ACCOUNT_TABLE_MAX_READ, ACCOUNT_TABLE_MAX_WRITE, EPSILON, ISOLATION_SECONDS, ISOLATION_SHARE,
                      ON_DEMAND_INITIAL_PEAK_READ, ON_DEMAND_INITIAL_PEAK_WRITE, PARTITION_READ_CEILING,
                      PARTITION_WRITE_CEILING, PEAK_MULTIPLIER, SAMPLE_ABOVE_UNITS)
from .metrics import READ, WRITE, KeyCounts, Second, history
from .peak import Peak

INFINITE = float("inf")
CEILINGS = (PARTITION_READ_CEILING, PARTITION_WRITE_CEILING)
INITIAL_PEAKS = (ON_DEMAND_INITIAL_PEAK_READ, ON_DEMAND_INITIAL_PEAK_WRITE)

# Reason suffixes (spec §5): ``{Table|Index}{Read|Write}`` + one of these.
PROVISIONED = "ProvisionedThroughputExceeded"
KEY_RANGE = "KeyRangeThroughputExceeded"
MAX_ON_DEMAND = "MaxOnDemandThroughputExceeded"
ACCOUNT = "AccountLimitExceeded"


@dataclass(frozen=True)
class Settings:
    """What limits one resource: its billing and its throughput figures, per direction (read, write).

    ``provisioned`` is (RCU, WCU), None for on-demand; ``max_on_demand`` is
    OnDemandThroughput's (MaxReadRequestUnits, MaxWriteRequestUnits), None
    (or -1) for no cap; ``warm`` is WarmThroughput's (ReadUnitsPerSecond,
    WriteUnitsPerSecond) or None.
    """

    provisioned: tuple | None = None
    max_on_demand: tuple = (None, None)
    warm: tuple | None = None

    @property
    def on_demand(self) -> bool:
        return self.provisioned is None


class Side:
    """One direction of one resource."""

    __slots__ = ("prefix", "ceiling", "used", "throttled", "bucket", "peak", "maximum", "limit", "kind")

    def __init__(self, prefix: str, ceiling: float):
        self.prefix = prefix      # 'TableRead', 'IndexWrite', ...: the reason's first half
        self.ceiling = ceiling    # a partition's units per second in this direction
        self.used = 0.0           # units consumed in the open second
        self.throttled = 0        # requests on this resource throttled in the open second
        self.bucket = None        # provisioned with adaptive capacity: the shared bucket
        self.peak = None          # on-demand: the previous peak
        self.maximum = None       # on-demand: OnDemandThroughput's cap, None for none
        self.limit = INFINITE     # on-demand: units per second served, the least of ...
        self.kind = KEY_RANGE     # ... twice the peak, the maximum and the quota: its reason

    def set_limit(self, quota: float) -> None:
        """The on-demand allowance: the least of twice the peak, the maximum and the quota."""
        limits = [(PEAK_MULTIPLIER * self.peak.value, KEY_RANGE), (quota, ACCOUNT)]
        if self.maximum is not None:
            limits.insert(0, (self.maximum, MAX_ON_DEMAND))  # a tie names the maximum
        self.limit, self.kind = min(limits, key=lambda pair: pair[0])


class Lane:
    """One direction of one partition: units used in the open second, (classic) its bucket, and
    what the request path's fast lane needs (``Throughput.take_key``).

    why a lane holds references to its resource's side and key counts: a request
    admitted on it touches the lane, the side and the bucket, and nothing else. A lane
    is *open* (``until``: the end of its second) from its partition's first request of
    a second, handled in full, to the end of that second; the resource closes its
    lanes when the second closes or its settings change (``close_lanes``).
    """

    __slots__ = ("used", "bucket", "until", "spec", "side", "shared", "limit", "allowed", "ceiling", "room", "keys",
                 "counts")

    def __init__(self, bucket: Bucket | None):
        self.used = 0.0
        self.bucket = bucket      # classic: the partition's own bucket (its requests take the full path)
        self.until = -INFINITE    # open while the clock is below it
        self.spec = None          # the TableSpec the lane was opened under
        self.side = None
        self.shared = None        # the side's bucket (adaptive capacity), None for none
        self.limit = self.allowed = INFINITE  # the side's limit, and with the float tolerance
        self.ceiling = self.room = 0.0        # the partition's, and with the float tolerance
        self.keys = None          # the resource's KeyCounts ...
        self.counts = None        # ... and its open minute of consumed units per key

    def open(self, resource: "Resource", direction: int) -> None:
        """Reset for the resource's open second and let requests of that second take the fast lane
        (not a classic partition's: its own bucket is checked on the full path). What the lane
        copies (the side's bucket and limit) holds until the second closes or the settings change."""
        side = resource.sides[direction]
        self.used = 0.0
        self.until = resource.next_second if self.bucket is None else -INFINITE
        self.spec = resource.spec
        self.side = side
        self.shared = side.bucket
        self.limit, self.allowed = side.limit, side.limit + EPSILON
        self.ceiling, self.room = side.ceiling, side.ceiling + EPSILON
        self.keys = resource.keys
        self.counts = resource.keys.counts[0]


class Meter:
    """One partition's meters: created for the hash range [lo, hi) it had then."""

    __slots__ = ("lo", "hi", "second", "lanes", "events", "streak", "last_hot")

    def __init__(self, lo: int, hi: int, buckets: tuple):
        self.lo = lo
        self.hi = hi
        self.second = None
        self.lanes = (Lane(buckets[READ]), Lane(buckets[WRITE]))
        self.events = 0       # throttle events in the open second
        self.streak = 0       # seconds in a row above half the ceiling (isolation)
        self.last_hot = None


class Resource:
    """A table or a GSI: what is throttled, counted and named in a ThrottlingReason."""

    def __init__(self, table: str, index: str | None, arn: str, store, *, adaptive: bool = True,
                 isolation: bool = True):
        self.table = table
        self.index = index
        self.arn = arn
        self.label = table if index is None else f"{table} index {index}"
        self.store = store  # the partitions: ``partitions``, ``partition_for(h)``, ``_split_at``
        self.adaptive = adaptive
        self.isolation = adaptive and isolation
        prefix = "Table" if index is None else "Index"
        self.sides = (Side(prefix + "Read", CEILINGS[READ]), Side(prefix + "Write", CEILINGS[WRITE]))
        self.settings: Settings | None = None
        self.spec = None  # the TableSpec the settings came from (``Throughput`` sets it): lanes check it
        self.quota = (ACCOUNT_TABLE_MAX_READ, ACCOUNT_TABLE_MAX_WRITE)
        self.classic_count = 0  # partitions the classic buckets' shares were cut for
        self.second = None      # the open second
        self.next_second = float("-inf")  # when it ends: the request path compares, no floor
        self.events: dict = {}  # reason -> throttle events in the open second
        self.touched: list = []  # meters used in the open second
        self.history = history()
        self.keys = KeyCounts()

    # ---------------------------------------------------------------- settings
    def configure(self, settings: Settings, now: float, quota: tuple | None = None) -> None:
        """Apply (new) settings: CreateTable, UpdateTable, a switch of billing mode."""
        previous = self.settings
        self.settings = settings
        if quota is not None:
            self.quota = quota
        if settings.on_demand:
            self._on_demand(settings, previous)
        else:
            self._provisioned(settings, now)
        self.close_lanes(self.meters())
        self.grow()

    def _provisioned(self, settings: Settings, now: float) -> None:
        for side, rate in zip(self.sides, settings.provisioned):
            side.peak, side.maximum, side.limit = None, None, INFINITE
            if not self.adaptive:
                side.bucket = None
            elif side.bucket is None:
                side.bucket = Bucket(rate, now)
            else:
                side.bucket.rerate(rate, now)
        if not self.adaptive:
            self._rerate_partitions(now, force=True)

    def _on_demand(self, settings: Settings, previous: Settings | None) -> None:
        for direction, side in enumerate(self.sides):
            side.bucket = None
            if side.peak is None:
                side.peak = Peak(INITIAL_PEAKS[direction])
                if previous is not None and previous.provisioned is not None:
                    # a table switched from provisioned: max(half its old throughput, the new-table peak)
                    side.peak.raise_to(previous.provisioned[direction] / PEAK_MULTIPLIER)
            if settings.warm is not None:
                side.peak.raise_to(settings.warm[direction] / PEAK_MULTIPLIER)
            maximum = settings.max_on_demand[direction]
            side.maximum = None if maximum is None or maximum < 0 else float(maximum)
            side.set_limit(self.quota[direction])
        for meter in self.meters():
            for lane in meter.lanes:
                lane.bucket = None

    def sizing(self) -> tuple:
        """(RCU, WCU) the partitions are sized for: provisioned or twice the peak, or warm if higher."""
        settings = self.settings
        if settings.on_demand:
            figures = tuple(PEAK_MULTIPLIER * side.peak.value for side in self.sides)
        else:
            figures = settings.provisioned
        if settings.warm is not None:
            figures = tuple(max(a, b) for a, b in zip(figures, settings.warm))
        return figures

    def grow(self) -> None:
        """Split partitions until they fit ``sizing`` (spec §2: nothing ever merges them)."""
        read, write = self.sizing()
        needed = read / CEILINGS[READ] + write / CEILINGS[WRITE]
        whole = int(needed)
        count = max(1, whole if whole == needed else whole + 1)
        if len(self.store.partitions) < count:
            self.store.ensure_partitions(count)

    # -------------------------------------------------------------- partitions
    def meter(self, h: int) -> tuple:
        """(partition, meter) of the partition holding hash ``h``."""
        partition = self.store.partition_for(h)
        meter = partition.meter
        if meter is None:  # new, or it split since (a split drops the partition's meter)
            meter = self._new_meter(partition)
        return partition, meter

    def meters(self) -> list:
        """The meters of the partitions drawn on so far."""
        return [partition.meter for partition in self.store.partitions if partition.meter is not None]

    def _new_meter(self, partition) -> Meter:
        buckets = (None, None)
        if not self.adaptive and not self.settings.on_demand:
            self._rerate_partitions(self.second or 0.0)
            count = len(self.store.partitions)
            buckets = tuple(Bucket(rate / count, self._bucket_time()) for rate in self.settings.provisioned)
        meter = partition.meter = Meter(partition.lo, partition.hi, buckets)
        return meter

    def _bucket_time(self) -> float:
        side = self.sides[READ]
        return side.bucket.last if side.bucket is not None else (self.second or 0.0)

    def _rerate_partitions(self, now: float, force: bool = False) -> None:
        # Classic: each partition's bucket refills at provisioned / N; a split changes N for all.
        count = len(self.store.partitions)
        if count == self.classic_count and not force:
            return
        self.classic_count = count
        self.close_lanes(self.meters())  # (a lane opened before its partition had a bucket of its own)
        for meter in self.meters():
            for lane, rate in zip(meter.lanes, self.settings.provisioned):
                if lane.bucket is None:
                    lane.bucket = Bucket(rate / count, now)
                else:
                    lane.bucket.rerate(rate / count, now)

    @staticmethod
    def close_lanes(meters) -> None:
        """Send the next requests on ``meters``' partitions down the full path (a second closed,
        settings changed)."""
        for meter in meters:
            for lane in meter.lanes:
                lane.until = -INFINITE

    def number(self, partition) -> int:
        """The partition's position, from 0, in hash order."""
        return self.store.partitions.index(partition)

    # ------------------------------------------------------------------ seconds
    def roll(self, second: float) -> None:
        """Close the open second if ``second`` is a later one (see the module's docstring)."""
        if second == self.second:
            return
        busy = self.second is not None and self._close() and second == self.second + 1
        self.second = second
        self.next_second = second + 1
        self.keys.roll(second // 60)
        if busy:  # a busy second followed by another: count this minute's requests by sample (``figures``)
            self.keys.sampling = True
        grew = False
        for side in self.sides:
            if side.peak is not None and side.peak.mature(second):
                side.set_limit(self.quota[self.sides.index(side)])
                grew = True
        if grew:
            self.grow()

    def _close(self) -> bool:
        """Close the open second; whether it was busy (``SAMPLE_ABOVE_UNITS``)."""
        second = self.second
        record = self.current()
        if record.consumed != (0.0, 0.0) or record.events or any(record.throttled):
            self.history.append(record)
        for side in self.sides:
            if side.peak is not None:
                side.peak.close(second, side.used)
            side.used, side.throttled = 0.0, 0
        self.events = {}
        self.close_lanes(self.touched)
        hot = [meter for meter in self.touched if self._heat(meter, second)]
        self.touched = []
        for meter in hot:
            self._isolate(meter)
        return record.consumed[READ] + record.consumed[WRITE] > SAMPLE_ABOVE_UNITS

    def current(self) -> Second:
        """The open second as a record (its figures so far)."""
        reads, writes = self.sides
        partitions = tuple((m.lo, m.hi, m.lanes[READ].used, m.lanes[WRITE].used, m.events)
                           for m in sorted(self.touched, key=lambda m: m.lo))
        return Second(self.second, (reads.used, writes.used), (reads.throttled, writes.throttled),
                      dict(self.events), partitions)

    # --------------------------------------------------------------- isolation
    def _heat(self, meter: Meter, second: float) -> bool:
        """Count a hot second for ``meter``; True when it has been hot for long enough to split."""
        share = max(lane.used / ceiling for lane, ceiling in zip(meter.lanes, CEILINGS))
        if share <= ISOLATION_SHARE:
            meter.streak = 0
            return False
        meter.streak = meter.streak + 1 if meter.last_hot == second - 1 else 1
        meter.last_hot = second
        return self.isolation and meter.streak >= ISOLATION_SECONDS

    def _isolate(self, meter: Meter) -> None:
        """Split a hot partition at the hash that halves its traffic (§3.3, model); a
        partition whose traffic is one key's cannot be split and stays capped."""
        partition = self.store.partition_for(meter.lo)
        if partition.meter is not meter:  # it split since this second began
            return
        at = split_point(self.keys.traffic(meter.lo, meter.hi))
        if at is not None:
            meter.streak = 0
            self.store._split_at(partition, at)


def split_point(traffic: list[tuple]) -> int | None:
    """The hash that halves ``traffic`` ((hash, units) in hash order), with a key on each side;
    None for fewer than two keys."""
    if len(traffic) < 2:
        return None
    total = sum(units for _, units in traffic)
    best, best_gap, running = None, None, 0.0
    for (_, units), (h, _) in zip(traffic, traffic[1:]):
        running += units
        gap = abs(running - total / 2)
        if best_gap is None or gap < best_gap:
            best, best_gap = h, gap
    return best


class TableState:
    """The throughput state of one table: its resource, and one per GSI."""

    def __init__(self, name: str, arn: str, table=None):
        self.name = name
        self.arn = arn
        self.table = table  # the engine's Table this state counts for
        self.spec = None    # the TableSpec the resources were configured from
        self.resources: dict = {}  # None (the table) or a GSI name -> Resource
        self.table_resource = None  # resources[None], read on every request

    def resource(self, index: str | None = None) -> Resource:
        """The table's resource, or a GSI's (an LSI's reads and writes are the table's)."""
        return self.resources.get(index) or self.resources[None]
