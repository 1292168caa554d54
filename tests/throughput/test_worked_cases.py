"""The worked cases of spec throughput.md §8, each on a virtual clock: served and throttled per second.

Writes go through ``Engine.write`` (the one admission point every front end
reaches); the request shapes of each throttle are in test_throttle_shapes.py.
"""

from __future__ import annotations

import pytest

from partiql.engine.errors import ProvisionedThroughputExceededException, ThrottlingException
from partiql.engine.placement import key_hash
from partiql.engine.requests.wire import wire_call

from .workload import ONE_KB, SERVED, create, drive, engine_on, put

KEY_RANGE = "TableWriteKeyRangeThroughputExceeded"
PROVISIONED = "TableWriteProvisionedThroughputExceeded"
INDEX_PROVISIONED = "IndexWriteProvisionedThroughputExceeded"


def test_case_1_a_hot_key_is_capped_by_its_partition_then_by_the_drained_burst():
    engine, clock = engine_on()
    create(engine, "Votes", 500, 500)
    seconds = drive(engine, clock, 1500, 320, lambda n: put("Votes", "CandidateA"))
    # from the first second, the partition's 1,000 WCU: burst cannot lift a partition ceiling
    for second in seconds[:290]:
        assert second == {SERVED: 1000, KEY_RANGE: 500}
    # the 150,000-unit burst drains at 500/s (1,000 served against a 500/s refill): ~300 s
    drained = next(i for i, second in enumerate(seconds) if second[PROVISIONED])
    assert 295 <= drained <= 305
    for second in seconds[drained + 2:]:
        assert second == {SERVED: 500, PROVISIONED: 1000}


def test_case_2_spread_writes_under_the_provisioned_rate_never_throttle():
    engine, clock = engine_on()
    create(engine, "Votes", 500, 500)
    seconds = drive(engine, clock, 400, 600, lambda n: put("Votes", f"k{n % 1000}"))
    assert all(second == {SERVED: 400} for second in seconds)


def test_case_3_spread_writes_over_the_rate_run_on_burst_then_throttle():
    engine, clock = engine_on()
    create(engine, "Votes", 500, 500)
    seconds = drive(engine, clock, 800, 540, lambda n: put("Votes", f"k{n % 1000}"))
    drained = next(i for i, second in enumerate(seconds) if second[PROVISIONED])
    assert 495 <= drained <= 505  # 150,000 units at 300/s
    assert all(second == {SERVED: 800} for second in seconds[:drained])
    for second in seconds[drained + 2:]:
        assert second == {SERVED: 500, PROVISIONED: 300}


def test_case_4_a_thin_gsi_throttles_its_table_writes():
    engine, clock = engine_on()
    create(engine, "Orders", 1000, 1000, gsi={"name": "ByG", "read": 10, "write": 10})
    errors = {}
    seconds = drive(engine, clock, 100, 40, lambda n: put("Orders", f"k{n}", g=f"g{n % 7}"), errors)
    drained = next(i for i, second in enumerate(seconds) if second[INDEX_PROVISIONED])
    assert 32 <= drained <= 34  # the GSI's 3,000-unit burst drains at 90/s
    assert all(second == {SERVED: 100} for second in seconds[:drained])
    for second in seconds[drained + 2:]:
        assert second == {SERVED: 10, INDEX_PROVISIONED: 90}
    error = errors[INDEX_PROVISIONED]
    assert isinstance(error, ProvisionedThroughputExceededException)
    assert error.message == ("The level of configured provisioned throughput for one or more global secondary "
                             "indexes of the table was exceeded. Consider increasing your provisioning level for the "
                             "under-provisioned global secondary indexes with the UpdateTable API.")
    assert error.throttling_reasons == [
        {"reason": INDEX_PROVISIONED, "resource": "arn:aws:dynamodb:us-east-1:123456789012:table/Orders/index/ByG"}]
    # nothing of a refused write is written: 33 s of 100 and then 10 a second
    table = engine.table("Orders")
    assert table.item_count == sum(second[SERVED] for second in seconds)
    assert table.index_stats(table.spec.index("ByG"))[0] == table.item_count


def test_case_5_on_demand_caps_one_key_at_its_partition():
    engine, clock = engine_on()
    create(engine, "Votes")
    errors = {}
    seconds = drive(engine, clock, 1500, 5, lambda n: put("Votes", "CandidateA"), errors)
    assert all(second == {SERVED: 1000, KEY_RANGE: 500} for second in seconds)
    error = errors[KEY_RANGE]
    assert isinstance(error, ThrottlingException)
    assert error.message.startswith("Throughput exceeds the current capacity of your table or index. DynamoDB is "
                                    "automatically scaling")
    assert error.body()["throttlingReasons"] == [
        {"reason": KEY_RANGE, "resource": "arn:aws:dynamodb:us-east-1:123456789012:table/Votes"}]


@pytest.mark.parametrize("adaptive", [False, True], ids=["classic", "adaptive"])
def test_case_6_the_classic_even_split_throttles_a_key_that_adaptive_capacity_serves(adaptive):
    engine, clock = engine_on(adaptive=adaptive)
    create(engine, "Votes", 5000, 500)
    assert len(engine.table("Votes").store.partitions) == 3
    seconds = drive(engine, clock, 300, 400, lambda n: put("Votes", "CandidateA"))
    if adaptive:
        assert all(second == {SERVED: 300} for second in seconds)
        return
    drained = next(i for i, second in enumerate(seconds) if second[PROVISIONED])
    assert 370 <= drained <= 380  # a partition's 166.67 WCU and 50,000-unit burst drain at 133.33/s
    for second in seconds[drained + 2:]:
        assert second[SERVED] in (166, 167) and second[PROVISIONED] == 300 - second[SERVED]


def test_case_8_report_mode_serves_everything_and_warns_once_per_throttle():
    engine, clock = engine_on("report")
    create(engine, "Votes", 500, 500)
    enforced, _ = engine_on("enforce")
    create(enforced, "Votes", 500, 500)
    seconds = drive(engine, clock, 1500, 3, lambda n: put("Votes", "CandidateA"))
    assert all(second == {SERVED: 1500} for second in seconds)
    assert len(engine.throughput.warnings) == 100  # the kept ones; every throttle was warned of:
    warned = []
    with engine.throughput.collecting() as found:
        drive(engine, clock, 1500, 1, lambda n: put("Votes", "CandidateA"))
        warned = list(found)
    assert len(warned) == 500
    assert warned[0] == ("TableWriteKeyRangeThroughputExceeded on Votes partition 1/1: key 'CandidateA': "
                         "1,000 WCU used this second; the limit is 1,000")


def test_case_7_a_batch_into_a_throttled_partition_returns_the_refused_entries_unprocessed():
    engine, clock = engine_on()
    create(engine, "Votes")  # on demand: 8 partitions, each capped at 1,000 WCU
    table = engine.table("Votes")
    hot = table.store.partition_for(key_hash("CandidateA"))
    same = [k for k in (f"c{i}" for i in range(2000)) if table.store.partition_for(key_hash(k)) is hot][:25]
    for _ in range(990):
        engine.write(put("Votes", "CandidateA"))
    writes = [{"PutRequest": {"Item": {"pk": {"S": key}, "v": {"S": ONE_KB}}}} for key in same]
    response = wire_call(engine, "BatchWriteItem", {"RequestItems": {"Votes": writes}})
    assert response["UnprocessedItems"] == {"Votes": writes[10:]}  # the partition had 10 units left
    assert [table.get(key) is not None for key in same] == [True] * 10 + [False] * 15
    clock.advance(1.0)  # the next second, a retry of the unprocessed entries goes through
    assert wire_call(engine, "BatchWriteItem", {"RequestItems": response["UnprocessedItems"]})["UnprocessedItems"] == {}


def test_the_same_workload_on_the_same_clock_throttles_the_same_way_twice():
    def run():
        engine, clock = engine_on(adaptive=False)
        create(engine, "Votes", 5000, 30)  # classic: two partitions of 15 WCU, 4,500 units of burst each
        return drive(engine, clock, 600, 30, lambda n: put("Votes", f"k{(n * 7919) % 50}"))
    first, second = run(), run()
    assert first == second
    assert any(s[PROVISIONED] or s[KEY_RANGE] for s in first)  # the workload does throttle
