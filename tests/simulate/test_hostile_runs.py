"""Workloads a user can write that once ended in a traceback or never ended (issue 39): huge ranges are
drawn lazily, extreme weights scale, names with terminal escapes are shown escaped, Ctrl-C while seeding
is a clear message."""

from __future__ import annotations

import collections
import math
import random
import signal
import subprocess
import sys
import time

import pytest

from partiql.shell.simulate import render
from partiql.simulate import generators, parse, report, simulate


def _run(param: str, name: str = "count", rate: int = 20) -> dict:
    text = f"""
duration = 2
seed = 3
tables = ["CREATE TABLE Counters PRIMARY KEY (Name STRING HASH) BILLING MODE ON DEMAND"]
[[pattern]]
name = "{name}"
statement = "INSERT INTO Counters VALUE {{'Name': ?}}"
params = [{param}]
rate = {rate}
"""
    outcome = simulate(parse(text, "w.toml"))
    return outcome, report(outcome)


@pytest.mark.parametrize("param, bound", [
    ('{ zipf = 1000000000, prefix = "u" }', 10**9), ('{ uniform = 1000000000000, prefix = "u" }', 10**12),
    ('{ zipf = 1000000000000, s = 0, prefix = "u" }', 10**12)], ids=["zipf 10**9", "uniform 10**12", "zipf 10**12, s = 0"])
def test_huge_ranges_are_drawn_as_they_are_used(param, bound):
    outcome, found = _run(param)
    pattern = found["patterns"][0]
    assert pattern["requested"] == 40 and set(pattern["errors"]) <= {"DuplicateItemException"}
    names = [item["Name"] for item in outcome.db.execute("SELECT Name FROM Counters").items]
    assert names and all(0 <= int(str(name).lstrip("u")) < bound for name in names)


@pytest.mark.parametrize("s", [0.5, 1.0, 1.2, 2.0])
def test_the_lazy_zipf_draws_what_the_table_of_weights_draws(s):
    """Against the exact probabilities 1/k**s over 40 ranks: a chi-square test at 30,000 draws."""
    count, draws = 40, 30_000
    lazy, rng = generators.Zipf(count, s, None), random.Random(7)
    seen = collections.Counter(lazy.rank(rng) for _ in range(draws))
    weights = [1 / math.pow(k, s) for k in range(1, count + 1)]
    total = sum(weights)
    chi2 = sum((seen[k] - draws * w / total) ** 2 / (draws * w / total) for k, w in enumerate(weights))
    assert set(seen) <= set(range(count)) and chi2 < 80  # (39 degrees of freedom: p ≈ 1e-4 at 80)


def test_weights_near_the_largest_float_are_scaled_not_summed_to_infinity():
    outcome, found = _run('{ choice = ["a", "b"], weights = [1e308, 1e308] }', rate=50)
    names = {item["Name"] for item in outcome.db.execute("SELECT Name FROM Counters").items}
    assert set(found["patterns"][0]["errors"]) == {"DuplicateItemException"} and names == {"a", "b"}


def test_names_and_keys_with_terminal_escapes_are_shown_escaped_in_the_report():
    outcome, found = _run('"k\\u001b]0;pwned\\u0007"', name="evil\\u001b[2J")
    text = render(found, outcome, 1.0)
    assert "\x1b" not in text and "\x07" not in text
    assert "evil\\x1b[2J" in text and "k\\x1b]0;pwned\\x07" in text


def test_ctrl_c_while_seeding_is_a_clear_message(tmp_path):
    workload = tmp_path / "big.toml"
    workload.write_text("""
duration = 5
tables = ["CREATE TABLE Big PRIMARY KEY (k NUMBER HASH) BILLING MODE ON DEMAND"]
[[data]]
table = "Big"
count = 10000000
item = { k = { sequence = true }, body = { string = 100 } }
[[pattern]]
statement = "SELECT * FROM Big WHERE k = 1"
rate = 1
""")
    process = subprocess.Popen([sys.executable, "-m", "partiql.shell", "simulate", str(workload)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(3)  # (imports, then seeding: ten million items take minutes)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130 and "Traceback" not in err
    assert "interrupted while building and seeding the tables; no traffic ran" in err
