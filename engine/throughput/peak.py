"""On-demand's previous peak (spec throughput.md §4, model).

An on-demand resource serves, per direction, up to twice its previous peak
each second. The previous peak starts at the new-table figure (6,000 RCU /
2,000 WCU) and grows with traffic: every second closes with the average
consumption of the last 60 seconds, and an average above the peak becomes
the peak 1,800 seconds after it was seen. So traffic above twice the peak is
throttled until 30 minutes of sustained traffic have raised it.

Bounded: the averages waiting for their 30 minutes are kept only while each
is above every one seen before it (a later, smaller one could never raise
the peak first), so at most one per second of the lag.
"""

from __future__ import annotations

from collections import deque

from .figures import PEAK_AVERAGE_SECONDS, PEAK_LAG_SECONDS


class Peak:
    """The previous peak of one on-demand resource in one direction."""

    __slots__ = ("value", "ring", "total", "closed", "pending")

    def __init__(self, initial: float):
        self.value = float(initial)
        self.ring = [0.0] * PEAK_AVERAGE_SECONDS  # consumption per second, by second mod 60
        self.total = 0.0  # the ring's sum: consumption over the last 60 closed seconds
        self.closed = None  # the last second closed
        self.pending: deque = deque()  # (second it matures, average), averages increasing

    def close(self, second: float, used: float) -> None:
        """Second ``second`` ended having consumed ``used`` units."""
        self._skip_to(second)
        slot = int(second) % PEAK_AVERAGE_SECONDS
        self.total += used - self.ring[slot]
        self.ring[slot] = used
        self.closed = second
        average = self.total / PEAK_AVERAGE_SECONDS
        # why the floor: a second with no traffic averages down (never a candidate)
        if average > self.value and (not self.pending or average > self.pending[-1][1]):
            self.pending.append((second + PEAK_LAG_SECONDS, average))

    def _skip_to(self, second: float) -> None:
        # Seconds between the last closed one and ``second`` consumed nothing.
        if self.closed is None:
            return
        gap = int(second - self.closed) - 1
        if gap >= PEAK_AVERAGE_SECONDS:
            self.ring = [0.0] * PEAK_AVERAGE_SECONDS
            self.total = 0.0
            return
        for offset in range(1, gap + 1):
            slot = int(self.closed + offset) % PEAK_AVERAGE_SECONDS
            self.total -= self.ring[slot]
            self.ring[slot] = 0.0

    def mature(self, second: float) -> bool:
        """Let averages seen 30 minutes before ``second`` raise the peak; True when it rose."""
        rose = False
        pending = self.pending
        while pending and pending[0][0] <= second:
            _, average = pending.popleft()
            if average > self.value:
                self.value = average
                rose = True
        return rose

    def raise_to(self, value: float) -> None:
        """A floor for the peak (WarmThroughput, a switch from provisioned)."""
        if value > self.value:
            self.value = float(value)

    def __repr__(self) -> str:
        return f"Peak({self.value}, pending={len(self.pending)})"
