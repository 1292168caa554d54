"""Issue 37 point 6: runs of hours and days. A run longer than an hour aggregates its steady seconds (each the
charge of a recent replayed second, through the same admission arithmetic) and replays the rest request by
request; ``--exact`` replays all. The two must give the same throttles — checked here on runs where both are
run — and the month's cost must cover the whole run, not the throughput metrics' last hour (checked against a
plain model of the units each request consumes)."""

from __future__ import annotations

import pytest

from partiql.simulate import parse, report, simulate
from shell import simulate as command

SPIKY = """duration = 3700
seed = 3
tables = ["CREATE TABLE Orders PRIMARY KEY (pk STRING HASH) BILLING MODE PROVISIONED (20 RCU, 10 WCU)"]
[[data]]
table = "Orders"
count = 100
item = {{ pk = {{ sequence = "seed#{{}}" }}, body = {{ string = 500 }} }}
[[pattern]]
name = "write"
statement = "INSERT INTO Orders VALUE {{'pk': ?, 'body': ?}}"
params = [{{ sequence = "o#{{}}" }}, {{ string = 600 }}]
rate = {{ base = 5, spike = 50, every = 3600, for = 300, at = 1800 }}
[[pattern]]
name = "read"
statement = "SELECT * FROM Orders WHERE pk = ?"
params = [{{ item = "Orders.pk" }}]
rate = 6
{scaling}
"""
SCALING = """[[autoscaling]]
table = "Orders"
dimension = "write"
min = 10
max = 200
target = 70
"""


@pytest.mark.parametrize("scaling", ["", SCALING], ids=["fixed", "auto-scaled"])
def test_aggregated_seconds_give_the_throttles_of_per_request_replay(scaling):
    workload = parse(SPIKY.format(scaling=scaling), "w.toml")
    aggregated, exact = simulate(workload), simulate(workload, exact=True)
    assert exact.aggregated == 0 and aggregated.aggregated > 0.9 * 3700
    fast, slow = report(aggregated), report(exact)
    for mine, theirs in zip(fast["patterns"], slow["patterns"]):
        assert (mine["requested"], mine["served"], mine["throttled"], mine["reasons"]) == \
            (theirs["requested"], theirs["served"], theirs["throttled"], theirs["reasons"])
        assert mine["per_second"] == theirs["per_second"] and mine["consumed"] == pytest.approx(theirs["consumed"])
    assert fast["patterns"][0]["throttled"] > 0  # (the spike throttles: the comparison is not of zeros)
    steps = [[(s["issued"], s["in_effect"], s["units"]) for s in t["timeline"]] for t in fast["autoscaling"]]
    assert steps == [[(s["issued"], s["in_effect"], s["units"]) for s in t["timeline"]] for t in slow["autoscaling"]]
    if scaling:
        assert len(steps[0]) >= 3  # (it scaled out for the spike and back in)
    for mine, theirs in zip(fast["resources"], slow["resources"]):
        assert [value for row in mine["per_minute"] for value in row] == pytest.approx(
            [value for row in theirs["per_minute"] for value in row])


STEADY = """duration = {duration}
tables = ["CREATE TABLE Items PRIMARY KEY (pk STRING HASH) BILLING MODE ON DEMAND"]
[[data]]
table = "Items"
count = 1000
item = {{ pk = {{ sequence = "k#{{}}" }}, body = {{ string = 200 }} }}
[[pattern]]
name = "read"
statement = "SELECT * FROM Items WHERE pk = ?"
params = [{{ item = "Items.pk" }}]
rate = 700
[[pattern]]
name = "write"
statement = "INSERT INTO Items VALUE {{'pk': ?, 'body': ?}}"
params = [{{ sequence = "new#{{}}" }}, {{ string = 200 }}]
rate = 300
"""


def test_hours_at_a_thousand_requests_a_second_are_priced_whole():
    """3 hours at 1,000 requests/s (10.8 M requests): the model — 700 eventually consistent reads of ~210-byte
    items (0.5 RRU) and 300 writes of ~220 bytes (1 WRU) a second — prices the month at 350 RRU/s and
    300 WRU/s; the report's on-demand reads and writes must be exactly that, from every minute of the run."""
    found = report(simulate(parse(STEADY.format(duration=3 * 3600), "w.toml")))
    assert found["requests"] == 10_800_000 and found["aggregated_seconds"] > 0.99 * 3 * 3600
    assert all(p["served"] == p["requested"] for p in found["patterns"])
    parts = found["cost"]["tables"][0]["modes"]["on_demand"]
    month = 730 * 3600
    assert parts["reads"] == round(month * 350 * 0.125 / 1e6, 2) and parts["writes"] == round(month * 300 * 0.625
                                                                                                / 1e6, 2)
    (items,) = found["resources"]
    assert len(items["per_minute"]) == 180 and sum(minute[1] for minute in items["per_minute"]) == 300 * 3 * 3600


def test_the_cli_says_what_was_aggregated_and_exact_replays_all(tmp_path, capsys):
    path = tmp_path / "w.toml"
    path.write_text(STEADY.format(duration=3700).replace("rate = 700", "rate = 7").replace("rate = 300", "rate = 3"))
    assert command.main([str(path)]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert "s aggregated (steady seconds charged at once; the rest replayed request by request, --exact for all)" \
        in head
    assert command.main([str(path), "--exact"]) == 0
    assert "aggregated" not in capsys.readouterr().out.splitlines()[0]


def test_an_hour_or_less_is_replayed_request_by_request():
    found = report(simulate(parse(STEADY.format(duration=3600).replace("rate = 700", "rate = 2")
                                  .replace("rate = 300", "rate = 1"), "w.toml")))
    assert found["aggregated_seconds"] == 0
