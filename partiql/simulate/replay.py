"""Sending a workload's requests second by second, and the aggregated seconds that make a day's run take minutes.

Each second, every pattern's send times in it are taken from its rate; the
second is then either **replayed** — each request through the engine in time
order (ties by pattern order), its parameters drawn — or, in a long run,
**aggregated**: when every pattern sends as many requests as in a recent
replayed second (the *copy*) that served all of them, with no partition
near its ceiling, the second is the copy's consumption charged at once to
the same partitions through the same admission arithmetic
(``Throughput.charge_second``: every bucket and ceiling checked as one
request asking all of it would be, stricter than the requests one by one);
if it does not fit, the second is replayed. So throttles only ever happen
in replayed seconds, exactly as a per-request run has them; the first
seconds, the seconds after a capacity change or a throttle, and seconds
whose counts differ (spikes, ramps) are replayed. An aggregated second
draws no parameters and writes no item (a sequence moves past its values,
so later replayed seconds draw what a per-request run would); its keys are
not counted in the top keys.

In a long run each pattern draws from a generator seeded by its second
(``{seed}/{pattern}/{second}``), in aggregated and exact runs alike, so both
draw the same values in every replayed second.
"""

from __future__ import annotations

import heapq
import itertools
import math
import random
from dataclasses import dataclass

from partiql.engine.throughput.admission import Draw
from partiql.engine.throughput.figures import PARTITION_READ_CEILING, PARTITION_WRITE_CEILING

AGGREGATE_AFTER = 3600  # s: a run longer than this aggregates its steady seconds (unless exact)
WARMUP = 5              # the first seconds are always replayed
SETTLE = 2              # seconds replayed after a capacity change takes effect
HOT_SHARE = 0.5         # a copy's partitions stay under this share of their ceilings (else: a hot key, replayed)
THROTTLED, FAILED = 2, 3


@dataclass
class Copy:
    """A replayed second that steady seconds repeat: its requests and consumed units by pattern, and the units
    it charged each resource's partitions (table, index, direction, a hash of the partition, units)."""

    second: int
    counts: list
    consumed: list
    draws: list | None = None  # read from the metrics once the second has closed


class Replay:
    """The requests of ``workload`` 's patterns, second by second, on ``db`` (its clock a VirtualClock)."""

    def __init__(self, db, clock, workload, stats: list, send, *, seed: int, aggregate: bool, per_second: bool,
                 scaler=None, ledger=None):
        self.db, self.clock, self.patterns, self.stats, self.send = db, clock, workload.patterns, stats, send
        self.seed, self.aggregate, self.per_second = seed, aggregate, per_second
        self.scaler, self.ledger = scaler, ledger
        self.rngs = [random.Random(f"{seed}/{n}") for n in range(len(self.patterns))]
        self.times = [pattern.rate.times(workload.duration) for pattern in self.patterns]
        self.ahead = [next(times, None) for times in self.times]
        self.now, self.requests, self.aggregated = 0.0, 0, 0
        self.copy: Copy | None = None
        self.candidate: Copy | None = None
        self.throttled_at = -math.inf  # the last replayed second with a throttle or a failure
        self.pending: list = []  # retries due in a later second: (when, pattern, order, (params, attempt))
        self.order = itertools.count()

    def run(self, duration: float, progress=None) -> None:
        """Every second of the run (KeyboardInterrupt passes through; ``now`` says how far it got)."""
        for second in range(math.ceil(duration - 1e-9)):
            self._boundary(second)
            if progress is not None and second:
                progress(second, duration)
            sends = [self._sends(n, second + 1) for n in range(len(self.patterns))]
            if not (self.aggregate and self._copied(second, [len(times) for times in sends])):
                self._replay(second, sends)

    def _boundary(self, second: int) -> None:
        """The start of ``second``: the clock there, the minute's ledger, auto scaling, the copy's draws."""
        if second > self.now:
            self.clock.set(second)
            self.now = second
        if self.ledger is not None:
            self.ledger.advance(second)
        if self.scaler is not None:
            self.scaler.advance(second)
        if self.candidate is not None and self.candidate.second == second - 1:
            self.candidate.draws = self._draws(second - 1)
            if self.candidate.draws is not None:
                self.copy = self.candidate
            self.candidate = None

    def _sends(self, n: int, until: float) -> list:
        """Pattern ``n``'s send times before ``until``."""
        out, times, at = [], self.times[n], self.ahead[n]
        while at is not None and at < until:
            out.append(at)
            at = next(times, None)
        self.ahead[n] = at
        return out

    def _replay(self, second: int, sends: list) -> None:
        rngs = self.rngs if not self.per_second else [random.Random(f"{self.seed}/{n}/{second}")
                                                      for n in range(len(self.patterns))]
        consumed = [stats.consumed for stats in self.stats]
        self._send_all(second, sends, rngs)
        rows = [stats.seconds[second] for stats in self.stats]
        if any(row[THROTTLED] or row[FAILED] for row in rows):
            self.throttled_at = second
        elif self.aggregate and second >= WARMUP and any(len(times) for times in sends):
            self.candidate = Copy(second, [len(times) for times in sends],
                                  [stats.consumed - before for stats, before in zip(self.stats, consumed)])

    def _send_all(self, second: int, sends: list, rngs: list) -> None:
        """The second's requests and the retries due in it, in time order (ties: pattern order, then first sent);
        a retry due after the second waits in ``pending``."""
        end = second + 1
        queue = [(at, n, next(self.order), None) for n, times in enumerate(sends) for at in times]
        while self.pending and self.pending[0][0] < end:
            queue.append(heapq.heappop(self.pending))
        heapq.heapify(queue)
        while queue:
            at, n, _, retry = heapq.heappop(queue)
            self.clock.set(at)
            self.now = at
            again = self.send(self.db, self.patterns[n], rngs[n], at, self.stats[n].seconds[second], self.stats[n],
                              retry)
            self.requests += retry is None
            if again is not None:
                heapq.heappush(queue if again[0] < end else self.pending, (again[0], n, next(self.order), again[1:]))

    def unfinished(self) -> None:
        """Count the retries still pending when the run ends (each pattern's ``unfinished``)."""
        for _, n, _, _ in self.pending:
            self.stats[n].unfinished += 1
        self.pending = []

    def _copied(self, second: int, counts: list) -> bool:
        """Whether ``second`` is the copy's again, charged at once (else the caller replays it)."""
        copy = self.copy
        changed = -math.inf if self.scaler is None else self.scaler.changed
        if copy is None or counts != copy.counts or second < changed + SETTLE or second == self.throttled_at + 1:
            return False
        if copy.second < changed:  # (capacity changed since: a copy made before it is not this second's)
            self.copy = None
            return False
        engine = self.db.engine
        draws = [Draw(engine.throughput.state(engine.table(table)).resources[index], direction, lo, units)
                 for table, index, direction, lo, units in copy.draws]
        if not engine.throughput.charge_second(draws):
            return False
        for pattern, stats, count, consumed in zip(self.patterns, self.stats, counts, copy.consumed):
            stats.seconds[second][:2] = [count, count]
            stats.consumed += consumed
            for generator in pattern.params:
                generator.skip(count)
        self.requests += sum(counts)
        self.aggregated += 1
        self.now = second
        return True

    def _draws(self, second: int) -> list | None:
        """What ``second`` (closed) charged each resource's partitions, from the throughput metrics; None when a
        partition was near its ceiling (a hot key: such seconds are replayed)."""
        out = []
        for table in self.db.table_names():
            spec = self.db.engine.table(table).spec
            for index in [None] + [gsi.name for gsi in spec.gsis]:
                found = self.db.metrics(table, index, last=2)
                if second not in found.seconds:
                    continue  # (the resource did nothing that second)
                at = found.seconds.index(second)
                for partition in found.partitions:
                    read, write, _events = partition.seconds[at]
                    if read > HOT_SHARE * PARTITION_READ_CEILING or write > HOT_SHARE * PARTITION_WRITE_CEILING:
                        return None
                    out += [(table, index, direction, partition.lo, units)
                            for direction, units in enumerate((read, write)) if units]
        return out
