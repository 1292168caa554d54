"""Auto scaling of provisioned capacity on the simulator's clock: the deterministic model of design-time.md §1.3.

One ``Target`` per (resource, dimension): the table or one GSI, read or write,
with its ``Policy`` (min, max, target utilization in percent, cooldowns,
``disable_scale_in``). Every minute boundary ``b = 60k + LAG`` it looks at the
datapoints (consumed units per minute, served requests only) of the minutes
before ``k`` that began once its last change took effect:

- **High** (the last ``HIGH_POINTS`` each above ``t/100 · P · 60``): scale out to
  ``⌈(newest / 60) ÷ (t/100)⌉`` within [min, max];
- **Low** (the last ``LOW_POINTS`` each below ``(t − 20)/100 · P · 60``, unless
  ``disable_scale_in``): scale in to ``⌈(their max / 60) ÷ (t/100)⌉``, not
  below min, if the day's decrease rule allows (4 a UTC day, then one an hour
  without another: at most 27);

a change takes effect ``DELAY`` seconds after it is issued (until then the old
capacity throttles as before), one pending change per table counting its GSIs.
The controller is a function of its datapoints: tests drive it directly over
days of synthetic minutes; the runner (``Scaler``) feeds it the engine's
throughput metrics and applies its changes with UpdateTable.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .errors import WorkloadError

LAG = 60             # s: a minute's datapoint is published a minute after it starts
DELAY = 120          # s: UpdateTable's change takes effect (model: GABE's default)
HIGH_POINTS = 2
LOW_POINTS = 15
LOW_GAP = 20         # percentage points below the target: the low alarm's threshold
DAY = 86_400
FREE_DECREASES = 4   # a UTC day's decreases allowed at any time, then one an hour without another
TARGETS = (20, 90)
MAX_UNITS = 40_000


@dataclass(frozen=True)
class Policy:
    """A scalable target's settings (§1.3 rule 1)."""

    min: int
    max: int
    target: float
    scale_in_cooldown: float = 0.0
    scale_out_cooldown: float = 0.0
    disable_scale_in: bool = False

    def check(self, where: str) -> "Policy":
        if not 1 <= self.min <= self.max <= MAX_UNITS:
            raise WorkloadError(f"{where}: min and max take 1 <= min <= max <= {MAX_UNITS:,}, not {self.min} and "
                                f"{self.max}")
        if not TARGETS[0] <= self.target <= TARGETS[1]:
            raise WorkloadError(f"{where}.target takes {TARGETS[0]} to {TARGETS[1]} (percent), not {self.target}")
        if self.scale_in_cooldown < 0 or self.scale_out_cooldown < 0:
            raise WorkloadError(f"{where}: cooldowns take seconds >= 0")
        return self


def thresholds(provisioned: int, target: float) -> tuple[float, float]:
    """(the high alarm's, the low alarm's) threshold on a minute's consumed units."""
    return target / 100 * provisioned * 60, (target - LOW_GAP) / 100 * provisioned * 60


def decrease_allowed(issued: list, now: float) -> bool:
    """Whether a decrease may be issued at ``now`` after those ``issued`` (rule 6: per UTC day, four at any
    time, then one whenever none was issued in the hour before)."""
    today = [t for t in issued if t // DAY == now // DAY]
    return len(today) < FREE_DECREASES or not any(now - 3600 < t <= now for t in today)


@dataclass
class Change:
    """A capacity change issued at ``issued``, in effect at ``effective``."""

    issued: float
    effective: float
    units: int
    cause: str  # "scale-out" or "scale-in"


@dataclass
class Target:
    """One scalable target's state: its capacity, datapoints, pending change and history."""

    name: str                      # "Orders write", "Orders.ByStatus read"
    policy: Policy
    units: int                     # P, the capacity in effect
    since: float = 0.0             # when the last change took effect (datapoints before it are not looked at)
    points: dict = field(default_factory=dict)  # minute -> consumed units
    pending: Change | None = None
    decreases: list = field(default_factory=list)  # when each decrease was issued
    refused: list = field(default_factory=list)    # when a scale-in was refused by the day's decrease rule
    timeline: list = field(default_factory=list)   # (issued, in effect, units, cause)
    scale_in_after: float = 0.0    # no scale-in before (scale-in cooldown)

    def __post_init__(self):
        clamped = min(max(self.units, self.policy.min), self.policy.max)
        self.timeline.append((0.0, 0.0, clamped, "start" if clamped == self.units else "min/max"))
        self.units = clamped

    def evaluate(self, now: float) -> Change | None:
        """The change the alarms call for at the boundary ``now`` (none when the table is busy: the caller
        asks only when no change of its table is pending)."""
        minute = int((now - LAG) // 60)  # datapoints of the minutes before this one
        looked = [self.points.get(m, 0.0) for m in range(math.ceil(self.since / 60), minute)]
        high, low = thresholds(self.units, self.policy.target)
        share = self.policy.target / 100
        if len(looked) >= HIGH_POINTS and all(p > high for p in looked[-HIGH_POINTS:]):
            units = min(max(math.ceil(looked[-1] / 60 / share), self.policy.min), self.policy.max)
            if units > self.units:
                return self._issue(now, units, "scale-out")
        if (not self.policy.disable_scale_in and len(looked) >= LOW_POINTS and now >= self.scale_in_after
                and all(p < low for p in looked[-LOW_POINTS:])):
            units = min(max(math.ceil(max(looked[-LOW_POINTS:]) / 60 / share), self.policy.min), self.units)
            if units < self.units:
                if not decrease_allowed(self.decreases, now):
                    self.refused.append(now)
                    return None
                self.decreases.append(now)
                return self._issue(now, units, "scale-in")
        return None

    def _issue(self, now: float, units: int, cause: str) -> Change:
        self.pending = Change(now, now + DELAY, units, cause)
        return self.pending

    def take_effect(self) -> None:
        """The pending change is in effect now."""
        change, self.pending = self.pending, None
        self.units, self.since = change.units, change.effective
        if change.cause == "scale-in":
            self.scale_in_after = change.effective + self.policy.scale_in_cooldown
        else:
            self.scale_in_after = 0.0  # (a scale-out ends a scale-in cooldown)
        self.timeline.append((change.issued, change.effective, change.units, change.cause))

    def mean_units(self, until: float) -> float:
        """The time-weighted mean capacity from 0 to ``until``."""
        total = 0.0
        for (_, start, units, _), following in zip(self.timeline, self.timeline[1:] + [(until, until, 0, "")]):
            total += units * (min(following[1], until) - min(start, until))
        return total / until if until else float(self.units)

    def hourly_max_units(self, until: float) -> float:
        """The mean over the clock hours from 0 to ``until`` of each hour's highest capacity (a last hour cut
        short weighs its seconds): the upper bound of what the capacity is billed (design-time.md §2.4)."""
        total = 0.0
        for start in range(0, math.ceil(until), 3600):
            end = min(start + 3600, until)
            total += (end - start) * max([self.units_at(start)] + [units for _, effect, units, _cause in self.timeline
                                                                   if start < effect < end])
        return total / until if until else float(self.units)

    def units_at(self, moment: float) -> int:
        """The capacity in effect at ``moment``."""
        return [units for _, effect, units, _cause in self.timeline if effect <= moment][-1]

    def as_data(self, until: float, consumed: list) -> dict:
        """The target's settings, changes and capacity; ``per_minute`` pairs each minute's capacity with what it
        consumed (``consumed``: every minute of the run, the ledger's)."""
        policy = self.policy
        return {"target": self.name, "min": policy.min, "max": policy.max, "utilization": policy.target,
                "timeline": [{"issued": issued, "in_effect": effect, "units": units, "cause": cause}
                             for issued, effect, units, cause in self.timeline],
                "per_minute": [[minute, self.units_at(60 * minute), round(units, 1)]
                               for minute, units in enumerate(consumed)],  # (minute, provisioned, consumed units)
                "decreases": len(self.decreases), "refused_decreases": len(self.refused),
                "mean_units": round(self.mean_units(until), 2),
                "hourly_max_units": round(self.hourly_max_units(until), 2),
                "max_units": max(units for _, effect, units, _cause in self.timeline if effect <= until)}


ORDER = {"read": 0, "write": 1}
DIMENSIONS = tuple(ORDER)
UNITS = ("ReadCapacityUnits", "WriteCapacityUnits")


@dataclass(frozen=True)
class Scaling:
    """A workload's ``[[autoscaling]]`` entry: which resource and dimension, and its policy."""

    table: str
    index: str | None
    dimension: str  # "read" or "write"
    policy: Policy

    @property
    def resource(self) -> str:
        """``Orders`` or ``Orders.ByStatus``."""
        return self.table if self.index is None else f"{self.table}.{self.index}"


class Scaler:
    """The workload's targets on a running simulation: datapoints from the engine's throughput metrics at each
    minute boundary, evaluation in a fixed order (the table read, write, then its GSIs by name), changes
    applied with UpdateTable when they take effect."""

    def __init__(self, db, scalings: list, source: str, ledger):
        self.db, self.ledger = db, ledger
        self.changed = -math.inf  # when a change last took effect (the replay settles after one)
        self.targets = []  # (table, index, direction, Target), in the evaluation order
        for scaling in sorted(scalings, key=lambda s: (s.table, s.index or "", ORDER[s.dimension])):
            units = self._provisioned(scaling, source)
            direction = ORDER[scaling.dimension]
            self.targets.append((scaling.table, scaling.index, direction,
                                 Target(f"{scaling.resource} {scaling.dimension}", scaling.policy, units[direction])))
        self.boundary = 2 * 60.0  # (the first boundary that has a datapoint: minute 0's, at 60 + LAG)
        self.due = self.boundary  # (the next instant anything happens: a request before it costs a comparison)
        for table, index, direction, target in self.targets:
            if target.units != self._provisioned_of(table, index)[direction]:  # (set into [min, max] at once)
                self._apply(table, index, direction, target.units)

    def _provisioned(self, scaling: Scaling, source: str) -> tuple:
        try:
            return self._provisioned_of(scaling.table, scaling.index)
        except (KeyError, ValueError) as error:
            raise WorkloadError(f"{source}: autoscaling of {scaling.resource}: {error.args[0]}") from None

    def _provisioned_of(self, table: str, index: str | None) -> tuple:
        if table not in self.db.table_names():
            raise KeyError(f"no table {table} (tables creates it)")
        spec = self.db.engine.table(table).spec
        if index is not None:
            found = next((gsi for gsi in spec.gsis if gsi.name == index), None)
            if found is None:
                raise KeyError(f"{table} has no global secondary index {index}")
            spec = found
        if spec.throughput is None:
            raise ValueError("it is on demand: auto scaling scales provisioned capacity")
        return spec.throughput.read, spec.throughput.write

    def advance(self, now: float) -> None:
        """Everything due by ``now``: changes taking effect, then the boundaries' evaluations."""
        if now < self.due:
            return
        while True:
            effects = [(t.pending.effective, n) for n, (_, _, _, t) in enumerate(self.targets) if t.pending]
            due = min(effects, default=(math.inf, -1))
            self.due = min(due[0], self.boundary)
            if self.due > now:
                return
            if due[0] <= self.boundary:
                table, index, direction, target = self.targets[due[1]]
                target.take_effect()
                self._apply(table, index, direction, target.units)
                self.changed = due[0]
            else:
                self._evaluate(self.boundary)
                self.boundary += 60

    def _evaluate(self, now: float) -> None:
        minute = int((now - LAG) // 60) - 1
        for table, index, direction, target in self.targets:  # (the ledger read each resource's minute once)
            target.points[minute] = self.ledger.minute((table, index), minute)[direction]
        busy = {table for table, _, _, target in self.targets if target.pending}
        for table, index, direction, target in self.targets:
            if table not in busy and target.evaluate(now) is not None:
                busy.add(table)

    def _apply(self, table: str, index: str | None, direction: int, units: int) -> None:
        current = list(self._provisioned_of(table, index))
        current[direction] = units
        throughput = dict(zip(UNITS, current))
        if index is None:
            self.db.engine.update_table(TableName=table, ProvisionedThroughput=throughput)
        else:
            self.db.engine.update_table(TableName=table, GlobalSecondaryIndexUpdates=[
                {"Update": {"IndexName": index, "ProvisionedThroughput": throughput}}])

    def as_data(self, until: float) -> list:
        return [dict(target.as_data(until, [row[direction] for row in self.ledger.minutes[table, index]]),
                     table=table, index=index, dimension=DIMENSIONS[direction])
                for table, index, direction, target in self.targets]
