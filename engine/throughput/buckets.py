"""The two meters throughput is counted on (spec throughput.md §3).

- ``Bucket``: a token bucket, refilled lazily on use at ``rate`` units per
  second up to ``capacity`` (300 seconds of the rate for a provisioned
  resource: its burst). It starts full.
- The one-second window: what a partition (or an on-demand resource) used in
  the current second of the clock. It is not an object of its own: a
  ``Gauge`` of a partition and a ``Side`` of a resource keep ``used`` and
  reset it when the second changes (see ``state``).

why a fixed window for the partition ceiling and not a second bucket: spec
§8 case 1 serves ~1,000 writes in the first second of a 1,500/s load. A
continuous bucket holding one second of 1,000 WCU that starts full would
serve 2,000 in the first second (its content plus a second of refill) and
~1,500 in the second; a window that resets each second serves 1,000.
"""

from __future__ import annotations

from .figures import BURST_SECONDS


class Bucket:
    """A token bucket: ``level`` units, refilled at ``rate``/s up to ``capacity``."""

    __slots__ = ("rate", "capacity", "level", "last")

    def __init__(self, rate: float, now: float, burst: float = BURST_SECONDS):
        self.rate = float(rate)
        self.capacity = self.rate * burst
        self.level = self.capacity  # every bucket starts full (§3)
        self.last = now

    def level_at(self, now: float) -> float:
        """The level at ``now``, after the refill since the last look."""
        if now > self.last:  # a clock that goes back refills nothing
            level = self.level + self.rate * (now - self.last)
            self.level = level if level < self.capacity else self.capacity
            self.last = now
        return self.level

    def rerate(self, rate: float, now: float, burst: float = BURST_SECONDS) -> None:
        """A new rate: raised, the bucket starts full at its new capacity (model); lowered,
        it keeps what it holds up to the new capacity."""
        raised = rate > self.rate
        self.level_at(now)
        self.rate = float(rate)
        self.capacity = self.rate * burst
        self.level = self.capacity if raised else min(self.level, self.capacity)

    def __repr__(self) -> str:
        return f"Bucket(rate={self.rate}, level={self.level:.3f}/{self.capacity})"
