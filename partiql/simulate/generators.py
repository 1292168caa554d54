"""Parameter generators: what each ``?`` of a pattern (or an attribute of seeded items) is drawn from.

A generator is written in the workload file as a plain value (a constant)
or as an inline table naming one kind, with its options::

    "CandidateA"                                  # a constant
    { sequence = "voter#{}", start = 1 }          # voter#1, voter#2, ... (a number without a template)
    { uniform = 10, prefix = "c" }                # c0 ... c9, each as likely
    { uniform = ["red", "green", "blue"] }        # one of these, each as likely
    { zipf = 1000, s = 1.2, prefix = "user#" }    # user#0 most often, then user#1, ... (Zipf, exponent s)
    { choice = ["A", "B"], weights = [9, 1] }     # A nine times in ten
    { date = "%Y-%m-%d" }                         # today's date on the virtual clock
    { timestamp = "seconds" }                     # the virtual clock as epoch seconds (or "millis")
    { string = 100 }                              # a random string of 100 characters
    { number = [1, 5000] }                        # a whole number in [1, 5000]
    { item = "Votes.voter" }                      # the attribute of a seeded item, one at random
    { format = "{}#{}", args = [{ date = true }, { uniform = 10 }] }   # 2026-01-05#7: a sharded key

``build(spec, where)`` checks the spec and returns a ``Generator``; its
``draw(rng, now)`` takes the pattern's random generator (so a seed makes
every run the same) and the virtual time. Every mistake is a
``WorkloadError`` naming where in the file it is.
"""

from __future__ import annotations

import bisect
import datetime
import itertools
import math
import string
import time
from decimal import Decimal

from .errors import WorkloadError
from .numbers import MAX_STRING, number, whole

MAX_DIMENSIONS = 4096  # a vector index's most (vector-search.md §2.2)

# A Zipf or uniform draw over more names than this draws a rank and names it then, instead of keeping a
# list of every name (and Zipf's cumulative weights): ``{ zipf = 1000000000 }`` must not fill memory.
TABULATED_AT_MOST = 100_000

# The virtual clock starts here (epoch seconds): dates and timestamps are those of a fixed day, so a
# seed gives the same items whatever day the simulation runs. 2026-01-05 00:00:00 UTC, a Monday.
EPOCH_START = 1_767_571_200
_LETTERS = string.ascii_letters + string.digits


class Generator:
    """Draws one value per call."""

    def draw(self, rng, now: float):
        raise NotImplementedError

    def skip(self, count: int) -> None:
        """Move past ``count`` draws without making them (an aggregated second's requests): only a generator
        with a state of its own (a sequence) has anything to do."""


class Constant(Generator):
    def __init__(self, value):
        self.value = value

    def draw(self, rng, now):
        return self.value


class Sequence(Generator):
    def __init__(self, template: str | None, start: int):
        self.template = template
        self.next = start

    def draw(self, rng, now):
        n = self.next
        self.next = n + 1
        return n if self.template is None else self.template.format(n)

    def skip(self, count: int) -> None:
        self.next += count


class Choice(Generator):
    """One of ``values``, by ``weights`` (cumulative, for bisect), or each as likely."""

    def __init__(self, values: list, weights: list | None = None):
        self.values = values
        top = max(weights) if weights else 0  # why: weights near 1e308 would sum to inf
        self.cumulative = list(itertools.accumulate(w / top for w in weights)) if weights else None

    def draw(self, rng, now):
        if self.cumulative is None:
            return self.values[rng.randrange(len(self.values))]
        return self.values[bisect.bisect_right(self.cumulative, rng.random() * self.cumulative[-1])]


class Date(Generator):
    def __init__(self, pattern: str):
        self.pattern = pattern

    def draw(self, rng, now):
        return time.strftime(self.pattern, time.gmtime(EPOCH_START + now))


class Timestamp(Generator):
    def __init__(self, unit: str):
        self.scale = 1000 if unit == "millis" else 1

    def draw(self, rng, now):
        return int((EPOCH_START + now) * self.scale)


class Text(Generator):
    def __init__(self, size: int):
        self.size = size

    def draw(self, rng, now):
        return "".join(rng.choices(_LETTERS, k=self.size))


class Vector(Generator):
    """An embedding: ``dimensions`` numbers in [-1, 1], four decimals each (what a vector index reads)."""

    def __init__(self, dimensions: int):
        self.dimensions = dimensions
        self.values = [Decimal(n) / 10_000 for n in range(-10_000, 10_001)]  # (drawn, not built, per number)

    def draw(self, rng, now):
        return rng.choices(self.values, k=self.dimensions)


class Number(Generator):
    def __init__(self, low: int, high: int):
        self.low, self.high = low, high

    def draw(self, rng, now):
        return rng.randint(self.low, self.high)


class Format(Generator):
    """Other generators' values put into a template (``"{}#{}"``): composite and sharded keys."""

    def __init__(self, template: str, args: list):
        self.template, self.args = template, args

    def draw(self, rng, now):
        return self.template.format(*(arg.draw(rng, now) for arg in self.args))

    def skip(self, count: int) -> None:
        for arg in self.args:
            arg.skip(count)


class SeededValue(Generator):
    """An attribute of one of the seeded items (filled in once the seed data exists)."""

    def __init__(self, table: str, attribute: str):
        self.table, self.attribute = table, attribute
        self.values: list = []

    def draw(self, rng, now):
        if not self.values:
            raise WorkloadError(f"no seeded item of {self.table} has {self.attribute}")
        return self.values[rng.randrange(len(self.values))]


class Ranks(Generator):
    """A rank in [0, count), each as likely, named as it is drawn (``prefix`` + rank): the same draws as a
    ``Choice`` over the list of names, without the list."""

    def __init__(self, count: int, prefix: str | None):
        self.count, self.prefix = count, prefix

    def draw(self, rng, now):
        return _name(self.rank(rng), self.prefix)

    def rank(self, rng) -> int:
        return rng.randrange(self.count)


class Zipf(Ranks):
    """A rank in [0, count) with probability proportional to 1 / (rank + 1) ** s, by rejection-inversion
    (W. Hörmann and G. Derflinger, 1996: a few steps a draw, whatever the count; as Apache Commons RNG's
    RejectionInversionZipfSampler)."""

    def __init__(self, count: int, s: float, prefix: str | None):
        super().__init__(count, prefix)
        self.s = s
        self.h_x1 = self._h_integral(1.5) - 1.0
        self.h_n = self._h_integral(count + 0.5)
        self.squeeze = 2.0 - self._h_integral_inverse(self._h_integral(2.5) - self._h(2.0))

    def rank(self, rng) -> int:
        while True:
            u = self.h_n + rng.random() * (self.h_x1 - self.h_n)
            x = self._h_integral_inverse(u)
            k = min(max(int(x + 0.5), 1), self.count)
            if k - x <= self.squeeze or u >= self._h_integral(k + 0.5) - self._h(k):
                return k - 1

    def _h(self, x: float) -> float:
        return math.exp(-self.s * math.log(x))

    def _h_integral(self, x: float) -> float:
        log_x = math.log(x)
        return _expm1_over((1.0 - self.s) * log_x) * log_x

    def _h_integral_inverse(self, x: float) -> float:
        t = max(x * (1.0 - self.s), -1.0)
        return math.exp(_log1p_over(t) * x)


def _log1p_over(x: float) -> float:
    """log(1 + x) / x, exact near 0."""
    return math.log1p(x) / x if abs(x) > 1e-8 else 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x))


def _expm1_over(x: float) -> float:
    """(exp(x) - 1) / x, exact near 0."""
    return math.expm1(x) / x if abs(x) > 1e-8 else 1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + 0.25 * x))


def _name(rank: int, prefix: str | None):
    return f"{prefix}{rank}" if prefix is not None else rank


def _names(count: int, prefix: str | None) -> list:
    return [_name(n, prefix) for n in range(count)]


def _zipf(spec: dict, where: str) -> Generator:
    count = whole(spec["zipf"], f"{where}.zipf", 1)
    s = number(spec.get("s", 1.0), f"{where}.s", 0.0, 100.0, "an exponent")
    if count > TABULATED_AT_MOST:
        return Zipf(count, s, spec.get("prefix")) if s else Ranks(count, spec.get("prefix"))
    return Choice(_names(count, spec.get("prefix")), [1 / math.pow(rank, s) for rank in range(1, count + 1)])


def _uniform(spec: dict, where: str) -> Generator:
    values = spec["uniform"]
    if isinstance(values, list):
        if not values:
            raise WorkloadError(f"{where}.uniform: an empty list has nothing to draw")
        return Choice(_value(values, f"{where}.uniform"))
    count = whole(values, f"{where}.uniform", 1)
    return Ranks(count, spec.get("prefix")) if count > TABULATED_AT_MOST else Choice(_names(count, spec.get("prefix")))


def _choice(spec: dict, where: str) -> Generator:
    values = spec["choice"]
    if not isinstance(values, list) or not values:
        raise WorkloadError(f"{where}.choice takes a list of values")
    weights = spec.get("weights")
    if weights is not None:
        if (not isinstance(weights, list) or len(weights) != len(values)
                or any(isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w) or w < 0
                       for w in weights)
                or not any(weights)):
            raise WorkloadError(f"{where}.weights takes one weight (a finite number >= 0) per value, not all 0, "
                                f"not {weights!r}")
    return Choice(_value(values, f"{where}.choice"), weights)


def _sequence(spec: dict, where: str) -> Generator:
    template = spec["sequence"]
    if template is True:
        template = None
    elif not isinstance(template, str) or "{}" not in template or not _formats(template, 1):
        raise WorkloadError(f"{where}.sequence takes a template with one {{}} (\"voter#{{}}\") or true")
    return Sequence(template, whole(spec.get("start", 0), f"{where}.start", 0))


def _date(spec: dict, where: str) -> Generator:
    pattern = spec["date"]
    if pattern is True:
        pattern = "%Y-%m-%d"
    if not isinstance(pattern, str):
        raise WorkloadError(f"{where}.date takes a strftime pattern (\"%Y-%m-%d\") or true")
    return Date(pattern)


def _timestamp(spec: dict, where: str) -> Generator:
    unit = "seconds" if spec["timestamp"] is True else spec["timestamp"]
    if unit not in ("seconds", "millis"):
        raise WorkloadError(f"{where}.timestamp takes \"seconds\" or \"millis\"")
    return Timestamp(unit)


def _number_range(spec: dict, where: str) -> Generator:
    bounds = spec["number"]
    if (not isinstance(bounds, list) or len(bounds) != 2
            or any(isinstance(b, bool) or not isinstance(b, int) for b in bounds) or bounds[0] > bounds[1]):
        raise WorkloadError(f"{where}.number takes [low, high], two whole numbers, low <= high")
    return Number(*bounds)


def _item(spec: dict, where: str) -> Generator:
    source = spec["item"]
    if not isinstance(source, str) or source.count(".") != 1:
        raise WorkloadError(f"{where}.item takes \"Table.attribute\"")
    return SeededValue(*source.split("."))


def _format(spec: dict, where: str) -> Generator:
    template, args = spec["format"], spec.get("args", [])
    if not isinstance(template, str) or not isinstance(args, list):
        raise WorkloadError(f"{where}.format takes a template (\"{{}}#{{}}\") and args, a list of generators")
    if template.count("{}") != len(args) or not _formats(template, len(args)):
        raise WorkloadError(f"{where}.format takes a template with one {{}} per arg: {template!r} does not "
                            f"take {len(args)}")
    return Format(template, [build(arg, f"{where}.args[{n}]") for n, arg in enumerate(args)])


# kind -> (builder, the options it takes besides its own key)
KINDS = {
    "constant": (lambda spec, where: Constant(_value(spec["constant"], f"{where}.constant")), ()),
    "sequence": (_sequence, ("start",)),
    "uniform": (_uniform, ("prefix",)),
    "zipf": (_zipf, ("s", "prefix")),
    "choice": (_choice, ("weights",)),
    "date": (_date, ()),
    "timestamp": (_timestamp, ()),
    "string": (lambda spec, where: Text(whole(spec["string"], f"{where}.string", 0, MAX_STRING)), ()),
    "number": (_number_range, ()),
    "vector": (lambda spec, where: Vector(whole(spec["vector"], f"{where}.vector", 1, MAX_DIMENSIONS)), ()),
    "item": (_item, ()),
    "format": (_format, ("args",)),
}


def build(spec, where: str) -> Generator:
    """The generator ``spec`` describes (``where``: its place in the file, for errors)."""
    if not isinstance(spec, dict):
        return Constant(_value(spec, where))
    kinds = [key for key in spec if key in KINDS]
    if len(kinds) != 1:
        raise WorkloadError(f"{where} names {'no' if not kinds else 'more than one'} generator: one of "
                            f"{', '.join(KINDS)} (or a plain value for a constant)")
    kind = kinds[0]
    builder, options = KINDS[kind]
    unknown = sorted(set(spec) - {kind, *options})
    if unknown:
        raise WorkloadError(f"{where}: {kind} takes {', '.join(options) or 'no options'}, not {', '.join(unknown)}")
    return builder(spec, where)


def _formats(template: str, count: int) -> bool:
    """Whether ``template`` takes exactly ``count`` positional values (no names, no stray braces)."""
    try:
        template.format(*range(count))
    except (IndexError, KeyError, ValueError):
        return False
    return True


def _value(value, where: str):
    """A TOML value as a parameter (floats as exact decimals, as PartiQL numbers are); a value no
    statement takes (infinity, NaN, a TOML date or time) is a WorkloadError naming ``where``."""
    if isinstance(value, float):
        if not math.isfinite(value):
            raise WorkloadError(f"{where}: {value!r} is not a number DynamoDB stores (it takes finite numbers)")
        return Decimal(repr(value))
    if isinstance(value, list):
        return [_value(v, f"{where}[{n}]") for n, v in enumerate(value)]
    if isinstance(value, dict):
        return {k: _value(v, f"{where}.{k}") for k, v in value.items()}
    if isinstance(value, (datetime.date, datetime.time)):  # (datetime is a date)
        raise WorkloadError(f"{where}: a TOML {type(value).__name__} ({value.isoformat()}) is not a value a "
                            f"statement takes: write it as a string (\"{value.isoformat()}\"), or use "
                            "{ date = \"%Y-%m-%d\" } or { timestamp = \"seconds\" } for the virtual clock")
    return value

