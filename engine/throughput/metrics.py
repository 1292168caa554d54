"""What is counted (spec throughput.md §6), in bounded structures.

Per resource (a table, a GSI), per second of the clock, for the last hour:
consumed read and write units, throttled requests, throttle events by
reason, and per partition its hash range, consumed units and throttle
events (``Second``, kept in a ``deque`` of at most 3,600). Top keys
(Contributor Insights' most accessed and most throttled keys): per minute of
the clock, the partition keys and the items (partition + sort key) with the
most consumed units and the most throttle events (``KeyCounts``).

Bounded memory (model): a second is recorded only when something happened
in it, and at most an hour of them is kept; an open minute counts at most
``TOP_KEYS_LIMIT`` distinct keys per list (past that, the keys at or below
the median are folded into their partition keys' totals, themselves bounded
the same way: an approximation, as Contributor Insights' own is), and a
closed minute keeps its ``TOP_KEYS_KEPT`` best of each list. Once the open
consumed list has held more than ``SAMPLE_ABOVE`` keys, or the resource's last second was
busy (``Resource.roll``: more than ``SAMPLE_ABOVE_UNITS``), it samples the requests it counts
(a request of u units with a chance of u × ``SAMPLE_RATE``, counted as u
divided by that chance: an unbiased estimate; from 1 / ``SAMPLE_RATE`` units
up, every request), with a seeded generator: the same workload counts the
same keys twice. why sample requests and not only new keys (sample and
hold): a busy minute is where counting costs, and the request path pays one
draw instead of a dictionary update keyed by a tuple (issue 15's cost).
"""

from __future__ import annotations

import random
from collections import deque
from heapq import nlargest
from operator import itemgetter

from .figures import (METRICS_SECONDS, SAMPLE_ABOVE, SAMPLE_RATE, TOP_KEYS_KEPT, TOP_KEYS_LIMIT,
                      TOP_KEYS_MINUTES)

READ, WRITE = 0, 1
DIRECTIONS = ("read", "write")
BY = ("consumed", "throttled")

_value = itemgetter(1)


class Second:
    """What one resource did in one closed second."""

    __slots__ = ("second", "consumed", "throttled", "events", "partitions")

    def __init__(self, second: float, consumed: tuple, throttled: tuple, events: dict, partitions: tuple):
        self.second = second
        self.consumed = consumed      # (read units, write units)
        self.throttled = throttled    # (read requests, write requests) throttled
        self.events = events          # reason -> throttle events
        self.partitions = partitions  # (lo, hi, read units, write units, throttle events) each

    def __repr__(self) -> str:
        return f"Second({self.second}, consumed={self.consumed}, events={self.events})"


def history() -> deque:
    """Seconds of one resource: the last hour's, those with activity."""
    return deque(maxlen=METRICS_SECONDS)


class KeyCounts:
    """Consumed units and throttle events per key, per minute of the clock.

    ``counts[by]`` (``by`` 0 consumed / 1 throttled) holds the open minute's
    figures per key as the engine locates it: ``(hash, partition key, sort
    tuple)``, the sort tuple None for a table without sort key or a request on
    a whole partition key (a Query). why one dict keyed by the located tuple:
    the request path already holds it, so counting is one dict update, and
    both of Contributor Insights' lists (partition keys; partition + sort keys)
    are derived from it when read. ``spilled[by]`` keeps, per (hash, partition
    key), what trimming dropped from ``counts``, so a partition key read through
    many light items keeps its total.
    """

    __slots__ = ("minute", "counts", "spilled", "closed", "sampling", "draw")

    def __init__(self):
        self.minute = None
        self.counts = [{}, {}]
        self.spilled = [{}, {}]
        self.closed: deque = deque(maxlen=TOP_KEYS_MINUTES)  # (minute, ((keys, items), (keys, items)))
        self.sampling = False  # the open minute has been busy: requests are sampled (see the module's docstring)
        self.draw = random.Random(0).random  # the sampling's (seeded: counts are deterministic)

    def roll(self, minute: float) -> None:
        """Close the open minute if ``minute`` is a later one."""
        if minute == self.minute:
            return
        if self.minute is not None and (any(self.counts) or any(self.spilled)):
            self.closed.append((self.minute, tuple((_best(self.partition_keys(by), TOP_KEYS_KEPT),
                                                    _best(self.items(by), TOP_KEYS_KEPT)) for by in (0, 1))))
        self.minute = minute
        self.counts = [{}, {}]
        self.spilled = [{}, {}]
        self.sampling = False

    def add(self, by: int, located: tuple, amount: float) -> None:
        """Count ``amount`` for the key ``located`` (hash, partition key, sort tuple or None); a busy
        consumed list samples (the module's docstring; throttle events are all counted)."""
        if by == 0 and self.sampling:
            chance = amount * SAMPLE_RATE
            if chance < 1:
                if self.draw() >= chance:
                    return
                amount /= chance
        counts = self.counts[by]
        value = counts.get(located)
        if value is None:
            self.insert(by, located, amount)
        else:
            counts[located] = value + amount

    def insert(self, by: int, located: tuple, amount: float) -> None:
        """Count ``amount`` for a key the open list does not hold (after the sampling)."""
        counts = self.counts[by]
        if len(counts) >= TOP_KEYS_LIMIT:
            counts = self._trim(by)
        counts[located] = amount
        if by == 0 and len(counts) > SAMPLE_ABOVE:
            self.sampling = True

    def _trim(self, by: int) -> dict:
        """Keep the keys above the median of a full open list; spill the others' figures to their
        partition keys (the spilled list itself, once full, keeps its keys above the median).

        The open list is trimmed in place: the throughput model's lanes hold it."""
        counts, spilled = self.counts[by], self.spilled[by]
        cut = _median(counts)
        kept = {}
        for located, value in counts.items():
            if value > cut:
                kept[located] = value
            else:
                key = located[:2]
                spilled[key] = spilled.get(key, 0.0) + value
        if len(spilled) >= TOP_KEYS_LIMIT:
            cut = _median(spilled)
            self.spilled[by] = {key: value for key, value in spilled.items() if value > cut}
        counts.clear()
        counts.update(kept)
        return counts

    def partition_keys(self, by: int) -> dict:
        """The open minute's figures per (hash, partition key)."""
        totals = dict(self.spilled[by])
        for (h, pk, _), value in self.counts[by].items():
            key = (h, pk)
            totals[key] = totals.get(key, 0.0) + value
        return totals

    def items(self, by: int) -> dict:
        """The open minute's figures per item (partition key, sort key) read or written as one."""
        return {(pk, sort[0]): value for (_, pk, sort), value in self.counts[by].items() if sort is not None}

    def top(self, by: int, items: bool, since_minute: float, n: int) -> list[tuple]:
        """The ``n`` keys with most of ``by`` over the minutes from ``since_minute`` on: partition keys,
        or with ``items`` (partition key, sort key) pairs."""
        totals: dict = {}
        for minute, lists in self.closed:
            if minute >= since_minute:
                for key, value in lists[by][items]:
                    totals[key] = totals.get(key, 0) + value
        if self.minute is not None and self.minute >= since_minute:
            for key, value in (self.items(by) if items else self.partition_keys(by)).items():
                totals[key] = totals.get(key, 0) + value
        best = _best(totals, n)
        return best if items else [(key[1], value) for key, value in best]

    def total(self, by: int, since_minute: float) -> float:
        """Everything counted of ``by`` over the minutes from ``since_minute`` on (a closed minute
        keeps its best keys only: a lower bound past them)."""
        total = sum(value for minute, lists in self.closed if minute >= since_minute for _, value in lists[by][0])
        if self.minute is not None and self.minute >= since_minute:
            total += sum(self.counts[by].values()) + sum(self.spilled[by].values())
        return total

    def traffic(self, lo: int, hi: int) -> list[tuple]:
        """(hash, units) of the partition keys consumed in [lo, hi) this minute and the last, in hash order."""
        units: dict = {}
        sources = [self.partition_keys(0).items()]
        if self.closed:
            sources.append(self.closed[-1][1][0][0])
        for source in sources:
            for (h, _), value in source:
                if lo <= h < hi:
                    units[h] = units.get(h, 0.0) + value
        return sorted(units.items())

    def size(self) -> int:
        """Entries held (open minute and closed ones): what bounds its memory."""
        return (sum(map(len, self.counts)) + sum(map(len, self.spilled))
                + sum(len(c) for _, lists in self.closed for pair in lists for c in pair))


def _median(counts: dict) -> float:
    values = sorted(counts.values())
    return values[len(values) // 2]


def _best(counts: dict, n: int) -> list[tuple]:
    """The ``n`` entries with the largest values, largest first (ties: first counted first)."""
    return nlargest(n, counts.items(), key=_value)


def seconds(records, current: Second | None, now_second: float, last: int) -> list[Second]:
    """A dense list of the last ``last`` seconds up to ``now_second`` (empty ones included)."""
    first = now_second - last + 1
    found = {record.second: record for record in records if record.second >= first}
    if current is not None and current.second >= first:
        found[current.second] = current
    empty = ((0.0, 0.0), (0, 0))
    return [found.get(first + i) or Second(first + i, *empty, {}, ()) for i in range(last)]
