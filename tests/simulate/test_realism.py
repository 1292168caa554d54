"""Issue 33 point 6: a workload turns realism on (``[realism]``, a preset or a file) and the report shows the stale
reads, transaction conflicts and injected faults it met, in the verdict, per pattern, in the advice, in JSON,
terminal and HTML, the same for a seed; the two shipped examples say what their seeds predict."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from partiql.simulate import WorkloadError, load, parse, report, simulate

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HOT = """duration = 5
tables = ["CREATE TABLE Tickets PRIMARY KEY (pk STRING HASH)"]
[realism]
transactions = {{ duration = {hold} }}
[[pattern]]
name = "sell"
operation = "TransactWriteItems"
request = {{ TransactItems = [{{ Put = {{ TableName = "Tickets", Item = {{ pk = "?" }} }} }}, {{ Update = {{ TableName = "Tickets", Key = {{ pk = {{ S = "event" }} }}, UpdateExpression = "SET n = :one", ExpressionAttributeValues = {{ ":one" = {{ N = "1" }} }} }} }}] }}
params = [{{ sequence = "sale#{{}}" }}]
rate = {rate}
"""


def _run(text: str) -> dict:
    return report(simulate(parse(text)))


def _conflicts(times, hold: float) -> int:
    """The reference model: a transaction arriving while the one before it that went through still holds the hot
    item conflicts (and holds nothing)."""
    held, met = float("-inf"), 0
    for at in times:
        if at < held:
            met += 1
        else:
            held = at + hold
    return met


@pytest.mark.parametrize("rate, hold", [(60, 0.01), (60, 0.03), (100, 0.025), (20, 0.2), (7, 0.5)])
def test_transactions_on_a_hot_item_conflict_as_a_reference_model_of_their_arrivals_says(rate, hold):
    workload = parse(HOT.format(rate=rate, hold=hold))
    expected = _conflicts(list(workload.patterns[0].rate.times(workload.duration)), hold)
    found = report(simulate(workload))
    sell = found["patterns"][0]
    assert sell["requested"] == rate * 5
    assert sell["failed"] == sell["errors"].get("TransactionConflict", 0) == expected
    assert found["realism"]["conflicts"] == expected
    if expected:
        assert f"{expected:,} requests met a transaction holding their item" in found["verdict"]
        assert any(line.startswith("sell: ") and "keep the hot item" in line for line in found["advice"])


def test_the_hot_transaction_example_conflicts_every_other_sale():
    found = report(simulate(load(EXAMPLES / "hot-transaction.toml")))
    sale = found["patterns"][0]
    assert (sale["requested"], sale["served"], sale["errors"]) == (1200, 600, {"TransactionConflict": 600})


def test_the_stale_gsi_example_says_its_list_reads_miss_the_orders_just_placed():
    workload = load(EXAMPLES / "stale-gsi.toml")
    found = report(simulate(workload))
    place, mine = found["patterns"]
    assert place["stale"] == 0 and 0 < mine["stale"] <= mine["served"] <= mine["stale_items"] + mine["served"]
    assert mine["stale"] / mine["served"] > 0.2  # (40 orders/s over 40 customers, a 0.5-s lag: most lists lag)
    assert f"{mine['stale']:,} of {mine['served']:,} reads did not yet see a write" in found["verdict"]
    assert any("a GSI is eventually consistent only" in line for line in found["advice"])
    assert found["realism"]["injected_by_kind"] == {"stale read": mine["stale"]}
    again = report(simulate(load(EXAMPLES / "stale-gsi.toml")))
    assert again["patterns"][1]["stale"] == mine["stale"]  # (the same seed, the same stale reads)
    off = copy.deepcopy(workload)
    off.realism = None
    assert report(simulate(off))["patterns"][1]["stale"] == 0 and report(simulate(off))["realism"] is None


@pytest.mark.parametrize("section, words", [
    ('realism = 5', "realism takes a [realism] table, a preset (off, aws) or a file's path"),
    ('realism = "nowhere.toml"', "realism: realism takes a preset (off, aws) or a TOML file"),
    ('[realism]\nconsistency = { stale = 3 }', "w.toml: realism: consistency.stale takes a share from 0 to 1, not 3"),
    ('[realism]\ncolour = 1', "w.toml: realism: unknown colour"),
])
def test_a_realism_section_that_cannot_be_is_named_with_its_place(section, words, tmp_path):
    path = tmp_path / "w.toml"
    path.write_text(f'{section}\n[[pattern]]\nstatement = "SELECT * FROM T WHERE pk = 1"\nrate = 1\n')
    with pytest.raises(WorkloadError) as refused:
        load(path)
    assert words in str(refused.value)


def test_a_realism_file_beside_the_workload_and_the_reports_lines(tmp_path, capsys):
    from partiql.simulate.html import page
    from shell.simulate import main

    (tmp_path / "lag.toml").write_text("seed = 1\n[consistency]\nwindow = 1\nstale = 1.0\n")
    (tmp_path / "w.toml").write_text("""duration = 3
realism = "lag.toml"
tables = ["CREATE TABLE Tab PRIMARY KEY (pk STRING HASH)"]
[[data]]
table = "Tab"
count = 1
item = { pk = "a" }
[[pattern]]
name = "write"
statement = "UPDATE Tab SET n = 1 WHERE pk = 'a'"
rate = 10
[[pattern]]
name = "read"
statement = "SELECT * FROM Tab WHERE pk = 'a'"
rate = 10
""")
    found = report(simulate(load(tmp_path / "w.toml")))
    assert found["patterns"][1]["stale"] == 30  # (each read within the window of the write before it)
    line = "stale: 30 reads did not yet see a write (30 items as they were before it)"
    assert line in page(found)
    main([str(tmp_path / "w.toml")])
    out = capsys.readouterr().out
    assert f"  {line}" in out and f"realism ({tmp_path / 'lag.toml'}): 30 events injected or met (stale read × 30)" in out
