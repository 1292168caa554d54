"""Many threads, one engine (issue 2, point 8): atomic operations, isolated transactions,
and failing calls of every kind leave no trace."""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest

from partiql.engine import Engine, limits
from partiql.engine.errors import DynamoDBError

from .helpers import create, key_schema, snapshot

THREADS = 8


def _engine(partition_bytes=limits.PARTITION_BYTES) -> Engine:
    db = Engine(limits.Limits(partition_bytes=partition_bytes))
    create(db, "Bank", range_name="sk", types={"pk": "S", "owner": "S", "sk": "S"}, GlobalSecondaryIndexes=[
        {"IndexName": "by-owner", "KeySchema": key_schema("owner"), "Projection": {"ProjectionType": "ALL"}}])
    return db


def _run(workers) -> None:
    """Start every worker at once, join them, re-raise the first failure."""
    errors, barrier = [], threading.Barrier(len(workers))

    def wrap(work):
        def run():
            barrier.wait()
            try:
                work()
            except BaseException as error:  # noqa: BLE001 - reported below
                errors.append(error)
        return run

    threads = [threading.Thread(target=wrap(work)) for work in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors[0]


def test_concurrent_puts_all_land_and_partitions_stay_consistent():
    db = _engine(partition_bytes=4_000)

    def writer(n):
        def work():
            for i in range(150):
                db.put_item(TableName="Bank", Item={"pk": f"t{n}-{i % 30}", "sk": f"{i:03d}", "owner": f"o{n}",
                                                    "pad": "x" * 20})
        return work

    _run([writer(n) for n in range(THREADS)])
    table = db.describe_table(TableName="Bank")["Table"]
    partitions = table["Partitions"]
    assert table["ItemCount"] == THREADS * 150 == sum(p["ItemCount"] for p in partitions)
    assert len(partitions) > 8  # the small limit made them split while threads wrote
    assert db.scan(TableName="Bank", ConsistentRead=True)["Count"] == THREADS * 150
    for n in range(THREADS):
        page = db.query(TableName="Bank", IndexName="by-owner", KeyConditionExpression="#o = :o",
                        ExpressionAttributeNames={"#o": "owner"}, ExpressionAttributeValues={":o": f"o{n}"})
        assert page["Count"] == 150


def test_concurrent_counter_updates_lose_nothing():
    db = _engine()
    per_thread = 200

    def adder():
        for _ in range(per_thread):
            db.update_item(TableName="Bank", Key={"pk": "counter", "sk": "-"}, UpdateExpression="ADD n :one",
                           ExpressionAttributeValues={":one": 1})

    _run([adder] * THREADS)
    item = db.get_item(TableName="Bank", Key={"pk": "counter", "sk": "-"}, ConsistentRead=True)["Item"]
    assert item["n"] == Decimal(THREADS * per_thread)


def test_conditional_writes_admit_exactly_one_winner():
    db = _engine()
    winners = []

    def claimant(n):
        def work():
            try:
                db.put_item(TableName="Bank", Item={"pk": "lock", "sk": "-", "holder": n},
                            ConditionExpression="attribute_not_exists(pk)")
                winners.append(n)
            except DynamoDBError as error:
                assert error.code == "ConditionalCheckFailedException"
        return work

    _run([claimant(n) for n in range(THREADS)])
    assert len(winners) == 1
    assert db.get_item(TableName="Bank", Key={"pk": "lock", "sk": "-"})["Item"]["holder"] == winners[0]


def test_no_reader_sees_half_a_transaction():
    """Transfers keep the sum of two balances constant; readers never see another sum."""
    db = _engine()
    total = 1000
    for pk, balance in (("a", total), ("b", 0)):
        db.put_item(TableName="Bank", Item={"pk": pk, "sk": "-", "balance": balance, "owner": "x"})
    done = threading.Event()
    seen = []

    def transfer(source, target):
        def work():
            for _ in range(150):
                try:
                    db.transact_write_items(TransactItems=[
                        {"Update": {"TableName": "Bank", "Key": {"pk": source, "sk": "-"},
                                    "UpdateExpression": "SET balance = balance - :one",
                                    "ConditionExpression": "balance >= :one", "ExpressionAttributeValues": {":one": 1}}},
                        {"Update": {"TableName": "Bank", "Key": {"pk": target, "sk": "-"},
                                    "UpdateExpression": "SET balance = balance + :one",
                                    "ExpressionAttributeValues": {":one": 1}}}])
                except DynamoDBError as error:
                    assert error.code == "TransactionCanceledException"
        return work

    def reader(read):
        def work():
            while not done.is_set():
                seen.append(read())
        return work

    def transact_get():
        responses = db.transact_get_items(TransactItems=[
            {"Get": {"TableName": "Bank", "Key": {"pk": pk, "sk": "-"}}} for pk in ("a", "b")])["Responses"]
        return sum(response["Item"]["balance"] for response in responses)

    def batch_get():
        found = db.batch_get_item(RequestItems={"Bank": {"Keys": [{"pk": "a", "sk": "-"}, {"pk": "b", "sk": "-"}],
                                                         "ConsistentRead": True}})["Responses"]["Bank"]
        return sum(item["balance"] for item in found)

    def index_query():
        items = db.query(TableName="Bank", IndexName="by-owner", KeyConditionExpression="#o = :o",
                         ExpressionAttributeNames={"#o": "owner"}, ExpressionAttributeValues={":o": "x"})["Items"]
        return sum(item["balance"] for item in items)

    writers = [transfer("a", "b"), transfer("b", "a")] * (THREADS // 2 - 1)
    readers = [reader(transact_get), reader(batch_get), reader(index_query)]

    def writers_then_stop():
        _run(writers)
        done.set()

    _run([writers_then_stop, *readers])
    assert seen and set(seen) == {total}
    final = transact_get()
    assert final == total


# ------------------------------------------------------------------ failures change nothing

def _seeded() -> Engine:
    db = _engine()
    create(db, "Lsi", range_name="sk", types={"pk": "S", "sk": "S", "lk": "S"}, LocalSecondaryIndexes=[
        {"IndexName": "lsi", "KeySchema": key_schema("pk", "lk"), "Projection": {"ProjectionType": "ALL"}}])
    for i in range(5):
        db.put_item(TableName="Bank", Item={"pk": f"k{i}", "sk": "-", "owner": "o", "n": i, "s": "text"})
        db.put_item(TableName="Lsi", Item={"pk": "p", "sk": f"{i}", "lk": f"l{i}"})
    return db


KEY = {"pk": "k1", "sk": "-"}
FAILING = [
    ("put: condition", "put_item", dict(TableName="Bank", Item={**KEY, "n": 9}, ConditionExpression="n = :x",
                                        ExpressionAttributeValues={":x": 100})),
    ("put: index key type", "put_item", dict(TableName="Bank", Item={**KEY, "owner": 5})),
    ("put: too large", "put_item", dict(TableName="Bank", Item={**KEY, "big": "x" * limits.MAX_ITEM_BYTES})),
    ("put: missing table", "put_item", dict(TableName="Nothing", Item=KEY)),
    ("put: envelope", "put_item", dict(TableName="a;", Item=KEY)),
    ("update: run-time type", "update_item", dict(TableName="Bank", Key=KEY, UpdateExpression="SET n = s + :one",
                                                  ExpressionAttributeValues={":one": 1})),
    ("update: condition", "update_item", dict(TableName="Bank", Key=KEY, UpdateExpression="REMOVE n",
                                              ConditionExpression="attribute_not_exists(pk)")),
    ("update: too large", "update_item", dict(TableName="Bank", Key=KEY, UpdateExpression="SET big = :b",
                                              ExpressionAttributeValues={":b": "x" * limits.MAX_ITEM_BYTES})),
    ("update: index key type", "update_item", dict(TableName="Bank", Key={"pk": "new", "sk": "-"},
                                                   UpdateExpression="SET #o = :n", ExpressionAttributeNames={"#o": "owner"},
                                                   ExpressionAttributeValues={":n": 1})),
    ("delete: condition", "delete_item", dict(TableName="Bank", Key=KEY, ConditionExpression="n = :x",
                                              ExpressionAttributeValues={":x": 100})),
    ("batch write: one bad key", "batch_write_item", dict(RequestItems={"Bank": [
        {"PutRequest": {"Item": {"pk": "new1", "sk": "-"}}}, {"DeleteRequest": {"Key": KEY}},
        {"PutRequest": {"Item": {"pk": "new2"}}}]})),
    ("batch write: one item too large", "batch_write_item", dict(RequestItems={"Bank": [
        {"DeleteRequest": {"Key": KEY}}, {"PutRequest": {"Item": {"pk": "new", "sk": "-", "big": "x" * 409_600}}}]})),
    ("batch write: index key type", "batch_write_item", dict(RequestItems={
        "Lsi": [{"DeleteRequest": {"Key": {"pk": "p", "sk": "0"}}}],
        "Bank": [{"PutRequest": {"Item": {"pk": "new", "sk": "-", "owner": b"bytes"}}}]})),
    ("batch write: missing table", "batch_write_item", dict(RequestItems={
        "Bank": [{"DeleteRequest": {"Key": KEY}}], "Nothing": [{"DeleteRequest": {"Key": KEY}}]})),
    ("transaction: condition", "transact_write_items", dict(TransactItems=[
        {"Delete": {"TableName": "Bank", "Key": KEY}},
        {"Put": {"TableName": "Lsi", "Item": {"pk": "p", "sk": "9", "lk": "l9"}}},
        {"ConditionCheck": {"TableName": "Bank", "Key": {"pk": "k2", "sk": "-"}, "ConditionExpression": "n = :x",
                            "ExpressionAttributeValues": {":x": 100}}}])),
    ("transaction: run-time error", "transact_write_items", dict(TransactItems=[
        {"Delete": {"TableName": "Bank", "Key": KEY}},
        {"Update": {"TableName": "Bank", "Key": {"pk": "k2", "sk": "-"}, "UpdateExpression": "SET n = s + :one",
                    "ExpressionAttributeValues": {":one": 1}}}])),
    ("transaction: same item twice", "transact_write_items", dict(TransactItems=[
        {"Delete": {"TableName": "Bank", "Key": KEY}}, {"Put": {"TableName": "Bank", "Item": KEY}}])),
    ("transaction: token mismatch", "transact_write_items", dict(
        ClientRequestToken="used", TransactItems=[{"Delete": {"TableName": "Bank", "Key": KEY}}])),
    ("update table: duplicate GSI", "update_table", dict(
        TableName="Bank", AttributeDefinitions=[{"AttributeName": "owner", "AttributeType": "S"}],
        GlobalSecondaryIndexUpdates=[{"Create": {"IndexName": "by-owner", "KeySchema": [
            {"AttributeName": "owner", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}}}])),
    ("create table: exists", "create_table", dict(
        TableName="Bank", BillingMode="PAY_PER_REQUEST", AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])),
]


@pytest.mark.parametrize("operation,request_", [row[1:] for row in FAILING], ids=[row[0] for row in FAILING])
def test_a_failing_call_changes_nothing(operation, request_):
    db = _seeded()
    db.transact_write_items(ClientRequestToken="used", TransactItems=[
        {"ConditionCheck": {"TableName": "Bank", "Key": KEY, "ConditionExpression": "attribute_exists(pk)"}}])
    before = snapshot(db)
    with pytest.raises(DynamoDBError):
        getattr(db, operation)(**request_)
    assert snapshot(db) == before
