"""Issue 37 point 5: reports people read — a verdict first (what was served, where and why it throttled and the
fix, undeclared Scans, the month's cost), a throttle strip that stays one line on long runs, counts as
integers."""

from __future__ import annotations

import re

import pytest

from partiql.simulate import parse, report, simulate
from shell.simulate import STRIP, render

THIN = """duration = {duration}
tables = ["CREATE TABLE Thin PRIMARY KEY (pk STRING HASH) BILLING MODE PROVISIONED (1 RCU, 1 WCU)"]
[[pattern]]
name = "writes"
statement = "INSERT INTO Thin VALUE {{'pk': ?}}"
params = [{{ sequence = "k#{{}}" }}]
rate = 50
"""


@pytest.mark.parametrize("duration, columns, label", [(30, 30, "a column a second"), (600, 60, "a column per 10 s"),
                                                      (599, 60, "a column per 10 s"), (61, 31, "a column per 2 s")])
def test_the_throttle_strip_stays_one_line_on_long_runs(duration, columns, label):
    outcome = simulate(parse(THIN.format(duration=duration), "w.toml"))
    found = report(outcome)
    (line,) = [line for line in render(found, outcome, 1.0).splitlines() if "throttled share" in line]
    strip = re.search(r"\|(.*)\|", line).group(1)
    assert len(strip) == columns <= STRIP and label in line
    assert strip.strip() and strip[-1] != " "  # (burst spent early: the last columns throttle)


def test_the_verdict_says_what_was_served_where_it_throttled_the_fix_and_the_cost():
    found = report(simulate(parse(THIN.format(duration=60), "w.toml")))
    (writes,) = found["patterns"]
    verdict = found["verdict"]
    share = writes["served"] / writes["requested"]
    assert verdict.startswith(f"Serves {share:.0%} of 3,000 requests: {writes['throttled']:,} throttled")
    assert ("Most throttles are on Thin (TableWriteProvisionedThroughputExceeded); the fix: raise it (UpdateTable) "
            "or switch to on-demand.") in verdict
    assert verdict.endswith(f"Costs ${found['cost']['ran']:,.2f} a month at this rate (provisioned, "
                            f"${found['cost']['per_million_served']:,.2f} per million served requests).")


def test_a_design_that_serves_everything_says_so_and_names_an_undeclared_scan():
    text = THIN.format(duration=5).replace("(1 RCU, 1 WCU)", "(100 RCU, 100 WCU)") + """
[[pattern]]
name = "everything"
statement = "SELECT * FROM Thin"
rate = 1
"""
    found = report(simulate(parse(text, "w.toml")))
    assert found["verdict"].startswith("Serves all 255 requests. everything is a full Scan, not declared. Costs $")


def test_an_auto_scaled_target_is_drawn_minute_by_minute_in_both_reports():
    from partiql.simulate.html import page

    text = THIN.format(duration=600) + ('[[autoscaling]]\ntable = "Thin"\ndimension = "write"\nmin = 1\nmax = 100\n'
                                        'target = 70\n')
    outcome = simulate(parse(text, "w.toml"))
    found = report(outcome)
    (line,) = [line for line in render(found, outcome, 1.0).splitlines() if "consumed / capacity" in line]
    strip = re.search(r"\|(.*)\|", line).group(1)
    assert len(strip) == 10 and "a column a minute" in line and "!" in strip  # (50 writes/s on 1 WCU: past it)
    assert strip[-1] != "!"  # (scaled out by the end)
    html = page(found)
    assert "units a second (a point a minute)" in html and "10 min" in html
