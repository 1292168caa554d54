"""The shipped examples (issue #16 point 5) report what the seeds predict, design against design."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from partiql.simulate import compare, comparison, load

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def compared(name: str, **options) -> dict:
    workload = load(EXAMPLES / f"{name}.toml")
    return comparison(compare(workload, workload.designs, **options))


def test_the_inbox_page_costs_1600_rcu_with_the_bodies_and_1_without():
    found = compared("inbox")
    fat, slim = ([p for p in design["patterns"] if p["name"] == "inbox page"][0] for design in found["designs"])
    assert fat["served"] == slim["served"] == 10
    assert 1599 <= fat["consumed"] / fat["served"] <= 1601   # 50 × 256 KB / 4 KB × ½
    assert slim["consumed"] / slim["served"] == 1.0          # 50 × ~100 B: one unit of 4 KB... halved, rounded up
    assert found["designs"][0]["advice"][0].startswith("inbox page: each request consumes 1,600")
    assert found["designs"][1]["advice"] == []


def test_the_leaderboards_thin_index_back_pressures_its_table():
    found = compared("leaderboard", duration=90)
    thin, matched = found["comparison"]
    # the index's burst (300 s of 100 WCU) lasts 60 s at 500 WCU/s above its rate: then 500 of 600 refused
    assert thin["reasons"] == {"IndexWriteProvisionedThroughputExceeded": thin["throttled"]}
    assert 14_000 <= thin["throttled"] <= 16_000
    assert (matched["throttled"], matched["served_share"]) == (0, 1.0)
    scores = found["designs"][0]["patterns"][0]["per_second"]
    assert all(second[2] == 0 for second in scores[:59]) and all(second[2] >= 490 for second in scores[61:])
    assert any(line.startswith("GSI back-pressure: writes to GameScores were refused")
               for line in found["designs"][0]["advice"])


def test_todays_date_as_key_throttles_and_the_sharded_date_does_not():
    found = compared("timeseries", duration=10)
    date, sharded = found["comparison"]
    assert (date["served"], date["throttled"]) == (10_000, 5_000)   # 1,000 of 1,500 a second: one key's ceiling
    assert (sharded["served"], sharded["throttled"]) == (15_000, 0)
    assert date["reasons"] == {"TableWriteKeyRangeThroughputExceeded": 5_000}
    # the cost per million requests at the file's prices: writes of 1 KB at $0.625 per million
    assert sharded["cost_per_million_requests"] == pytest.approx(0.625)
    assert date["cost_per_million_requests"] == pytest.approx(0.625 * 10_000 / 15_000)


def test_designs_from_files_on_the_command_line(tmp_path):
    (tmp_path / "one.sql").write_text(
        "CREATE TABLE Votes PRIMARY KEY (Candidate STRING HASH, Voter STRING RANGE) BILLING MODE ON DEMAND;")
    (tmp_path / "slow.sql").write_text(
        "CREATE TABLE Votes PRIMARY KEY (Candidate STRING HASH, Voter STRING RANGE) "
        "BILLING MODE PROVISIONED (5 RCU, 5 WCU);")  # a burst of 1,500 units, then 5 a second
    done = subprocess.run([sys.executable, "-m", "partiql.shell", "simulate", str(EXAMPLES / "votes.toml"),
                           "--duration", "2", "--design", str(tmp_path / "one.sql"),
                           "--design", str(tmp_path / "slow.sql"), "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["comparison"]
    assert [row["design"] for row in rows] == ["one", "slow"]
    assert rows[0]["reasons"] == {"TableWriteKeyRangeThroughputExceeded": rows[0]["throttled"]}
    assert "TableWriteProvisionedThroughputExceeded" in rows[1]["reasons"]
    assert rows[1]["served"] < rows[0]["served"]
    done = subprocess.run([sys.executable, "-m", "partiql.shell", "simulate", str(EXAMPLES / "votes.toml"),
                           "--duration", "2", "--design", str(tmp_path / "one.sql")], capture_output=True, text=True,
                          timeout=120)
    assert "designs compared:" in done.stdout and "\none " in done.stdout


def test_one_key_on_an_on_demand_table_throttles_at_its_partition():
    done = subprocess.run([sys.executable, "-m", "partiql.shell", "simulate", str(EXAMPLES / "hot-key.toml"),
                           "--duration", "5", "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    count = json.loads(done.stdout)["patterns"][0]
    assert [second[:3] for second in count["per_second"]] == [[1500, 1000, 500]] * 5
    assert count["reasons"] == {"TableWriteKeyRangeThroughputExceeded": 2500}


def test_a_multi_attribute_index_throttles_on_a_hot_tenant_like_a_concatenated_key_and_a_shard_spreads_it():
    found = compared("tenants", duration=10)
    concatenated, multi, sharded = found["comparison"]
    # acme takes 27 in 30 of 1,500 writes a second: 1,350 WCU/s on one index key, whose partition serves 1,000
    for design in (concatenated, multi):
        assert design["reasons"] == {"IndexWriteKeyRangeThroughputExceeded": design["throttled"]}
        assert 3_000 <= design["throttled"] <= 4_000
    assert (sharded["throttled"], sharded["served_share"]) == (0, 1.0)
    assert any(line.startswith("TenantRegion holds concatenated values ('TENANT#") and "(Tenant, Region)" in line
               for line in found["designs"][0]["advice"])
    assert not any("concatenated" in line for line in found["designs"][1]["advice"])


def test_autoscaling_lags_the_spike_and_grows_only_by_what_it_served():
    """examples/autoscaling.toml (issue 37 point 2): burst covers the spike's first minute; each scale-out asks for
    the served minute ÷ 0.7 (throttled demand is invisible to the alarms), two minutes after it was asked."""
    from partiql.simulate import report, simulate
    found = report(simulate(load(EXAMPLES / "autoscaling.toml")))
    (scaled,) = found["autoscaling"]
    steps = [(step["issued"], step["in_effect"], step["units"], step["cause"]) for step in scaled["timeline"][1:]]
    assert [(issued, effect, cause) for issued, effect, _, cause in steps] == [
        (480.0, 600.0, "scale-out"), (780.0, 900.0, "scale-out"), (1860.0, 1980.0, "scale-in")]
    assert steps[0][2] == 43  # ⌈30 WCU × 60 s served ÷ 60 ÷ 0.7⌉: the second minute of the spike, burst spent
    (events,) = found["patterns"]
    throttled = [second for second, row in enumerate(events["per_second"]) if row[2]]
    assert 340 <= throttled[0] <= 370 and throttled[-1] < 900  # (after the burst, until the spike ends)


def test_the_orders_traffic_on_its_workbench_model_throttles_under_the_model_s_max(capsys):
    """examples/orders-traffic.toml on examples/orders-model.json (issue 37 point 4): the model's tables, items
    and auto scaling; its max of 10 WCU is under the 22 that 15 writes/s ask for at 70 %."""
    from shell import simulate as command

    assert command.main([str(EXAMPLES / "orders-traffic.toml"), "--model", str(EXAMPLES / "orders-model.json"),
                         "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    place, read = found["patterns"]
    assert read["expected"] == 'returns 2 items with ["c#1"], as expected' and read["throttled"] == 0
    assert place["throttled"] > 0 and place["served"] + place["throttled"] == place["requested"] == 13_500
    writes = {t["target"]: t for t in found["autoscaling"] if t["dimension"] == "write"}
    assert all(t["max_units"] == 10 and t["timeline"][-1]["units"] == 10 for t in writes.values())
    late = sum(step.get("throttled_before", 0) for t in writes.values() for step in t["timeline"])
    assert late == place["throttled"]  # (every throttle came before a scale-out that arrived too late)
    assert any(text.startswith("autoscaling Orders write: its max (10) is under the 22 units") for text in
               found["advice"])


def test_semantic_search_serves_every_search_inside_one_category():
    """examples/semantic-search.toml (issue 36): searches confined by a HASH value, new products indexed as they
    come; each search examines its category's entries, never the whole catalogue."""
    from partiql.simulate import report, simulate

    outcome = simulate(load(EXAMPLES / "semantic-search.toml"), duration=5)
    search, add = report(outcome)["patterns"]
    assert search["served"] == search["requested"] == 200 and add["served"] == add["requested"] == 25
    index = outcome.db.engine.table("Products").vectors.index("ByEmbedding")
    largest = max(sum(entry.size for entry in entries.values()) for entries in index.partitions.values())
    assert index.count == 2025 and 1024 < search["vector_search_bytes"] / search["served"] <= largest
