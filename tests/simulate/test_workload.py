"""Workload files (issue #16 point 1): generators, rates, and every mistake named with its place."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from partiql.simulate import WorkloadError, parse
from partiql.simulate import generators, rates

PATTERN = '[[pattern]]\nstatement = "SELECT * FROM T WHERE pk = ?"\nparams = ["a"]\nrate = 10\n'


def draws(spec, n=2000, now=0.0, seed=1):
    generator = generators.build(spec, "p")
    rng = random.Random(seed)
    return [generator.draw(rng, now) for _ in range(n)]


def test_constants_sequences_and_numbers():
    assert draws("CandidateA", 3) == ["CandidateA"] * 3
    assert draws(2.5, 1) == [Decimal("2.5")]  # exact, as PartiQL numbers are
    assert draws({"constant": [1, "x"]}, 1) == [[1, "x"]]
    assert draws({"sequence": "voter#{}", "start": 7}, 3) == ["voter#7", "voter#8", "voter#9"]
    assert draws({"sequence": True}, 3) == [0, 1, 2]
    assert all(1 <= n <= 6 for n in draws({"number": [1, 6]}))
    assert {len(s) for s in draws({"string": 12}, 50)} == {12}


def test_uniform_choice_and_zipf_have_their_shapes():
    found = draws({"uniform": 4, "prefix": "c"}, 4000)
    assert sorted(set(found)) == ["c0", "c1", "c2", "c3"] and all(800 < found.count(v) < 1200 for v in set(found))
    weighted = draws({"choice": ["A", "B"], "weights": [9, 1]}, 5000)
    assert 0.87 < weighted.count("A") / 5000 < 0.93
    zipf = draws({"zipf": 100, "s": 1.2, "prefix": "k"}, 5000)
    counts = [zipf.count(f"k{rank}") for rank in range(4)]
    assert counts == sorted(counts, reverse=True) and counts[0] > 5 * zipf.count("k50")


def test_dates_and_timestamps_follow_the_virtual_clock():
    assert draws({"date": True}, 1, now=0.0) == ["2026-01-05"]
    assert draws({"date": "%Y-%m-%d"}, 1, now=86_400 * 2 + 5) == ["2026-01-07"]
    assert draws({"timestamp": "millis"}, 1, now=1.5) == [generators.EPOCH_START * 1000 + 1500]


def test_the_same_seed_draws_the_same_values():
    spec = {"zipf": 50, "prefix": "u"}
    assert draws(spec, 100, seed=3) == draws(spec, 100, seed=3) != draws(spec, 100, seed=4)


@pytest.mark.parametrize("spec, expected", [
    (10, [0.0, 0.1, 0.2]),
    ({"ramp": [0, 10]}, None),
    ({"base": 1, "spike": 10, "every": 10, "for": 1}, [0.0, 0.1, 0.2]),
])
def test_rates_space_requests_at_the_rate_of_the_moment(spec, expected):
    rate = rates.build(spec, "p.rate")
    times = list(rate.times(10))
    if expected is not None:
        assert [round(t, 6) for t in times[:3]] == expected
    if isinstance(spec, dict) and "ramp" in spec:  # 0 -> 10 a second over 10 s: ~50 requests, denser later
        assert 40 <= len(times) <= 60 and sum(t < 5 for t in times) < sum(t >= 5 for t in times)
    if isinstance(spec, dict) and "spike" in spec:  # 10/s for the first second of ten, then 1/s
        assert len(times) == 10 + 9


def test_a_design_changes_the_tables_and_the_patterns_it_names():
    found = parse('tables = ["CREATE TABLE A PRIMARY KEY (pk STRING HASH)"]\n' + PATTERN +
                  '[[design]]\nname = "b"\ntables = ["CREATE TABLE B PRIMARY KEY (pk STRING HASH)"]\n'
                  '[[design.pattern]]\nname = "pattern[0]"\nstatement = "SELECT * FROM B WHERE pk = ?"\nlimit = 3\n',
                  "w.toml")
    changed = found.with_design(found.designs[0])
    assert changed.tables == ["CREATE TABLE B PRIMARY KEY (pk STRING HASH)"] and changed.design == "b"
    pattern = changed.patterns[0]
    assert (pattern.statement, pattern.limit, pattern.rate) == ("SELECT * FROM B WHERE pk = ?", 3,
                                                                 found.patterns[0].rate)
    assert found.patterns[0].statement == "SELECT * FROM T WHERE pk = ?"  # the workload itself is unchanged


def test_a_workload_parses():
    found = parse('duration = 5\nseed = 3\ntables = ["CREATE TABLE T PRIMARY KEY (pk STRING HASH)"]\n'
                  '[[data]]\ntable = "T"\ncount = 10\nitem = { pk = { sequence = "k{}" } }\n' + PATTERN, "w.toml")
    assert (found.duration, found.seed, len(found.tables), len(found.seeds), len(found.patterns)) == (5.0, 3, 1, 1, 1)
    assert found.patterns[0].name == "pattern[0]"


@pytest.mark.parametrize("text, message", [
    ("duration = ", "w.toml: not TOML: "),
    ("a = " + "[" * 5_000 + "1" + "]" * 5_000, "w.toml: not a workload: arrays or tables nested too deeply to read"),
    ("a = " + "{ b = " * 5_000 + "1" + " }" * 5_000, "w.toml: not a workload: arrays or tables nested too deeply"),
    ("durations = 5\n" + PATTERN, "w.toml: unknown setting durations (it takes duration, seed, tables"),
    ("duration = 0\n" + PATTERN, "w.toml: duration takes seconds from 1 to 604,800 (a week), not 0"),
    ("duration = 700000\n" + PATTERN, "w.toml: duration takes seconds from 1 to 604,800 (a week), not 700000"),
    ('seed = "x"\n' + PATTERN, "w.toml: seed takes a whole number, not 'x'"),
    ("tables = [1]\n" + PATTERN, "w.toml: tables takes a list of CREATE TABLE statements"),
    ("duration = 5", "w.toml: no [[pattern]]: a workload needs at least one access pattern"),
    ('[[pattern]]\nstatement = "S"\n', "w.toml: pattern[0] needs rate"),
    ('[[pattern]]\nstatement = "S"\nrate = 1\nspeed = 2\n', "w.toml: pattern[0]: unknown speed"),
    ('[[pattern]]\nstatement = "S"\nrate = -1\n', "w.toml: pattern[0].rate takes a number from 0 to 1,000,000, not -1"),
    ('[[pattern]]\nstatement = "S"\nrate = { ramp = [1] }\n', "w.toml: pattern[0].rate.ramp takes [from, to]"),
    ('[[pattern]]\nstatement = "S"\nrate = { burst = 1 }\n', "w.toml: pattern[0].rate takes requests a second"),
    ('[[pattern]]\nstatement = "S"\nrate = 1\nparams = [{ zipf = 0 }]\n',
     "w.toml: pattern[0].params[0].zipf takes a whole number >= 1, not 0"),
    ('[[pattern]]\nstatement = "S"\nrate = 1\nparams = [{ gauss = 1 }]\n',
     "w.toml: pattern[0].params[0] names no generator: one of constant, sequence"),
    ('[[pattern]]\nstatement = "S"\nrate = 1\nparams = [{ uniform = 3, zipf = 3 }]\n',
     "w.toml: pattern[0].params[0] names more than one generator"),
    ('[[pattern]]\nstatement = "S"\nrate = 1\nparams = [{ uniform = 3, s = 2 }]\n',
     "w.toml: pattern[0].params[0]: uniform takes prefix, not s"),
    ('[[pattern]]\nstatement = "S"\nrate = 1\nparams = [{ choice = ["a", "b"], weights = [1] }]\n',
     "w.toml: pattern[0].params[0].weights takes one weight (a finite number >= 0) per value"),
    ('[[pattern]]\nstatement = "S"\nrate = 1\nparams = [{ sequence = "x" }]\n',
     "w.toml: pattern[0].params[0].sequence takes a template with one {}"),
    ('[[pattern]]\nstatement = "S"\nrate = 1\nparams = [{ sequence = "{}{}" }]\n',
     "w.toml: pattern[0].params[0].sequence takes a template with one {}"),
    ('[[pattern]]\nstatement = "S"\nrate = 1\nparams = [{ format = "{x}", args = [] }]\n',
     "w.toml: pattern[0].params[0].format takes a template with one {} per arg: '{x}' does not take 0"),
    ('[[pattern]]\nstatement = "S"\nrate = 1\nparams = [{ item = "T" }]\n',
     'w.toml: pattern[0].params[0].item takes "Table.attribute"'),
    ('[[data]]\ntable = "T"\ncount = -1\nitem = { a = 1 }\n' + PATTERN,
     "w.toml: data[0].count takes a whole number from 0 to 10,000,000"),
    ('[[pattern]]\nname = "a"\nstatement = "S"\nrate = 1\n[[pattern]]\nname = "a"\nstatement = "S"\nrate = 1\n',
     "w.toml: two patterns are named a"),
    (PATTERN + '[[design]]\ntables = []\n', "w.toml: design[0] needs name"),
    (PATTERN + '[[design]]\nname = "b"\n[[design.pattern]]\nname = "nope"\n',
     "w.toml: design[0].pattern[0]: no pattern is named 'nope' (pattern[0])"),
    (PATTERN + '[[design]]\nname = "b"\n[[design.pattern]]\nname = "pattern[0]"\nlimit = 0\n',
     "w.toml: design[0].pattern[0].limit takes a whole number of items >= 1"),
    (PATTERN + '[prices]\nread = 1\n', "w.toml: prices needs write"),
    (PATTERN + '[prices]\nread = 1\nwrite = -1\n', "w.toml: prices.write takes dollars per million"),
    ('[[pattern]]\nstatement = "S"\nrate = 1\nall_pages = 1\n', "w.toml: pattern[0].all_pages takes true or false"),
    # hostile numbers and values (issue 39): each a clear error with its place, never a traceback or a run
    # that cannot end
    *[(f'[[pattern]]\nstatement = "S"\nrate = 1\nparams = [{{ choice = ["a", "b"], weights = [{w}, 1] }}]\n',
       "w.toml: pattern[0].params[0].weights takes one weight (a finite number >= 0) per value")
      for w in ("inf", "nan", "-inf")],
    *[(f'[[pattern]]\nstatement = "S"\nrate = {rate}\n', "w.toml: pattern[0].rate takes a number from 0 to 1,000,000")
      for rate in ("inf", "nan", "1e308", "1000001")],
    ('[[pattern]]\nstatement = "S"\nrate = { ramp = [1, inf] }\n', "w.toml: pattern[0].rate.ramp takes a number"),
    ('[[pattern]]\nstatement = "S"\nrate = { base = 1, spike = 2, every = nan, for = 1 }\n',
     "w.toml: pattern[0].rate.every takes a number"),
    *[(f'[[pattern]]\nstatement = "S"\nrate = 1\nparams = [{value}]\n',
       f"w.toml: pattern[0].params[0]: a TOML {kind} ({shown}) is not a value a statement takes")
      for value, kind, shown in (("1979-05-27T07:32:00Z", "datetime", "1979-05-27T07:32:00+00:00"),
                                 ("1979-05-27T07:32:00", "datetime", "1979-05-27T07:32:00"),
                                 ("1979-05-27", "date", "1979-05-27"), ("07:32:00", "time", "07:32:00"))],
    *[(f'[[pattern]]\nstatement = "S"\nrate = 1\nparams = [{value}]\n', f"w.toml: {where}: {shown} is not a number")
      for value, where, shown in (("inf", "pattern[0].params[0]", "inf"), ("nan", "pattern[0].params[0]", "nan"),
                                  ("[1, -inf]", "pattern[0].params[0][1]", "-inf"),
                                  ("{ constant = { a = nan } }", "pattern[0].params[0].constant.a", "nan"),
                                  ('{ uniform = [1, inf] }', "pattern[0].params[0].uniform[1]", "inf"))],
    ('[[data]]\ntable = "T"\ncount = 1\nitem = { a = 1979-05-27 }\n' + PATTERN,
     "w.toml: data[0].item.a: a TOML date (1979-05-27) is not a value"),
    ('[[pattern]]\nstatement = "S"\nrate = 1\nparams = [{ zipf = 5, s = inf }]\n',
     "w.toml: pattern[0].params[0].s takes an exponent from 0 to 100, not inf"),
    ('[[pattern]]\nstatement = "S"\nrate = 1\nparams = [{ string = 1000000000 }]\n',
     "w.toml: pattern[0].params[0].string takes a whole number from 0 to 409,600"),
    ('[[data]]\ntable = "T"\ncount = 1000000000000\nitem = { a = 1 }\n' + PATTERN,
     "w.toml: data[0].count takes a whole number from 0 to 10,000,000, not 1000000000000"),
    (PATTERN + '[prices]\nread = nan\nwrite = 1\n', "w.toml: prices.read takes dollars per million request units >= 0, not nan"),
    ('[[pattern]]\nstatement = "S"\nrate = 1\nparams = [{ format = "{}-{}", args = [1] }]\n',
     "w.toml: pattern[0].params[0].format takes a template with one {} per arg: '{}-{}' does not take 1"),
])
def test_every_mistake_is_named_with_its_place(text, message):
    with pytest.raises(WorkloadError) as raised:
        parse(text, "w.toml")
    assert str(raised.value).startswith(message), str(raised.value)
