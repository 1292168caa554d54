"""OnDemandThroughput and WarmThroughput (spec throughput.md §2, §4): accepted, described, stored, enforced."""

from __future__ import annotations

import pytest

import partiql
from partiql.engine.clock import VirtualClock
from partiql.engine.errors import DynamoDBError, RequestLimitExceeded, ThrottlingException
from partiql.engine.placement import key_hash
from partiql.engine.requests.wire import wire_call

ARN = "arn:aws:dynamodb:us-east-1:123456789012:table/Wide"


def create(db, **extra) -> dict:
    return wire_call(db.engine, "CreateTable", {
        "TableName": "Wide", "BillingMode": "PAY_PER_REQUEST", **extra,
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]})["TableDescription"]


def spread(db, count: int) -> list[str]:
    """``count`` keys dealt over the table's partitions in turn (none gets two before all have one)."""
    store = db.engine.table("Wide").store
    by_partition = {id(p): [] for p in store.partitions}
    for i in range(count * 50):
        key = f"k{i}"
        by_partition[id(store.partition_for(key_hash(key)))].append(key)
    rounds = zip(*by_partition.values())
    return [key for keys in rounds for key in keys][:count]


def put(db, key: str, size: int = 900) -> None:
    wire_call(db.engine, "PutItem", {"TableName": "Wide", "Item": {"pk": {"S": key}, "v": {"S": "x" * size}}})


@pytest.fixture
def db():
    connection = partiql.connect(throughput="enforce", clock=VirtualClock(0.0))
    yield connection
    connection.close()


def test_maximum_on_demand_throughput_caps_the_table(db):
    described = create(db, OnDemandThroughput={"MaxReadRequestUnits": -1, "MaxWriteRequestUnits": 100})
    assert described["OnDemandThroughput"] == {"MaxReadRequestUnits": -1, "MaxWriteRequestUnits": 100}
    for i in range(100):
        put(db, f"k{i}")
    with pytest.raises(ThrottlingException) as caught:
        put(db, "over")
    assert caught.value.throttling_reasons == [{"reason": "TableWriteMaxOnDemandThroughputExceeded", "resource": ARN}]
    wire_call(db.engine, "UpdateTable", {"TableName": "Wide", "OnDemandThroughput": {"MaxWriteRequestUnits": -1}})
    put(db, "over")  # the cap is lifted at once
    table = wire_call(db.engine, "DescribeTable", {"TableName": "Wide"})["Table"]
    assert table["OnDemandThroughput"] == {"MaxReadRequestUnits": -1, "MaxWriteRequestUnits": -1}


def test_warm_throughput_sizes_the_partitions_and_the_allowance(db):
    described = create(db, WarmThroughput={"ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 30000})
    assert described["WarmThroughput"] == {"ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 30000,
                                           "Status": "ACTIVE"}
    assert len(db.engine.table("Wide").store.partitions) == 34  # 12,000 / 3,000 + 30,000 / 1,000
    # twice the peak the warm figure sets: 30,000 WCU a second. 153 writes of 196 WCU (29,988) fit, no
    # partition past its 1,000; the 154th, into a partition with room, is over the table's allowance
    *keys, over = spread(db, 154)
    for key in keys:
        put(db, key, 200_000)
    with pytest.raises(ThrottlingException) as caught:
        put(db, over, 200_000)
    assert caught.value.throttling_reasons == [{"reason": "TableWriteKeyRangeThroughputExceeded", "resource": ARN}]
    assert db.engine.throughput.state(db.engine.table("Wide")).table_resource.sides[1].used == 153 * 196


def test_the_account_quota_throttles_with_request_limit_exceeded(db):
    create(db, WarmThroughput={"ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 100000})
    for key in spread(db, 102):  # 102 × 390 = 39,780 WCU: just under the account's per-table quota
        put(db, key, 399_000)
    with pytest.raises(RequestLimitExceeded) as caught:
        put(db, "over", 399_000)
    assert caught.value.throttling_reasons == [{"reason": "TableWriteAccountLimitExceeded", "resource": ARN}]
    assert caught.value.message == ("Throughput exceeds the current throughput quota for your account. Please "
                                    "contact AWS Support to request a quota increase.")
    limits = wire_call(db.engine, "DescribeLimits", {})
    assert (limits["TableMaxWriteCapacityUnits"], limits["TableMaxReadCapacityUnits"]) == (40_000, 40_000)


@pytest.mark.parametrize("member, message", [
    ({"OnDemandThroughput": {"MaxWriteRequestUnits": 0}},
     "One or more parameter values were invalid: OnDemandThroughput MaxWriteRequestUnits must be -1 (no maximum) "
     "or a positive number: 0"),
    ({"WarmThroughput": {"ReadUnitsPerSecond": 0}},
     "1 validation error detected: Value '0' at 'warmThroughput.readUnitsPerSecond' failed to satisfy constraint: "
     "Member must have value greater than or equal to 1"),
])
def test_bad_settings_are_refused(db, member, message):
    with pytest.raises(DynamoDBError) as caught:
        create(db, **member)
    assert (caught.value.code, caught.value.message) == ("ValidationException", message)


def test_the_settings_are_stored_in_the_database_file(tmp_path):
    path = tmp_path / "wide.db"
    with partiql.connect(path) as db:
        create(db, OnDemandThroughput={"MaxReadRequestUnits": 50, "MaxWriteRequestUnits": 60},
               WarmThroughput={"ReadUnitsPerSecond": 13000, "WriteUnitsPerSecond": 5000})
    with partiql.connect(path) as db:
        table = wire_call(db.engine, "DescribeTable", {"TableName": "Wide"})["Table"]
    assert table["OnDemandThroughput"] == {"MaxReadRequestUnits": 50, "MaxWriteRequestUnits": 60}
    assert table["WarmThroughput"]["WriteUnitsPerSecond"] == 5000
