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
``TOP_KEYS_LIMIT`` distinct keys per list (past that, the least half is
dropped: an approximation, as Contributor Insights' own is), and a closed
minute keeps its ``TOP_KEYS_KEPT`` best.
"""

from __future__ import annotations

from collections import deque
from heapq import nlargest
from operator import itemgetter

from .figures import METRICS_SECONDS, TOP_KEYS_KEPT, TOP_KEYS_LIMIT, TOP_KEYS_MINUTES

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

    ``counts[by][items]``: ``by`` 0 consumed / 1 throttled; ``items`` 0 for
    partition keys, 1 for items (partition key, sort key).
    """

    __slots__ = ("minute", "counts", "closed")

    def __init__(self):
        self.minute = None
        self.counts = (({}, {}), ({}, {}))
        self.closed: deque = deque(maxlen=TOP_KEYS_MINUTES)  # (minute, counts trimmed)

    def roll(self, minute: float) -> None:
        """Close the open minute if ``minute`` is a later one."""
        if minute == self.minute:
            return
        if self.minute is not None and any(c for pair in self.counts for c in pair):
            self.closed.append((self.minute, tuple(tuple(_best(c, TOP_KEYS_KEPT) for c in pair)
                                                    for pair in self.counts)))
        self.minute = minute
        self.counts = (({}, {}), ({}, {}))

    def add(self, by: int, pk, sk, amount: float) -> None:
        """Count ``amount`` for partition key ``pk`` (and the item ``(pk, sk)`` unless sk is None)."""
        pair = self.counts[by]
        counts = pair[0]
        value = counts.get(pk)
        if value is None:
            count(counts, pk, amount)
        else:
            counts[pk] = value + amount
        if sk is not None:
            count(pair[1], (pk, sk), amount)

    def top(self, by: int, items: bool, since_minute: float, n: int) -> list[tuple]:
        """The ``n`` keys with most of ``by`` over the minutes from ``since_minute`` on."""
        totals: dict = {}
        for minute, counts in self.closed:
            if minute >= since_minute:
                for key, value in counts[by][items]:
                    totals[key] = totals.get(key, 0) + value
        if self.minute is not None and self.minute >= since_minute:
            for key, value in self.counts[by][items].items():
                totals[key] = totals.get(key, 0) + value
        return _best(totals, n)

    def total(self, by: int, since_minute: float) -> float:
        """Everything counted of ``by`` for partition keys over the minutes from ``since_minute`` on
        (a closed minute keeps its best keys only: a lower bound past them)."""
        total = sum(value for minute, counts in self.closed if minute >= since_minute for _, value in counts[by][0])
        if self.minute is not None and self.minute >= since_minute:
            total += sum(self.counts[by][0].values())
        return total

    def size(self) -> int:
        """Entries held (open minute and closed ones): what bounds its memory."""
        return (sum(len(c) for pair in self.counts for c in pair)
                + sum(len(c) for _, counts in self.closed for pair in counts for c in pair))


def count(counts: dict, key, amount: float) -> None:
    """Add ``amount`` to ``key`` in one open list, trimming it to its best half when it is full."""
    value = counts.get(key)
    if value is None:
        if len(counts) >= TOP_KEYS_LIMIT:
            kept = _best(counts, TOP_KEYS_LIMIT // 2)
            counts.clear()
            counts.update(kept)
        counts[key] = amount
    else:
        counts[key] = value + amount


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
