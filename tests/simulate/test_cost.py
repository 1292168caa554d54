"""Issue 37 point 3: the monthly cost of a design at the simulated rate — the worked examples of
design-time.md §2.6 to the cent (each figure is the spec's own arithmetic on AWS's published prices), the
switches of §2.5 and their errors, and the run-length invariance the month's arithmetic rests on.

Case 3 (an auto-scaled hour) is asserted in test_autoscaling.py's case 2, on the same run."""

from __future__ import annotations

import json

import pytest

from partiql.simulate import WorkloadError, parse, report, simulate
from partiql.simulate.prices import price

STEADY = """duration = {duration}
tables = [\"\"\"CREATE TABLE Orders PRIMARY KEY (pk STRING HASH) BILLING MODE ON DEMAND
             GSI (ByStatus ON (status STRING HASH) PROJECTING KEYS ONLY)\"\"\"]

[[data]]                    # items of about 4 KB: an eventually consistent read is 0.5 RRU
table = "Orders"
count = 100
item = {{ pk = {{ sequence = "seed#{{}}" }}, body = {{ string = 3900 }} }}

[[pattern]]                 # items of about 1,000 bytes: 1 WRU, and one KEYS_ONLY GSI entry: 1 WRU
name = "put"
statement = "INSERT INTO Orders VALUE {{'pk': ?, 'status': 'open', 'body': ?}}"
params = [{{ sequence = "order#{{}}" }}, {{ string = 960 }}]
rate = 100

[[pattern]]
name = "read"
statement = "SELECT * FROM Orders WHERE pk = ?"
params = [{{ item = "Orders.pk" }}]
rate = 400

[cost]
{cost}
[cost.table.Orders]         # 10 M items of 1,000 bytes held; the GSI's entries 60 bytes
items = 10_000_000
item_bytes = 1000
[cost.table.Orders.index.ByStatus]
items = 10_000_000
item_bytes = 60
"""


def _cost(text: str) -> dict:
    return report(simulate(parse(text, "w.toml")))


def _steady(cost: str = "", duration: int = 10) -> dict:
    return _cost(STEADY.format(duration=duration, cost=cost))


def test_case_1_a_steady_table_with_a_gsi():
    found = _steady()
    cost = found["cost"]
    (orders,) = cost["tables"]
    assert orders["storage_gb"] == 11.735 and [r["storage_gb"] for r in orders["resources"]] == [10.245, 1.49]
    on_demand = orders["modes"]["on_demand"]
    assert (on_demand["writes"], on_demand["index_writes"], on_demand["reads"], on_demand["storage"]) == \
        (328.50, 164.25, 65.70, 2.93)
    assert cost["modes"]["on_demand"] == cost["ran"] == 397.13
    # provisioned at target 70: the table 143 WCU + 286 RCU, the GSI 143 WCU + 1 RCU
    assert [r["provisioned"] for r in orders["resources"]] == [[286, 143], [1, 143]]
    provisioned = orders["modes"]["provisioned"]
    assert (provisioned["writes"], provisioned["reads"], provisioned["storage"]) == (135.71, 27.24, 2.93)
    assert cost["modes"]["provisioned"] == 165.88 and cost["modes"]["autoscaled"] is None
    assert orders["classes"]["STANDARD_INFREQUENT_ACCESS"]["on_demand"] == 492.61
    assert orders["classes"]["STANDARD_INFREQUENT_ACCESS"]["provisioned"] == 203.81
    # storage is under 1 % of throughput: Standard stays (no class advice), and provisioned is advised
    assert orders["class_figures"]["storage_over_throughput"] < 0.01
    assert not any("Standard-IA would cost" in text for text in found["advice"])
    assert any(text.startswith("provisioned would cost $165.88 a month against $397.13 as it ran (on demand")
               and "under 41 % of the peak" in text for text in found["advice"])
    # every request served: a million of them cost the month over the month's requests
    assert cost["per_million_served"] == pytest.approx(397.13 / (500 * 2_628_000) * 1e6, abs=1e-4)


def test_case_1_in_eu_west_1_and_in_standard_ia():
    assert _steady('region = "eu-west-1"')["cost"]["modes"]["on_demand"] == 448.24
    infrequent = _steady('table_class = "STANDARD_INFREQUENT_ACCESS"')["cost"]
    assert (infrequent["modes"]["on_demand"], infrequent["modes"]["provisioned"]) == (492.61, 203.81)
    assert any(text.startswith("Orders: Standard would cost $397.13 a month instead of $492.61 on demand")
               for text in infrequent["advice"])


def test_the_month_does_not_depend_on_how_long_a_steady_run_is():
    """The run is taken to repeat all month: 5 s and 20 s of the same steady traffic cost the same."""
    short, long = (_steady(duration=seconds)["cost"] for seconds in (5, 20))
    assert short["modes"] == long["modes"] and short["repeat"] == 4 * long["repeat"]


def test_the_free_tier_is_taken_off_once():
    plain, free = (_steady(cost)["cost"] for cost in ("", "free_tier = true"))
    us = price("us-east-1")
    storage = 11.735 * us.storage  # (under 25 GB: all of it)
    assert free["modes"]["on_demand"] == pytest.approx(plain["modes"]["on_demand"] - storage, abs=0.01)
    taken = storage + 730 * 25 * (us.rcu_hour + us.wcu_hour)
    assert free["modes"]["provisioned"] == pytest.approx(plain["modes"]["provisioned"] - taken, abs=0.01)


ARCHIVE = """duration = 10
tables = ["CREATE TABLE Archive PRIMARY KEY (pk STRING HASH) BILLING MODE ON DEMAND"]

[[data]]
table = "Archive"
count = 100
item = {{ pk = {{ sequence = "seed#{{}}" }}, body = {{ string = 900 }} }}

[[pattern]]
name = "archive"
statement = "INSERT INTO Archive VALUE {{'pk': ?, 'body': ?}}"
params = [{{ sequence = "new#{{}}" }}, {{ string = 1000 }}]
rate = 5

[[pattern]]
name = "look back"
statement = "SELECT * FROM Archive WHERE pk = ?"
params = [{{ item = "Archive.pk" }}]
rate = 20

[cost]
{cost}
[cost.table.Archive]        # 2,048 GB held: 2^31 items of 924 bytes (+ 100 billed each)
items = 2_147_483_648
item_bytes = 924
"""


@pytest.mark.parametrize("region, standard, infrequent", [("us-east-1", 523.50, 219.12),
                                                           ("ap-northeast-1", 596.82, 249.84)])
def test_case_2_an_archive_belongs_in_standard_ia(region, standard, infrequent):
    found = _cost(ARCHIVE.format(cost=f'region = "{region}"'))
    (archive,) = found["cost"]["tables"]
    assert archive["storage_gb"] == 2048
    assert archive["classes"]["STANDARD"]["on_demand"] == standard == found["cost"]["ran"]
    assert archive["classes"]["STANDARD_INFREQUENT_ACCESS"]["on_demand"] == infrequent
    if region == "us-east-1":
        parts = archive["modes"]["on_demand"]
        assert (parts["storage"], parts["writes"], parts["reads"]) == (512.00, 8.21, 3.29)
        assert archive["class_figures"]["storage_over_throughput"] == pytest.approx(44.5, abs=0.05)
        assert archive["class_figures"]["break_even"] == pytest.approx(0.41, abs=0.01)
    (advice,) = [text for text in found["advice"] if text.startswith("Archive: Standard-IA would cost")]
    assert f"${infrequent:,.2f} a month instead of ${standard:,.2f} on demand" in advice
    assert "twice in 30 days" in advice and "reserved capacity" in advice


def test_the_comparison_shows_each_design_s_month_and_cost_per_served_request():
    from partiql.simulate import compare, comparison

    text = STEADY.format(duration=5, cost="") + """
[[design]]
name = "provisioned"
tables = [\"\"\"CREATE TABLE Orders PRIMARY KEY (pk STRING HASH) BILLING MODE PROVISIONED (300 RCU, 150 WCU)
             GSI (ByStatus ON (status STRING HASH) PROJECTING KEYS ONLY PROVISIONED (1 RCU, 150 WCU))\"\"\"]
"""
    workload = parse(text, "w.toml")
    rows = comparison(compare(workload, workload.designs))["comparison"]
    provisioned = rows[0]
    assert provisioned["monthly"] == round((301 * 0.00013 + 300 * 0.00065) * 730 + 11.735 * 0.25, 2)
    assert provisioned["per_million_served"] == pytest.approx(
        provisioned["monthly"] / (provisioned["served"] * 2_628_000 / 5) * 1e6, abs=1e-4)


@pytest.mark.parametrize("cost, words", [
    ('region = "mars-1"', "cost.region takes a region with prices (us-east-1, eu-west-1"),
    ('table_class = "GLACIER"', "cost.table_class takes STANDARD or STANDARD_INFREQUENT_ACCESS, not 'GLACIER'"),
    ("free_tier = 1", "cost.free_tier takes true or false"),
    ("month_hours = 0", "cost.month_hours takes hours from 1 to 745, not 0"),
    ("currency = 'EUR'", "cost: unknown currency (it takes region, table_class, free_tier, month_hours, table)"),
    ("table = 3", "cost.table takes a table"),
    ("[cost.table.Orders]\nitems = -1", "cost.table.Orders.items takes items from 0"),
    ("[cost.table.Orders]\ncolour = 1", "cost.table.Orders: unknown colour"),
    ("[cost.table.Orders.index.ByStatus]\nitem_bytes = 500000", "cost.table.Orders.index.ByStatus.item_bytes takes "
                                                                 "bytes from 1 to 409,600"),
])
def test_a_cost_setting_that_cannot_be_is_named_with_its_place(cost, words):
    text = ('tables = ["CREATE TABLE Orders PRIMARY KEY (pk STRING HASH)"]\n[[pattern]]\n'
            'statement = "SELECT * FROM Orders WHERE pk = ?"\nparams = ["a"]\nrate = 1\n[cost]\n' + cost)
    with pytest.raises(WorkloadError, match=words.replace("(", r"\(").replace(")", r"\)")):
        parse(text, "w.toml")


def test_the_cost_is_in_all_three_reports_and_region_overrides_the_file(tmp_path, capsys):
    from shell import simulate as command

    path, html = tmp_path / "w.toml", tmp_path / "r.html"
    path.write_text(STEADY.format(duration=5, cost='region = "eu-west-1"'))
    assert command.main([str(path), "--html", str(html)]) == 0
    out = capsys.readouterr().out
    assert "cost a month in eu-west-1 (prices of 2025-02-10; the run's 5 s taken to repeat for 730 hours): " \
           "$448.24 as it ran (on demand; 100.0% served" in out
    assert "  Orders (Standard, on demand, 11.735 GB): reads $74.37, writes $370.55 (GSIs $185.27)" in out
    assert "cost a month in eu-west-1" in html.read_text()
    assert command.main([str(path), "--region", "us-east-1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cost"]["ran"] == 397.13
    assert command.main([str(path), "--region", "mars-1"]) == 1
    assert "partiql simulate: --region takes a region with prices" in capsys.readouterr().err


def _target(table="Orders", index=None, dimension="write", utilization=70, maximum=1000, refused=0, late=0):
    timeline = [{"issued": 0.0, "in_effect": 0.0, "units": 10, "cause": "start"}]
    if late:
        timeline.append({"issued": 600.0, "in_effect": 720.0, "units": 50, "cause": "scale-out",
                         "throttled_before": late})
    name = (table if index is None else f"{table}.{index}") + f" {dimension}"
    return {"target": name, "table": table, "index": index, "dimension": dimension, "utilization": utilization,
            "min": 1, "max": maximum, "timeline": timeline, "refused_decreases": refused}


@pytest.mark.parametrize("targets, said", [
    ([_target(utilization=40)], ["autoscaling Orders write: a target of 40 % pays for 60 % idle capacity"]),
    ([_target(late=1234)], ["autoscaling Orders write: 1,234 requests throttled before new capacity arrived (the "
                            "first asked at 600 s, in effect at 720 s)"]),
    ([_target(refused=3)], ["autoscaling Orders write: 3 scale-ins refused by the day's decrease quota"]),
    ([_target(), _target(index="ByStatus", maximum=100)],
     ["autoscaling Orders.ByStatus write: its max (100) is below its table's (1,000)"]),
    ([_target(), _target(index="ByStatus")], []),
    ([_target(utilization=70)], []),
])
def test_auto_scaling_settings_are_advised_on(targets, said):
    from partiql.simulate.cost_advice import scaling_advice

    advice = scaling_advice(targets)
    assert len(advice) == len(said) and all(text.startswith(words) for text, words in zip(advice, said))


def test_a_gsi_left_without_a_write_policy_under_a_scaled_table_is_named():
    from partiql.simulate.cost_advice import unscaled_index_advice

    resources = [{"table": "Orders", "index": None, "provisioned": [5, 5]},
                 {"table": "Orders", "index": "ByStatus", "provisioned": [5, 5]}]
    (advice,) = unscaled_index_advice([_target()], resources)
    assert advice.startswith("autoscaling Orders write: its index ByStatus has no write policy")
    assert unscaled_index_advice([_target(), _target(index="ByStatus")], resources) == []


def test_a_table_with_a_stream_says_its_readers_are_not_priced():
    text = STEADY.format(duration=2, cost="").replace("PROJECTING KEYS ONLY)",
                                                      "PROJECTING KEYS ONLY)\n STREAM NEW_IMAGE")
    (note,) = _cost(text)["cost"]["notes"]
    assert note.startswith("Orders has a stream: its readers' GetRecords calls are not simulated")
    assert "$0.02 per 100,000 past 2.5 M a month" in note
