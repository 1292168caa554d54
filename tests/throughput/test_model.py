"""The model's slower mechanisms (spec throughput.md §2-§4): raising throughput, on-demand's previous
peak, isolation of hot items; each on a virtual clock."""

from __future__ import annotations

from collections import Counter

import pytest

from partiql.engine.errors import ThrottlingException
from partiql.engine.placement import key_hash
from partiql.engine.requests.wire import wire_call
from partiql.engine.throughput.peak import Peak

from .workload import SERVED, create, drive, engine_on, put

KEY_RANGE = "TableWriteKeyRangeThroughputExceeded"
PROVISIONED = "TableWriteProvisionedThroughputExceeded"


def test_raising_provisioned_throughput_splits_partitions_and_starts_a_full_bucket():
    engine, clock = engine_on()
    create(engine, "Votes", 10, 10)
    assert drive(engine, clock, 3000, 1, lambda n: put("Votes", f"k{n}"))[0] == {SERVED: 1000, KEY_RANGE: 2000}
    seconds = drive(engine, clock, 1000, 4, lambda n: put("Votes", f"j{n}"))
    assert seconds[-1] == {SERVED: 10, PROVISIONED: 990}  # the 3,000-unit burst is gone
    wire_call(engine, "UpdateTable", {"TableName": "Votes", "ProvisionedThroughput": {
        "ReadCapacityUnits": 10, "WriteCapacityUnits": 2500}})
    assert len(engine.table("Votes").store.partitions) == 3  # ceil(10/3000 + 2500/1000)
    # a full bucket (750,000 units) over three partitions: 1,500 spread writes a second are served
    assert drive(engine, clock, 1500, 3, lambda n: put("Votes", f"m{n}")) == [{SERVED: 1500}] * 3


def test_on_demand_serves_twice_its_previous_peak_and_no_more():
    engine, clock = engine_on()
    create(engine, "Wide")  # a new table: previous peak 2,000 WCU, so 4,000 a second
    big = "y" * 2900  # with put()'s 1 KB, 4 WCU a write: 1,250 writes a second ask 5,000 WCU
    errors = {}
    seconds = drive(engine, clock, 1250, 3, lambda n: put("Wide", f"k{n}", big=big), errors)
    assert all(second == {SERVED: 1000, KEY_RANGE: 250} for second in seconds)
    assert isinstance(errors[KEY_RANGE], ThrottlingException)


def test_the_previous_peak_rises_thirty_minutes_after_a_sustained_average():
    peak = Peak(2000.0)
    for second in range(120):  # two minutes at 3,000 a second
        peak.close(float(second), 3000.0)
        assert not peak.mature(float(second))
    assert peak.value == 2000.0
    # second 40 is the first whose 60-second average (41 × 3,000 / 60 = 2,050) passes the peak
    assert not peak.mature(1800.0 + 39)
    assert peak.mature(1800.0 + 40) and peak.value == 2050.0
    assert peak.mature(1800.0 + 59) and peak.value == 3000.0  # the full average, 30 minutes on
    assert not peak.pending  # bounded: only rising averages waited, and all have matured


@pytest.mark.parametrize("keys, splits", [(2, True), (1, False)], ids=["two-keys-split", "one-key-never"])
def test_a_partition_hot_for_five_minutes_splits_where_its_traffic_halves(keys, splits):
    engine, clock = engine_on()
    create(engine, "Hot")
    table = engine.table("Hot")
    first = table.store.partition_for(key_hash("a0"))
    hot = [k for k in (f"a{i}" for i in range(500)) if table.store.partition_for(key_hash(k)) is first][:keys]
    before = len(table.store.partitions)
    seconds = drive(engine, clock, 600, 302, lambda n: put("Hot", hot[n % keys]))  # 60 % of the ceiling
    assert all(second == {SERVED: 600} for second in seconds)
    assert len(table.store.partitions) == before + (1 if splits else 0)
    if splits:
        assert table.store.partition_for(key_hash(hot[0])) is not table.store.partition_for(key_hash(hot[1]))
    assert Counter(table.get(k) is not None for k in hot) == {True: keys}  # no item lost in the split


@pytest.mark.parametrize("billing", ["on_demand", "provisioned"])
def test_settings_changed_within_a_second_apply_to_its_next_request(billing):
    """A partition's requests after its first of a second take a fast lane (engine/throughput/state.py
    ``Lane``): an UpdateTable within the second must close it, so the very next write meets the new limit."""
    engine, clock = engine_on()
    if billing == "on_demand":
        create(engine, "Votes")
        lowered = {"OnDemandThroughput": {"MaxWriteRequestUnits": 30}}
        reason = "TableWriteMaxOnDemandThroughputExceeded"
    else:
        create(engine, "Votes", 10, 100)
        lowered = {"ProvisionedThroughput": {"ReadCapacityUnits": 10, "WriteCapacityUnits": 1}}
        reason = None  # a lowered bucket keeps what it holds up to its new capacity (300 units): still served
    start = clock.now()
    for n in range(40):
        clock.set(start + n / 1000)
        engine.write(put("Votes", f"k{n}"))
    wire_call(engine, "UpdateTable", {"TableName": "Votes", **lowered})
    clock.set(start + 0.5)
    if reason is None:
        engine.write(put("Votes", "after"))
        bucket = engine.throughput.state(engine.table("Votes")).table_resource.sides[1].bucket
        assert (bucket.rate, bucket.capacity) == (1.0, 300.0) and bucket.level < 300.0
    else:
        with pytest.raises(ThrottlingException) as raised:
            engine.write(put("Votes", "after"))
        assert raised.value.throttling_reasons[0]["reason"] == reason
