"""Issue 37 point 2: auto scaling on the virtual clock, the worked cases of design-time.md §1.4.

The controller is a function of per-minute datapoints, so cases 1, 3 and 4 drive it directly (over hours of
synthetic minutes); case 2 runs end to end through the engine, the workload file and the report."""

from __future__ import annotations

import math

import pytest

from partiql.simulate import WorkloadError, parse, report, simulate
from partiql.simulate.autoscaling import DELAY, LAG, Policy, Target, decrease_allowed, thresholds


def _drive(target: Target, demand, minutes: int) -> list:
    """Run ``target`` over ``minutes``: each minute's datapoint is ``demand(minute, P)``; changes take effect on
    time. The (issued, in effect, units, cause) of each change."""
    for minute in range(minutes):
        now = 60 * minute + LAG
        if target.pending is not None and target.pending.effective <= now:
            target.take_effect()
        if minute:
            target.points[minute - 1] = demand(minute - 1, target.units)
        if target.pending is None:
            target.evaluate(now)
    return target.timeline[1:]


@pytest.mark.parametrize("units, target, expected", [(5, 70, (210, 150)), (1, 70, (42, 30)), (100, 50, (3000, 1800))])
def test_case_1_the_alarm_thresholds(units, target, expected):
    assert thresholds(units, target) == pytest.approx(expected)


def test_case_3_the_day_s_decrease_quota():
    issued, granted = [], []
    for tenth in range(1, 24 * 6):  # every 10 minutes from 00:10
        now = 600 * tenth
        if decrease_allowed(issued, now):
            issued.append(now)
            granted.append(f"{now // 3600:02d}:{now % 3600 // 60:02d}")
    assert granted[:5] == ["00:10", "00:20", "00:30", "00:40", "01:40"]
    assert granted[5:] == [f"{hour:02d}:40" for hour in range(2, 24)] and len(granted) == 27
    assert decrease_allowed(issued, 86_400 + 600)  # (a new UTC day)


def test_case_3_through_the_alarms_a_steady_fall_scales_in_18_minutes_apart_then_hourly():
    target = Target("T write", Policy(1, 40_000, 70), 40_000)
    falling = lambda minute, units: 0.4 * 40_000 * 60 * 0.5 ** (minute / 18)  # noqa: E731
    changes = _drive(target, falling, 4 * 60)
    issued = [f"{int(t) // 3600:02d}:{int(t) % 3600 // 60:02d}" for t, _, _, cause in changes if cause == "scale-in"]
    assert issued[:6] == ["00:16", "00:34", "00:52", "01:10", "02:10", "03:10"]
    assert all(effect == t + DELAY for t, effect, _, _ in changes)
    assert target.refused  # (the scale-ins the quota held back between 01:28 and 02:10)


def test_case_4_throttled_demand_at_most_doubles_capacity_a_step():
    target = Target("T write", Policy(1, 40_000, 50), 100)
    served = lambda minute, units: min(10_000, units) * 60  # noqa: E731  (no burst left: at most P a second)
    changes = _drive(target, served, 40)
    assert [units for _, _, units, _ in changes][:4] == [200, 400, 800, 1600]


def test_a_capacity_outside_the_policy_is_set_into_range_at_once():
    assert Target("T read", Policy(10, 20, 70), 5).units == 10
    assert Target("T read", Policy(10, 20, 70), 50).timeline == [(0.0, 0.0, 20, "min/max")]


STEP = """duration = 3600
seed = 1
tables = ["CREATE TABLE Orders PRIMARY KEY (pk STRING HASH) BILLING MODE PROVISIONED (5 RCU, 143 WCU)"]

[[pattern]]
name = "orders"
statement = "INSERT INTO Orders VALUE {'pk': ?, 'body': ?}"
params = [{ sequence = "order#{}" }, "a body"]  # (each write 1 WCU, as a 1-KB item's)
rate = { base = 100, spike = 600, every = 3600, for = 1200, at = 1200 }

[[autoscaling]]
table = "Orders"
dimension = "write"
min = 100
max = 2000
target = 70
"""


def test_case_2_a_step_up_end_to_end():
    """100 writes/s, 600 from minute 20 to 40, then 100: two scale-outs a step late, one scale-in."""
    outcome = simulate(parse(STEP, "step.toml"), exact=False)  # (aggregated: the same throttles, test_long_runs.py)
    found = report(outcome)
    (scaled,) = found["autoscaling"]
    steps = [(step["issued"], step["in_effect"], step["units"], step["cause"]) for step in scaled["timeline"]]
    # (the spec's 570 is ⌈(≈23,917 / 60) ÷ 0.7⌉: minute 21's writes, burst until ≈1,294 s, "≈" in its arithmetic;
    # the engine's bucket serves a few seconds of burst more or less, so 569 to 575)
    assert steps[0] == (0.0, 0.0, 143, "start") and steps[1][:2] == (1380.0, 1500.0) and 569 <= steps[1][2] <= 575
    assert steps[2:] == [(1680.0, 1800.0, 858, "scale-out"), (3360.0, 3480.0, 143, "scale-in")]
    mean = (143 * 1500 + steps[1][2] * 300 + 858 * 1680 + 143 * 120) / 3600  # (512.25 at 570)
    assert scaled["mean_units"] == pytest.approx(mean, abs=0.01) and scaled["max_units"] == 858
    per_minute = {minute: (units, consumed) for minute, units, consumed in scaled["per_minute"]}
    assert per_minute[19] == (143, 6000.0) and per_minute[20] == (143, 36000.0)  # (burst serves the step's first minute)
    assert per_minute[25] == (steps[1][2], 36000.0) and per_minute[45] == (858, 6000.0)
    (orders,) = found["patterns"]
    assert orders["requested"] == 960_000
    throttled_at = [second for second, row in enumerate(orders["per_second"]) if row[2]]
    assert 1280 <= throttled_at[0] <= 1300 and throttled_at[-1] < 1500  # (burst, then throttles until 1,500)
    assert math.isclose(orders["throttled"], 94_200, rel_tol=0.05)
    # design-time.md §2.6 case 3 (the same hour, repeated all month; its writes)
    writes = {mode: parts["writes"] for mode, parts in found["cost"]["tables"][0]["modes"].items()}
    assert writes["autoscaled"] == round(mean * 0.00065 * 730, 2)  # ($243.06 at the spec's 570)
    assert (writes["autoscaled_bound"], writes["on_demand"], writes["provisioned"]) == (407.12, 438.00, 67.85)
    # the throttles before the first scale-out's capacity arrived, said as the lesson
    assert scaled["timeline"][1]["throttled_before"] == sum(row[2] for row in orders["per_second"][:1500])
    assert any("requests throttled before new capacity arrived (the first asked at 1,380 s, in effect at 1,500 s)"
               in text for text in found["advice"])


@pytest.mark.parametrize("entry, words", [
    ('table = "Orders"\ndimension = "up"\nmin = 1\nmax = 2\ntarget = 70', "dimension takes read or write"),
    ('table = "Orders"\ndimension = "read"\nmin = 5\nmax = 2\ntarget = 70', "1 <= min <= max"),
    ('table = "Orders"\ndimension = "read"\nmin = 1\nmax = 2\ntarget = 95', "target takes 20 to 90"),
    ('table = "Orders"\ndimension = "read"\nmin = 1\nmax = 2', "needs target"),
    ('table = "Nope"\ndimension = "read"\nmin = 1\nmax = 2\ntarget = 70', "autoscaling of Nope: no table Nope"),
    ('table = "Demand"\ndimension = "read"\nmin = 1\nmax = 2\ntarget = 70', "it is on demand"),
])
def test_a_policy_that_cannot_be_is_named_with_its_place(entry, words):
    text = ('duration = 2\ntables = ["CREATE TABLE Orders PRIMARY KEY (pk STRING HASH) BILLING MODE PROVISIONED '
            '(5 RCU, 5 WCU)", "CREATE TABLE Demand PRIMARY KEY (pk STRING HASH)"]\n[[pattern]]\n'
            'statement = "SELECT * FROM Orders WHERE pk = ?"\nparams = ["a"]\nrate = 1\n[[autoscaling]]\n' + entry)
    with pytest.raises(WorkloadError, match=words):
        simulate(parse(text, "w.toml"))


GSI_APART = """duration = 900
tables = [\"\"\"CREATE TABLE Orders PRIMARY KEY (pk STRING HASH) BILLING MODE PROVISIONED (100 RCU, 100 WCU)
             GSI (ByStatus ON (status STRING HASH) PROJECTING KEYS ONLY PROVISIONED (100 RCU, 10 WCU))\"\"\"]

[[pattern]]
name = "orders"
statement = "INSERT INTO Orders VALUE {'pk': ?, 'status': 'open'}"
params = [{ sequence = "order#{}" }]
rate = 50
"""


def test_case_5_a_hot_gsi_scales_apart_and_back_pressures_until_its_change():
    policy = 'dimension = "write"\nmin = 10\nmax = 1000\ntarget = 70\n'
    text = (GSI_APART + f'[[autoscaling]]\ntable = "Orders"\n{policy}'
            + f'[[autoscaling]]\ntable = "Orders"\nindex = "ByStatus"\n{policy}')
    found = report(simulate(parse(text, "w.toml")))
    table, index = found["autoscaling"]
    assert (table["target"], index["target"]) == ("Orders write", "Orders.ByStatus write")
    assert len(table["timeline"]) == 1  # (50 WCU/s of 100: the table never scales)
    changes = index["timeline"][1:]
    assert changes and all(step["cause"] == "scale-out" for step in changes)
    (orders,) = found["patterns"]
    assert set(orders["reasons"]) == {"IndexWriteProvisionedThroughputExceeded"}  # (the table's writes, the GSI's reason)
    enough = next(step["in_effect"] for step in changes if step["units"] >= 50)
    throttled = [second for second, row in enumerate(orders["per_second"]) if row[2]]
    assert throttled and throttled[-1] < enough
