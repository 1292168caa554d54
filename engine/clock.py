"""The ``clock`` switch (spec throughput.md §1): time made explicit.

Nothing in the engine reads wall time except through the clock it was given
(``Engine(clock=...)``): any zero-argument callable returning seconds as a
float (default ``time.monotonic``). Throughput buckets, TTL expiry, stream
retention and iterator expiry all run on it. Tests and simulations pass a
``VirtualClock`` and advance it by hand, so the same workload gives the same
throttles, expiries and trims. ``Epoch`` turns the clock into epoch seconds
(for TTL attributes, stream record times, creation dates).
"""

from __future__ import annotations

import time


class VirtualClock:
    """A clock that moves only when told to::

        clock = VirtualClock()
        engine = Engine(clock=clock, throughput="enforce")
        clock.advance(0.001)
    """

    __slots__ = ("_now",)

    def __init__(self, start: float = 0.0):
        self._now = _seconds(start, "start")

    def __call__(self) -> float:
        return self._now

    def now(self) -> float:
        """The clock's time in seconds."""
        return self._now

    def advance(self, seconds: float) -> float:
        """Move the clock ``seconds`` forward; returns the new time."""
        seconds = _seconds(seconds, "advance")
        if seconds < 0:
            raise ValueError(f"a clock cannot go back: advance({seconds!r})")
        self._now += seconds
        return self._now

    def set(self, seconds: float) -> None:
        """Move the clock to ``seconds`` (not earlier than now)."""
        seconds = _seconds(seconds, "set")
        if seconds < self._now:
            raise ValueError(f"a clock cannot go back: set({seconds!r}) before {self._now!r}")
        self._now = seconds

    def __repr__(self) -> str:
        return f"VirtualClock({self._now!r})"


def _seconds(value, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{what} takes seconds as a number, got {value!r}")
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{what} takes a finite number of seconds, got {value!r}")
    return float(value)


def resolve_clock(clock) -> callable:
    """The clock an engine runs on: ``clock`` itself, or ``time.monotonic`` for None."""
    if clock is None:
        return time.monotonic
    if not callable(clock):
        raise ValueError(f"clock must be a zero-argument callable returning seconds, got {clock!r}")
    return clock


class Epoch:
    """Epoch seconds on an engine's clock: the wall time at creation plus the clock's
    advance since (one anchor, so a virtual clock drives TTL and stream times too)."""

    __slots__ = ("clock", "anchor", "start")

    def __init__(self, clock, wall: float | None = None):
        self.clock = clock
        self.start = clock()
        self.anchor = time.time() if wall is None else wall

    def __call__(self) -> float:
        return self.anchor + (self.clock() - self.start)
