"""What is counted (spec throughput.md §6) and the advice (§7): the library call, and the shell's .heat."""

from __future__ import annotations

import pytest

import partiql
from partiql.engine.clock import VirtualClock
from partiql.engine.errors import ResourceNotFoundException
from partiql.engine.throughput.report import advice

HOT = "CREATE TABLE Votes (pk S) PRIMARY KEY (pk HASH) BILLING MODE PROVISIONED (500 RCU, 500 WCU)"


def run(db, clock, per_second: int, seconds: int, key_of) -> None:
    """``per_second`` 1 KB writes a second, evenly spaced (the clock set, never summed, so it does not drift)."""
    start = clock.now()
    for second in range(seconds):
        for i in range(per_second):
            clock.set(start + second + i / per_second)
            db.engine.put_item(TableName="Votes", Item={"pk": key_of(i), "v": "x" * 900})
    clock.set(start + seconds)


@pytest.fixture
def hot():
    """Votes after 5 s of 300 writes/s spread, then 5 s of 3,600/s, two thirds on one key (report mode)."""
    clock = VirtualClock(1000.0)
    db = partiql.connect(clock=clock)
    db.execute(HOT)
    run(db, clock, 300, 5, lambda i: f"c{i}")
    run(db, clock, 3600, 5, lambda i: "CandidateA" if i % 3 else f"c{i}")
    yield db
    db.close()


def test_metrics_count_each_second_of_a_table(hot):
    found = hot.engine.throughput.metrics("Votes", last=12)
    assert found.seconds == list(range(999, 1011))
    writes = [write for _, write in found.consumed]
    assert writes[:2] == [0.0, 300.0] and writes[5:11] == [300.0, 1000.0, 1000.0, 1000.0, 1000.0, 1000.0]
    assert [t for _, t in found.throttled][6:11] == [2600] * 5  # report mode: counted as enforce would
    assert found.throttle_events == {"TableWriteKeyRangeThroughputExceeded": 13_000}
    (partition,) = found.partitions
    assert (partition.number, partition.lo, partition.items) == (1, 0, hot.engine.table("Votes").item_count)
    assert partition.seconds[6] == (0.0, 1000.0, 2600)
    key, units = found.top_consumed[0]
    assert key == "CandidateA"
    assert found.top_throttled[0][0] == "CandidateA"


def test_advice_shards_a_key_throttled_by_its_partition(hot):
    (text,) = advice(hot.engine.throughput.metrics("Votes", last=5))
    # two thirds of 3,600 writes a second: about 2,400 WCU/s over a 1,000 WCU partition, so 3 shards
    demand = int(text.split("asks about ")[1].split(" WCU/s")[0].replace(",", ""))
    assert 2350 <= demand <= 2450
    assert text.endswith("of a partition that serves 1,000: shard it over 3 keys (CandidateA#0 … CandidateA#2), "
                         "writing to one at random and reading all")


def test_advice_raises_throughput_when_the_table_ran_dry():
    clock = VirtualClock(0.0)
    db = partiql.connect(clock=clock)
    db.execute("CREATE TABLE Votes (pk S) PRIMARY KEY (pk HASH) BILLING MODE PROVISIONED (1 RCU, 1 WCU)")
    run(db, clock, 400, 1, lambda i: f"k{i}")
    assert advice(db.engine.throughput.metrics("Votes")) == [
        "the table as a whole ran out of its provisioned throughput and burst: raise it (UpdateTable) or switch "
        "to on-demand"]


def test_no_throttle_no_advice(hot):
    clock = VirtualClock(0.0)
    db = partiql.connect(clock=clock)
    db.execute(HOT)
    run(db, clock, 100, 2, lambda i: f"k{i}")
    assert advice(db.engine.throughput.metrics("Votes")) == []


@pytest.mark.parametrize("args, error", [
    (("Votes", None, 0), ValueError), (("Votes", None, 3601), ValueError), (("Votes", None, True), ValueError),
    (("Votes", "NoSuchIndex", 60), ValueError), (("Nope", None, 60), ResourceNotFoundException),
])
def test_bad_metrics_requests_are_refused(hot, args, error):
    with pytest.raises(error):
        hot.engine.throughput.metrics(*args)
