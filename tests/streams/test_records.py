"""Streams in the engine (issue #17 points 1, 2, 5): which writes make a record and what it holds, shards
that follow partitions, retention on the clock, and the library's feed read from another thread."""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest

from partiql.api import Connection
from partiql.engine import Engine
from partiql.engine.clock import VirtualClock
from partiql.engine.errors import DynamoDBError, TrimmedDataAccessException, ValidationException
from partiql.engine.streams import RETENTION
from partiql.engine import ttl

KEY = [{"AttributeName": "pk", "KeyType": "HASH"}]
DEFINITIONS = [{"AttributeName": "pk", "AttributeType": "S"}]


def engine_with(view_type: str = "NEW_AND_OLD_IMAGES", clock=None, **extra) -> Engine:
    engine = Engine(clock=clock)
    extra.setdefault("BillingMode", "PAY_PER_REQUEST")
    engine.create_table(TableName="Tab", KeySchema=KEY, AttributeDefinitions=DEFINITIONS,
                        StreamSpecification={"StreamEnabled": True, "StreamViewType": view_type}, **extra)
    return engine


def records(engine) -> list:
    return engine.streams.records(engine.tables["Tab"].stream, 0)


def events(engine) -> list:
    return [(r["eventName"], r["dynamodb"]["Keys"]["pk"]) for r in records(engine)]


def put(engine, **item):
    engine.put_item(TableName="Tab", Item=item)


# (what is done, the events it adds): no record when nothing changes (item-api §7.4)
WRITES = [
    ("put a new item", lambda e: put(e, pk="a", n=1), [("INSERT", "a")]),
    ("put an identical item", lambda e: put(e, pk="a", n=1), []),
    ("put different content", lambda e: put(e, pk="a", n=2), [("MODIFY", "a")]),
    ("set an equal value", lambda e: e.update_item(TableName="Tab", Key={"pk": "a"}, UpdateExpression="SET n = :v",
                                                  ExpressionAttributeValues={":v": 2}), []),
    ("remove a missing attribute", lambda e: e.update_item(TableName="Tab", Key={"pk": "a"},
                                                          UpdateExpression="REMOVE nothing"), []),
    ("update upsert", lambda e: e.update_item(TableName="Tab", Key={"pk": "b"}, UpdateExpression="SET n = :v",
                                             ExpressionAttributeValues={":v": 1}), [("INSERT", "b")]),
    ("a failed condition", lambda e: pytest.raises(DynamoDBError, e.put_item, TableName="Tab",
                                                   Item={"pk": "a"}, ConditionExpression="attribute_not_exists(pk)"),
     []),
    ("delete", lambda e: e.delete_item(TableName="Tab", Key={"pk": "b"}), [("REMOVE", "b")]),
    ("delete a missing item", lambda e: e.delete_item(TableName="Tab", Key={"pk": "zz"}), []),
    ("a batch", lambda e: e.batch_write_item(RequestItems={"Tab": [{"PutRequest": {"Item": {"pk": "c"}}},
                                                                   {"DeleteRequest": {"Key": {"pk": "a"}}}]}),
     [("INSERT", "c"), ("REMOVE", "a")]),
    ("a transaction with a condition check", lambda e: e.transact_write_items(TransactItems=[
        {"Put": {"TableName": "Tab", "Item": {"pk": "d"}}},
        {"ConditionCheck": {"TableName": "Tab", "Key": {"pk": "c"}, "ConditionExpression": "attribute_exists(pk)"}},
        {"Update": {"TableName": "Tab", "Key": {"pk": "d2"}, "UpdateExpression": "SET m = :m",
                    "ExpressionAttributeValues": {":m": 5}}}]), [("INSERT", "d"), ("INSERT", "d2")]),
    ("an update that changes an item", lambda e: e.update_item(TableName="Tab", Key={"pk": "c"},
                                                              UpdateExpression="SET m = :m",
                                                              ExpressionAttributeValues={":m": 5}), [("MODIFY", "c")]),
]


def test_each_write_makes_the_records_dynamodb_makes():
    engine = engine_with()
    seen = 0
    for what, write, expected in WRITES:
        write(engine)
        found = events(engine)
        assert found[seen:] == expected, what
        seen = len(found)
    numbers = [int(r["dynamodb"]["SequenceNumber"]) for r in records(engine)]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
    assert all(len(r["dynamodb"]["SequenceNumber"]) == 21 for r in records(engine))


@pytest.mark.parametrize("view_type, new, old", [
    ("KEYS_ONLY", False, False), ("NEW_IMAGE", True, False), ("OLD_IMAGE", False, True),
    ("NEW_AND_OLD_IMAGES", True, True),
])
def test_each_view_type_carries_its_images(view_type, new, old):
    engine = engine_with(view_type)
    put(engine, pk="a", n=1)
    put(engine, pk="a", n=2)
    insert, modify = records(engine)
    assert modify["dynamodb"]["Keys"] == {"pk": "a"} and modify["dynamodb"]["StreamViewType"] == view_type
    assert ("NewImage" in modify["dynamodb"]) is new and ("OldImage" in modify["dynamodb"]) is old
    assert "OldImage" not in insert["dynamodb"]
    if new:
        assert modify["dynamodb"]["NewImage"] == {"pk": "a", "n": Decimal(2)}
    if old:
        assert modify["dynamodb"]["OldImage"] == {"pk": "a", "n": Decimal(1)}
    # SizeBytes: the keys' size plus each image carried (item sizes of the companion spec): pk 'a' is 3
    # bytes, an image {pk: 'a', n: 1 or 2} 6 (a one-digit number is 2)
    assert modify["dynamodb"]["SizeBytes"] == 3 + (6 if new else 0) + (6 if old else 0)
    assert (modify["eventVersion"], modify["eventSource"], modify["awsRegion"]) == ("1.1", "aws:dynamodb",
                                                                                    "us-east-1")
    assert "userIdentity" not in modify


def test_a_ttl_deletion_names_the_service():
    engine = engine_with()
    engine.update_time_to_live(TableName="Tab", TimeToLiveSpecification={"Enabled": True, "AttributeName": "exp"})
    put(engine, pk="old", exp=Decimal(int(engine.epoch()) - 10))
    assert ttl.sweep(engine) == 1
    removal = records(engine)[-1]
    assert removal["eventName"] == "REMOVE"
    assert removal["userIdentity"] == {"Type": "Service", "PrincipalId": "dynamodb.amazonaws.com"}


def test_shards_follow_the_partitions_and_a_split_closes_the_parent():
    engine = engine_with(BillingMode="PROVISIONED", ProvisionedThroughput={"ReadCapacityUnits": 5,
                                                                            "WriteCapacityUnits": 5})
    stream = engine.tables["Tab"].stream
    (first,) = stream.shards
    for n in range(20):
        put(engine, pk=f"k{n}")
    engine.update_table(TableName="Tab", ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 1500})
    for n in range(20, 40):
        put(engine, pk=f"k{n}")
    partitions = engine.tables["Tab"].store.partitions
    assert len(partitions) == 2
    children = [shard for shard in stream.shards if shard.parent_id == first.shard_id]
    assert len(children) == 2 and not first.open and all(child.open for child in children)
    assert first.end == first.records[-1].sequence
    assert [s.shard_id for s in stream.shards] == sorted(s.shard_id for s in stream.shards)  # creation order
    for shard in children:  # each record in the shard of its item's partition
        assert all(shard.lo <= engine.tables["Tab"].locate(change.pk)[0] < shard.hi
                   for change in shard.records)
        assert all(change.sequence > first.end for change in shard.records)


def test_records_are_kept_a_day_on_the_clock_and_a_disabled_stream_stays_readable():
    clock = VirtualClock()
    engine = engine_with(clock=clock)
    db = Connection(engine)
    put(engine, pk="a")
    clock.advance(RETENTION - 1)
    put(engine, pk="b")
    first = records(engine)[0]["dynamodb"]["SequenceNumber"]
    clock.advance(2)  # "a" is now older than a day
    assert [r["dynamodb"]["Keys"]["pk"] for r in db.changes("Tab").poll()] == ["b"]
    with pytest.raises(TrimmedDataAccessException):
        db.changes("Tab", start=first)
    stream = engine.tables["Tab"].stream
    engine.update_table(TableName="Tab", StreamSpecification={"StreamEnabled": False})
    assert engine.tables["Tab"].stream is None and not stream.enabled
    assert all(not shard.open for shard in stream.shards) and stream.arn in engine.streams.by_arn
    put(engine, pk="c")  # no stream: no record
    assert [r["dynamodb"]["Keys"]["pk"] for r in engine.streams.records(stream, 0)] == ["b"]
    clock.advance(RETENTION + 1)
    engine.update_table(TableName="Tab", StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
    assert stream.arn not in engine.streams.by_arn  # gone a day after it was disabled
    assert engine.tables["Tab"].stream.arn != stream.arn


def test_latest_and_trim_horizon_and_no_stream():
    engine = engine_with()
    db = Connection(engine)
    put(engine, pk="a")
    latest, horizon = db.changes("Tab", start="LATEST"), db.changes("Tab")
    put(engine, pk="b")
    assert [r["dynamodb"]["Keys"]["pk"] for r in latest.poll()] == ["b"]
    assert [r["dynamodb"]["Keys"]["pk"] for r in horizon.poll()] == ["a", "b"]
    assert horizon.poll() == []
    engine.create_table(TableName="Plain", KeySchema=KEY, AttributeDefinitions=DEFINITIONS,
                        BillingMode="PAY_PER_REQUEST")
    with pytest.raises(ValidationException, match="Table Plain has no stream enabled"):
        db.changes("Plain")
    with pytest.raises(ValidationException, match="start takes TRIM_HORIZON or LATEST or a sequence number"):
        db.changes("Tab", start="yesterday")


def test_a_reader_in_another_thread_sees_every_change_in_order():
    engine = engine_with()
    db = Connection(engine)
    feed = db.changes("Tab", start="LATEST", wait=5.0)
    seen, start = [], threading.Barrier(3)

    def read():
        start.wait()
        for record in feed:
            seen.append(record["dynamodb"]["Keys"]["pk"])
            if len(seen) == 200:
                feed.close()

    def write(prefix):
        start.wait()
        for n in range(100):
            put(engine, pk=f"{prefix}{n}")

    threads = [threading.Thread(target=read), threading.Thread(target=write, args=("x",)),
               threading.Thread(target=write, args=("y",))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(seen) == sorted([f"x{n}" for n in range(100)] + [f"y{n}" for n in range(100)])
    assert [k for k in seen if k[0] == "x"] == [f"x{n}" for n in range(100)]  # one writer's order kept
