"""How a throttle looks, request by request (spec throughput.md §5), on a virtual clock.

Each table starts with its 300-second burst; the tests drain it in one
instant of the clock (so no refill) and then make the request under test.
"""

from __future__ import annotations

import pytest

import partiql
from partiql.engine.clock import VirtualClock
from partiql.engine.errors import (ConditionalCheckFailedException, ProvisionedThroughputExceededException,
                                   ThrottlingException, TransactionCanceledException)
from partiql.engine.requests.wire import error_to_wire, wire_call
from partiql.wire import statement_call

from .workload import table_request

ARN = "arn:aws:dynamodb:us-east-1:123456789012:table/"
TABLE_MESSAGE = ("The level of configured provisioned throughput for the table was exceeded. Consider increasing "
                 "your provisioning level with the UpdateTable API.")
KB = "x" * 1000


@pytest.fixture
def db():
    """An enforcing database: ``Tab`` (1 RCU, 1 WCU: bursts of 300 units) and a roomy ``Other``."""
    connection = partiql.connect(throughput="enforce", clock=VirtualClock(5_000.0))
    call(connection, "CreateTable", table_request("Tab", 1, 1))
    call(connection, "CreateTable", table_request("Other", 1000, 1000))
    yield connection
    connection.close()


def call(db, operation: str, request: dict) -> dict:
    return wire_call(db.engine, operation, request)


def put(key: str, value: str = KB) -> dict:
    return {"TableName": "Tab", "Item": {"pk": {"S": key}, "v": {"S": value}}}


def level(db, direction: int, table: str = "Tab") -> float:
    """What ``table``'s bucket holds now (0 read, 1 write)."""
    engine = db.engine
    side = engine.throughput.state(engine.table(table)).resources[None].sides[direction]
    return side.bucket.level_at(engine.clock())


def drain_writes(db, leave: int = 0) -> None:
    """Write 1 KB items (1 WCU each) until ``leave`` write units are left."""
    for i in range(int(level(db, 1)) - leave):
        call(db, "PutItem", put(f"drain{i}"))
    assert level(db, 1) == leave


def drain_reads(db, leave: float = 0.0) -> None:
    """Read (half a unit each) until ``leave`` read units are left."""
    for _ in range(int((level(db, 0) - leave) * 2)):
        call(db, "GetItem", {"TableName": "Tab", "Key": {"pk": {"S": "nothing"}}})
    assert level(db, 0) == leave


def refused(db, operation: str, request: dict, expected=ProvisionedThroughputExceededException):
    with pytest.raises(expected) as caught:
        call(db, operation, request)
    return caught.value


def reasons_of(error) -> list:
    return [(r["reason"], r["resource"]) for r in error.throttling_reasons]


WRITES = [
    ("PutItem", put("new")),
    ("UpdateItem", {"TableName": "Tab", "Key": {"pk": {"S": "drain0"}}, "UpdateExpression": "SET n = :n",
                    "ExpressionAttributeValues": {":n": {"N": "1"}}}),
    ("DeleteItem", {"TableName": "Tab", "Key": {"pk": {"S": "drain0"}}}),
]


@pytest.mark.parametrize("operation, request_", WRITES, ids=[w[0] for w in WRITES])
def test_a_single_item_write_is_refused_whole_with_its_reason(db, operation, request_):
    drain_writes(db)
    before = db.engine.table("Tab").get("drain0").item
    error = refused(db, operation, request_)
    assert error.message == TABLE_MESSAGE
    assert reasons_of(error) == [("TableWriteProvisionedThroughputExceeded", ARN + "Tab")]
    assert error_to_wire(error) == {
        "__type": "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
        "message": TABLE_MESSAGE,
        "ThrottlingReasons": [{"reason": "TableWriteProvisionedThroughputExceeded", "resource": ARN + "Tab"}]}
    assert db.engine.table("Tab").get("new") is None
    assert db.engine.table("Tab").get("drain0").item == before  # nothing changed


def test_a_failed_condition_is_charged_so_a_throttle_wins_over_it(db):
    drain_writes(db)
    request = dict(put("drain1"), ConditionExpression="attribute_not_exists(pk)")
    refused(db, "PutItem", request)
    call(db, "UpdateTable", {"TableName": "Tab", "ProvisionedThroughput": {"ReadCapacityUnits": 1,
                                                                         "WriteCapacityUnits": 10}})
    with pytest.raises(ConditionalCheckFailedException):  # a raised table has a full bucket again
        call(db, "PutItem", request)


READS = [
    ("GetItem", {"TableName": "Tab", "Key": {"pk": {"S": "k"}}}),
    ("Query", {"TableName": "Tab", "KeyConditionExpression": "pk = :p",
               "ExpressionAttributeValues": {":p": {"S": "k"}}}),
    ("Scan", {"TableName": "Tab"}),
]


@pytest.mark.parametrize("operation, request_", READS, ids=[r[0] for r in READS])
def test_reads_are_admitted_while_the_bucket_is_above_zero(db, operation, request_):
    drain_reads(db, leave=0.5)
    call(db, operation, request_)  # admitted at 0.5 left, then charged what it read: the bucket goes negative
    error = refused(db, operation, request_)
    assert reasons_of(error) == [("TableReadProvisionedThroughputExceeded", ARN + "Tab")]


def test_batch_write_returns_the_throttled_entries_unprocessed(db):
    drain_writes(db, leave=10)
    writes = [{"PutRequest": {"Item": {"pk": {"S": f"b{i}"}, "v": {"S": KB}}}} for i in range(25)]
    response = call(db, "BatchWriteItem", {"RequestItems": {"Tab": writes}})
    assert response["UnprocessedItems"] == {"Tab": writes[10:]}
    table = db.engine.table("Tab")
    assert [table.get(f"b{i}") is not None for i in range(25)] == [True] * 10 + [False] * 15


def test_batch_write_fails_only_when_nothing_was_served(db):
    drain_writes(db)
    writes = [{"PutRequest": {"Item": {"pk": {"S": f"b{i}"}, "v": {"S": KB}}}} for i in range(3)]
    error = refused(db, "BatchWriteItem", {"RequestItems": {"Tab": writes}})
    assert reasons_of(error) == [("TableWriteProvisionedThroughputExceeded", ARN + "Tab")]


def test_batch_get_returns_the_throttled_keys_unprocessed(db):
    drain_reads(db, leave=2)
    keys = [{"pk": {"S": f"k{i}"}} for i in range(25)]
    request = {"RequestItems": {"Tab": {"Keys": keys, "ProjectionExpression": "pk"},
                                "Other": {"Keys": [{"pk": {"S": "x"}}]}}}
    response = call(db, "BatchGetItem", request)
    # 2 units at half a unit each: four keys served, the rest back as the request spelt them
    assert response["UnprocessedKeys"] == {"Tab": {"Keys": keys[4:], "ProjectionExpression": "pk"}}
    refused_only = {"RequestItems": {"Tab": {"Keys": keys[:2]}}}
    error = refused(db, "BatchGetItem", refused_only)
    assert reasons_of(error) == [("TableReadProvisionedThroughputExceeded", ARN + "Tab")]


def test_a_transaction_is_cancelled_naming_its_throttled_member(db):
    drain_writes(db)
    request = {"TransactItems": [{"Put": {"TableName": "Other", "Item": {"pk": {"S": "a"}}}},
                                 {"Put": put("t1")}]}
    with pytest.raises(TransactionCanceledException) as caught:
        call(db, "TransactWriteItems", request)
    assert [(r.code, r.message) for r in caught.value.reasons] == [
        ("None", None), ("ProvisionedThroughputExceeded", TABLE_MESSAGE)]
    assert db.engine.table("Other").get("a") is None


def test_a_read_transaction_is_cancelled_naming_its_throttled_member(db):
    drain_reads(db)
    request = {"TransactItems": [{"Get": {"TableName": "Other", "Key": {"pk": {"S": "a"}}}},
                                 {"Get": {"TableName": "Tab", "Key": {"pk": {"S": "k"}}}}]}
    with pytest.raises(TransactionCanceledException) as caught:
        call(db, "TransactGetItems", request)
    assert [r.code for r in caught.value.reasons] == ["None", "ProvisionedThroughputExceeded"]


def test_partiql_statements_throttle_as_their_operations_do(db):
    drain_writes(db)
    with pytest.raises(ProvisionedThroughputExceededException) as caught:
        db.execute("INSERT INTO Tab VALUE {'pk': 'p1'}")
    assert reasons_of(caught.value) == [("TableWriteProvisionedThroughputExceeded", ARN + "Tab")]
    results = db.execute_batch(["INSERT INTO Other VALUE {'pk': 'p2'}", "INSERT INTO Tab VALUE {'pk': 'p3'}"])
    assert results[1].code == "ProvisionedThroughputExceededException"
    batch = statement_call(db, "BatchExecuteStatement",
                           {"Statements": [{"Statement": "INSERT INTO Tab VALUE {'pk': 'p4'}"}]})
    assert batch["Responses"][0]["Error"] == {"Code": "ProvisionedThroughputExceeded", "Message": TABLE_MESSAGE}
    with pytest.raises(TransactionCanceledException) as cancelled:
        db.execute_transaction(["INSERT INTO Other VALUE {'pk': 'p5'}", "INSERT INTO Tab VALUE {'pk': 'p6'}"])
    assert [r.code for r in cancelled.value.reasons] == ["None", "ProvisionedThroughputExceeded"]
    assert db.engine.table("Other").get("p5") is None


def test_on_demand_throttles_with_throttling_exception_and_its_member_spelling():
    db = partiql.connect(throughput="enforce", clock=VirtualClock(0.0))
    call(db, "CreateTable", table_request("Hot", None))
    for i in range(1000):
        call(db, "PutItem", {"TableName": "Hot", "Item": {"pk": {"S": "k"}, "v": {"S": KB}}})
    with pytest.raises(ThrottlingException) as caught:
        call(db, "PutItem", {"TableName": "Hot", "Item": {"pk": {"S": "k"}}})
    body = error_to_wire(caught.value)
    assert body["__type"] == "com.amazonaws.dynamodb.v20120810#ThrottlingException"
    assert body["throttlingReasons"] == [{"reason": "TableWriteKeyRangeThroughputExceeded", "resource": ARN + "Hot"}]
    assert "ThrottlingReasons" not in body
    db.engine.clock.advance(1.0)  # a new second: the partition serves again
    call(db, "PutItem", {"TableName": "Hot", "Item": {"pk": {"S": "k"}}})


def test_report_mode_serves_and_warns_in_the_result():
    db = partiql.connect(clock=VirtualClock(0.0))  # report is the default
    call(db, "CreateTable", table_request("Tab", 1, 1))
    for i in range(300):
        db.execute(f"INSERT INTO Tab VALUE {{'pk': 'k{i}'}}")
    result = db.execute("INSERT INTO Tab VALUE {'pk': 'over'}")
    assert db.engine.table("Tab").get("over") is not None
    assert result.warnings == ["TableWriteProvisionedThroughputExceeded on Tab partition 1/1: key 'over': the "
                               "provisioned WCU and the burst are used up (0.0 WCU left, 1.0 needed)"]
    assert db.execute("SELECT * FROM Tab WHERE pk = 'k1'").warnings == []  # reads have their own bucket


def test_off_counts_nothing():
    db = partiql.connect(throughput="off", clock=VirtualClock(0.0))
    call(db, "CreateTable", table_request("Tab", 1, 1))
    for i in range(400):
        call(db, "PutItem", {"TableName": "Tab", "Item": {"pk": {"S": f"k{i}"}}})
    assert not db.engine.throughput.warnings
    assert db.engine.table("Tab").item_count == 400


@pytest.mark.parametrize("kwargs, message", [
    ({"throughput": "on"}, "throughput takes one of off, report, enforce, got 'on'"),
    ({"adaptive_capacity": "yes"}, "adaptive_capacity takes True or False, got 'yes'"),
])
def test_bad_switches_are_refused_before_anything_opens(tmp_path, kwargs, message):
    with pytest.raises(ValueError) as caught:
        partiql.connect(tmp_path / "x.db", **kwargs)
    assert str(caught.value) == message
    assert not (tmp_path / "x.db").exists()
