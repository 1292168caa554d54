"""Simulations (issue #16 points 1, 2, 5): the shipped votes examples report what the seeds predict,
the same seed gives the same report, failures and Ctrl-C are counted, and the CLI prints it all."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import partiql
from partiql.simulate import WorkloadError, load, parse, report, simulate

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def votes():
    return report(simulate(load(EXAMPLES / "votes.toml"), duration=8))


def test_the_hot_candidate_throttles_at_its_partition_ceiling(votes):
    vote = votes["patterns"][0]
    assert vote["requested"] == 8 * 1500
    assert vote["reasons"] == {"TableWriteKeyRangeThroughputExceeded": vote["throttled"]}
    # 1,350 votes a second for CandidateA, 150 for B: A's partition serves 1,000 WCU a second
    for requested, served, throttled, failed in vote["per_second"]:
        assert requested == 1500 and failed == 0
        assert 1100 <= served <= 1200 and throttled == requested - served
    table = votes["resources"][0]
    assert table["top_throttled"][0] == ["CandidateA", vote["throttled"]]
    assert [second[1] for second in table["consumed_per_second"]] == [s[1] for s in vote["per_second"]]
    hot = max(table["partitions"], key=lambda p: sum(s[2] for s in p["per_second"]))
    assert all(second[1] == 1000 for second in hot["per_second"])  # exactly its ceiling, every second
    assert table["advice"][0].startswith("key 'CandidateA' asks about 1,3")
    assert "shard it over 2 keys" in table["advice"][0]


def test_the_sharded_design_serves_every_vote():
    found = report(simulate(load(EXAMPLES / "votes-sharded.toml"), duration=8))
    vote = found["patterns"][0]
    assert (vote["requested"], vote["served"], vote["throttled"]) == (12_000, 12_000, 0)
    assert found["resources"][0]["advice"] == [] and found["resources"][0]["throttle_events"] == {}


def test_the_same_seed_gives_the_same_report(votes):
    again = report(simulate(load(EXAMPLES / "votes.toml"), duration=8))
    assert again == votes
    other = report(simulate(load(EXAMPLES / "votes.toml"), duration=8, seed=99))
    assert other["patterns"][0]["per_second"] != votes["patterns"][0]["per_second"]


WORKLOAD = """
duration = 3
tables = ["CREATE TABLE Inbox PRIMARY KEY (Recipient STRING HASH, Sent NUMBER RANGE) BILLING MODE PROVISIONED (10 RCU, 5 WCU)"]

[[data]]
table = "Inbox"
count = 50
item = { Recipient = "u0", Sent = { sequence = true }, Body = { string = 2000 } }

[[pattern]]
name = "read"
statement = "SELECT * FROM Inbox WHERE Recipient = ?"
params = [{ item = "Inbox.Recipient" }]
rate = 20

[[pattern]]
name = "again"
statement = "INSERT INTO Inbox VALUE {'Recipient': 'u0', 'Sent': 0}"
rate = 2
"""


def test_seed_data_seeded_values_failures_and_provisioned_throttles():
    outcome = simulate(parse(WORKLOAD, "inbox.toml"))
    found = report(outcome)
    read, again = found["patterns"]
    assert read["requested"] == 60 and read["served"] + read["throttled"] == 60
    # every read is the page of u0's 50 items of 2 KB, whatever it costs once: the burst serves them all
    outcome.db.engine.throughput.mode = "off"
    page = outcome.db.execute("SELECT * FROM Inbox WHERE Recipient = 'u0'").consumed_capacity.total
    assert page == 12.5 and read["served"] == 60  # 50 × 2 KB = 25 units of 4 KB, halved: eventually consistent and read["consumed"] == 60 * page
    assert again["errors"] == {"DuplicateItemException": 6} and again["served"] == 0
    assert found["resources"][0]["provisioned"] == [10, 5]
    assert found["resources"][0]["partitions"][0]["items"] >= 45  # the seed items are there


def test_ctrl_c_stops_and_reports_what_ran():
    def progress(done, total):
        if done >= 3:
            raise KeyboardInterrupt
    outcome = simulate(load(EXAMPLES / "votes.toml"), duration=8, progress=progress)
    found = report(outcome)
    assert found["interrupted"] and 3 <= found["ran"] < 4
    assert 3 * 1500 <= found["patterns"][0]["requested"] <= 3 * 1500 + 2


@pytest.mark.parametrize("text, message", [
    ('tables = ["CREATE TABLE X"]\n[[pattern]]\nstatement = "S"\nrate = 1\n', "w.toml: 'CREATE TABLE X': "),
    ('[[data]]\ntable = "Nope"\ncount = 1\nitem = { a = 1 }\n[[pattern]]\nstatement = "S"\nrate = 1\n',
     "w.toml: data for Nope, which no statement of tables creates"),
    ('tables = ["CREATE TABLE Tab PRIMARY KEY (pk STRING HASH)"]\n[[data]]\ntable = "Tab"\ncount = 1\n'
     'item = { a = 1 }\n[[pattern]]\nstatement = "S"\nrate = 1\n', "w.toml: a seed item of Tab ({'a': 1}) was refused"),
])
def test_a_workload_that_cannot_run_says_why(text, message):
    with pytest.raises(WorkloadError) as raised:
        simulate(parse(text, "w.toml"))
    assert str(raised.value).startswith(message), str(raised.value)


def test_the_cli_prints_the_report_and_json():
    done = subprocess.run([sys.executable, "-m", "partiql.shell", "simulate", str(EXAMPLES / "votes.toml"),
                           "--duration", "3", "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["patterns"][0]["requested"] == 4500 and found["ran"] == 3
    done = subprocess.run([sys.executable, "-m", "partiql.shell", "simulate", str(EXAMPLES / "votes.toml"),
                           "--duration", "3"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "vote: 4,500 requested" in done.stdout and "throttled: TableWriteKeyRangeThroughputExceeded" in done.stdout
    assert "advice: key 'CandidateA'" in done.stdout
    done = subprocess.run([sys.executable, "-m", "partiql.shell", "simulate", str(EXAMPLES / "votes.toml"),
                           "--duration", "0"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "--duration takes seconds from 1 to 604,800 (a week), not 0.0" in done.stderr


def test_a_database_lends_its_tables_and_items_and_is_never_written(tmp_path):
    path = tmp_path / "game.db"
    with partiql.connect(path) as db:
        db.execute("CREATE TABLE Scores PRIMARY KEY (Player STRING HASH) GSI (ByGame ON (Game STRING HASH) "
                   "PROJECTING ALL)")
        for n in range(30):
            db.execute(f"INSERT INTO Scores VALUE {{'Player': 'p{n}', 'Game': 'g{n % 3}'}}")
    workload = parse('[[pattern]]\nstatement = "SELECT * FROM \\"Scores\\".\\"ByGame\\" WHERE Game = ?"\n'
                     'params = [{ uniform = 3, prefix = "g" }]\nrate = 10\n'
                     '[[pattern]]\nname = "join"\nstatement = "INSERT INTO Scores VALUE {\'Player\': ?}"\n'
                     'params = [{ sequence = "new{}" }]\nrate = 5\n', "w.toml")
    found = report(simulate(workload, duration=2, database=path))
    reads, joins = found["patterns"]
    assert reads["served"] == 20 and reads["consumed"] == 20 * 0.5  # ten 20-byte entries a game
    assert joins["served"] == 10
    with partiql.connect(path) as db:  # the file is as it was
        assert db.execute("SELECT * FROM Scores").count == 30
    with pytest.raises(WorkloadError, match="no such database file"):
        simulate(workload, duration=1, database=tmp_path / "missing.db")


def test_ctrl_c_ends_a_comparison_with_the_design_it_interrupted():
    from partiql.simulate import compare
    workload = load(EXAMPLES / "timeseries.toml")

    def progress(design, done, total):
        if design.name == "date as key" and done >= 2:
            raise KeyboardInterrupt
    outcomes = compare(workload, workload.designs, duration=5, progress=progress)
    assert [o.workload.design for o in outcomes] == ["date as key"] and outcomes[0].interrupted
