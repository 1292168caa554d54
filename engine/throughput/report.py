"""What is counted, as users read it (spec throughput.md §6, §7): ``Metrics`` of a table or GSI, and advice.

``metrics(throughput, table, index, last)`` gathers the last ``last`` seconds
of one resource: per second its consumed units, throttled requests and
throttle events by reason, per partition its hash range, item count and each
second's units and throttle events; and the top keys by consumed units and by
throttle events. ``advice`` turns a partition-ceiling throttle into the fix
the seeds' arithmetic gives (write sharding, with its shard count).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .figures import PARTITION_READ_CEILING, PARTITION_WRITE_CEILING, TOP_N
from .metrics import READ, WRITE, seconds

KEY_RANGE_REASONS = ("KeyRangeThroughputExceeded",)


@dataclass
class PartitionMetrics:
    """One partition: its position, hash range, items, and per second (read units, write units, events)."""

    number: int
    lo: int
    hi: int
    items: int
    seconds: list = field(default_factory=list)


@dataclass
class Metrics:
    """The last seconds of one table or GSI (oldest first), and its top keys over them."""

    table: str
    index: str | None
    seconds: list              # the second numbers of the clock
    consumed: list             # (read units, write units) per second
    throttled: list            # (read requests, write requests) throttled per second
    events: list               # {reason: throttle events} per second
    partitions: list           # PartitionMetrics, in hash order
    top_consumed: list         # ((partition key), units) most consumed first
    top_throttled: list        # ((partition key), throttle events)
    keys_throttled: float = 0  # throttle events of every key over the minutes the top keys cover
    ceilings: tuple = (PARTITION_READ_CEILING, PARTITION_WRITE_CEILING)

    @property
    def throttle_events(self) -> dict:
        """Throttle events by reason over the whole window."""
        total: dict = {}
        for second in self.events:
            for reason, count in second.items():
                total[reason] = total.get(reason, 0) + count
        return total


def metrics(throughput, table, index: str | None = None, last: int = 60, top: int = TOP_N) -> Metrics:
    """The metrics of ``table`` (an engine Table) or of its GSI ``index``, over the last ``last`` seconds."""
    if not isinstance(last, int) or isinstance(last, bool) or not 1 <= last <= 3600:
        raise ValueError(f"last takes a whole number of seconds from 1 to 3600, got {last!r}")
    state = throughput.state(table)
    if index is not None and index not in state.resources:
        raise ValueError(f"{table.name} has no global secondary index {index!r}")
    resource = state.resources[index]
    now = math.floor(throughput.clock())
    current = resource.current() if resource.second is not None else None
    window = seconds(resource.history, current, now, last)
    partitions = [PartitionMetrics(number, p.lo, p.hi, p.items)
                  for number, p in enumerate(resource.store.partitions, 1)]
    for record in window:
        found = {lo: (read, write, events) for lo, _, read, write, events in record.partitions}
        for partition in partitions:
            partition.seconds.append(found.get(partition.lo, (0.0, 0.0, 0)))
    since_minute = (now - last + 1) // 60
    return Metrics(table.name, index, [r.second for r in window], [r.consumed for r in window],
                   [r.throttled for r in window], [r.events for r in window], partitions,
                   resource.keys.top(0, False, since_minute, top), resource.keys.top(1, False, since_minute, top),
                   resource.keys.total(1, since_minute))


def advice(found: Metrics) -> list[str]:
    """What would fix the throttles of ``found`` (spec §7), with figures; empty when none happened."""
    events = found.throttle_events
    if not events:
        return []
    out = []
    ranged = any(reason.endswith(KEY_RANGE_REASONS) for reason in events)
    if ranged and found.top_throttled:
        key, refused = found.top_throttled[0]
        write = any("Write" in reason for reason in events)
        direction = WRITE if write else READ
        # The demand on the hottest partition in the seconds it throttled (what it served, and at
        # least a unit a refused request), and the key's part of it: its share of the throttles.
        hot = max(found.partitions, key=lambda p: sum(second[2] for second in p.seconds))
        busy = [second for second in hot.seconds if second[2]]
        demand = sum(second[direction] + second[2] for second in busy) / max(1, len(busy))
        demand *= refused / max(refused, found.keys_throttled)
        ceiling = found.ceilings[direction]
        shards = max(2, math.ceil(demand / ceiling))
        unit = "WCU" if write else "RCU"
        out.append(f"key {key!r} asks about {demand:,.0f} {unit}/s of a partition that serves {ceiling:,.0f}: "
                   f"shard it over {shards} keys ({key}#0 … {key}#{shards - 1}), "
                   f"{'writing to one at random and reading all' if write else 'reading from one at random'}")
    if any(reason.endswith("ProvisionedThroughputExceeded") for reason in events):
        what = f"index {found.index}" if found.index else "table"
        out.append(f"the {what} as a whole ran out of its provisioned throughput and burst: raise it "
                   "(UpdateTable) or switch to on-demand")
    return out
