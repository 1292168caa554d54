"""Request rates: how many requests a second a pattern sends, at each moment of virtual time.

Written in the workload file as a number (constant) or an inline table::

    rate = 1500                                      # 1,500 requests a second throughout
    rate = { ramp = [100, 3000] }                    # from 100 to 3,000 a second over the run
    rate = { base = 200, spike = 2000, every = 60, for = 5 }   # 2,000 a second for 5 s of each minute
    rate = { base = 100, spike = 600, every = 3600, for = 1200, at = 1200 }   # from 20 to 40 min of each hour

``Rate.at(t, duration)`` is the rate at time ``t``; ``times(duration)``
yields the moments a pattern sends a request, evenly spaced at the rate of
the moment (deterministic: no randomness in when, only in what).
"""

from __future__ import annotations

from .errors import WorkloadError
from .numbers import MAX_RATE, number

EPSILON = 1e-9  # seconds: a send time this close to the end is past it (sums of steps are not exact)


class Rate:
    def at(self, t: float, duration: float) -> float:
        raise NotImplementedError

    def times(self, duration: float):
        """The send times in [0, duration): one request every 1/rate seconds, rate read as it goes."""
        t = 0.0
        while t < duration - EPSILON:
            rate = self.at(t, duration)
            if rate <= 0:
                t = float(int(t) + 1)  # idle: look again at the next second
                continue
            yield t
            t = round(t + 1.0 / rate, 9)  # why: ten steps of 0.1 must reach 1.0, not 0.9999999999999999


class Constant(Rate):
    def __init__(self, rate: float):
        self.rate = rate

    def at(self, t, duration):
        return self.rate

    def times(self, duration: float):
        """k / rate: no sum of steps, so 12 a second for 2 s is 24 requests, not 25."""
        if self.rate <= 0:
            return
        k = 0
        while k / self.rate < duration - EPSILON:
            yield k / self.rate
            k += 1


class Ramp(Rate):
    def __init__(self, start: float, end: float):
        self.start, self.end = start, end

    def at(self, t, duration):
        return self.start + (self.end - self.start) * (t / duration if duration else 0)


class Spike(Rate):
    def __init__(self, base: float, spike: float, every: float, length: float, start: float = 0.0):
        self.base, self.spike, self.every, self.length, self.start = base, spike, every, length, start

    def at(self, t, duration):
        return self.spike if (t - self.start) % self.every < self.length else self.base


def build(spec, where: str) -> Rate:
    """The rate ``spec`` describes (``where``: its place in the file, for errors)."""
    if not isinstance(spec, dict):
        return Constant(_rate(spec, where))
    if set(spec) == {"ramp"}:
        ramp = spec["ramp"]
        if not isinstance(ramp, list) or len(ramp) != 2:
            raise WorkloadError(f"{where}.ramp takes [from, to] requests a second")
        return Ramp(_rate(ramp[0], f"{where}.ramp"), _rate(ramp[1], f"{where}.ramp"))
    if set(spec) - {"at"} == {"base", "spike", "every", "for"}:
        every = _rate(spec["every"], f"{where}.every")
        if not every:
            raise WorkloadError(f"{where}.every takes seconds > 0")
        return Spike(_rate(spec["base"], f"{where}.base"), _rate(spec["spike"], f"{where}.spike"), every,
                     _rate(spec["for"], f"{where}.for"), number(spec.get("at", 0), f"{where}.at", what="seconds"))
    raise WorkloadError(f"{where} takes requests a second (a number), {{ ramp = [from, to] }} or "
                        "{ base = …, spike = …, every = …, for = … [, at = …] }")


def _rate(value, where: str) -> float:
    return number(value, where, 0.0, MAX_RATE)
