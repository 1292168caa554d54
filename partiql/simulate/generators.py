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
import itertools
import math
import string
import time
from decimal import Decimal

from .errors import WorkloadError

# The virtual clock starts here (epoch seconds): dates and timestamps are those of a fixed day, so a
# seed gives the same items whatever day the simulation runs. 2026-01-05 00:00:00 UTC, a Monday.
EPOCH_START = 1_767_571_200
_LETTERS = string.ascii_letters + string.digits


class Generator:
    """Draws one value per call."""

    def draw(self, rng, now: float):
        raise NotImplementedError


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


class Choice(Generator):
    """One of ``values``, by ``weights`` (cumulative, for bisect), or each as likely."""

    def __init__(self, values: list, weights: list | None = None):
        self.values = values
        self.cumulative = list(itertools.accumulate(weights)) if weights else None

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


class SeededValue(Generator):
    """An attribute of one of the seeded items (filled in once the seed data exists)."""

    def __init__(self, table: str, attribute: str):
        self.table, self.attribute = table, attribute
        self.values: list = []

    def draw(self, rng, now):
        if not self.values:
            raise WorkloadError(f"no seeded item of {self.table} has {self.attribute}")
        return self.values[rng.randrange(len(self.values))]


def _names(count: int, prefix: str | None) -> list:
    return [f"{prefix}{n}" if prefix is not None else n for n in range(count)]


def _zipf(spec: dict, where: str) -> Generator:
    count = _whole(spec["zipf"], f"{where}.zipf", 1)
    s = _number(spec.get("s", 1.0), f"{where}.s", 0.0)
    return Choice(_names(count, spec.get("prefix")), [1 / math.pow(rank, s) for rank in range(1, count + 1)])


def _uniform(spec: dict, where: str) -> Generator:
    values = spec["uniform"]
    if isinstance(values, list):
        if not values:
            raise WorkloadError(f"{where}.uniform: an empty list has nothing to draw")
        return Choice(_value(values))
    return Choice(_names(_whole(values, f"{where}.uniform", 1), spec.get("prefix")))


def _choice(spec: dict, where: str) -> Generator:
    values = spec["choice"]
    if not isinstance(values, list) or not values:
        raise WorkloadError(f"{where}.choice takes a list of values")
    weights = spec.get("weights")
    if weights is not None:
        if (not isinstance(weights, list) or len(weights) != len(values)
                or any(isinstance(w, bool) or not isinstance(w, (int, float)) or w < 0 for w in weights)
                or not sum(weights)):
            raise WorkloadError(f"{where}.weights takes one weight (a number >= 0) per value, not all 0")
    return Choice(_value(values), weights)


def _sequence(spec: dict, where: str) -> Generator:
    template = spec["sequence"]
    if template is True:
        template = None
    elif not isinstance(template, str) or "{}" not in template or not _formats(template, 1):
        raise WorkloadError(f"{where}.sequence takes a template with one {{}} (\"voter#{{}}\") or true")
    return Sequence(template, _whole(spec.get("start", 0), f"{where}.start", 0))


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
    "constant": (lambda spec, where: Constant(_value(spec["constant"])), ()),
    "sequence": (_sequence, ("start",)),
    "uniform": (_uniform, ("prefix",)),
    "zipf": (_zipf, ("s", "prefix")),
    "choice": (_choice, ("weights",)),
    "date": (_date, ()),
    "timestamp": (_timestamp, ()),
    "string": (lambda spec, where: Text(_whole(spec["string"], f"{where}.string", 0)), ()),
    "number": (_number_range, ()),
    "item": (_item, ()),
    "format": (_format, ("args",)),
}


def build(spec, where: str) -> Generator:
    """The generator ``spec`` describes (``where``: its place in the file, for errors)."""
    if not isinstance(spec, dict):
        return Constant(_value(spec))
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


def _value(value):
    """A TOML value as a parameter (floats as exact decimals, as PartiQL numbers are)."""
    if isinstance(value, float):
        return Decimal(repr(value))
    if isinstance(value, list):
        return [_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _value(v) for k, v in value.items()}
    return value


def _whole(value, where: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise WorkloadError(f"{where} takes a whole number >= {least}, not {value!r}")
    return value


def _number(value, where: str, least: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < least:
        raise WorkloadError(f"{where} takes a number >= {least}, not {value!r}")
    return float(value)
