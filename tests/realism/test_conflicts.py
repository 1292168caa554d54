"""Issue 33 point 4: transaction conflicts — a transaction holds its items for ``[transactions] duration`` on the
engine's clock; single writes, other transactions, TransactGetItems and batch entries that meet a held item answer
as DynamoDB's developer guide lists, through the item API and PartiQL alike; on the real clock the transaction's
caller waits its duration (outside the engine's lock), and a server awaits it while serving its other clients."""

from __future__ import annotations

import threading
import time

import pytest

import partiql
from partiql.engine.clock import VirtualClock
from partiql.engine.errors import DynamoDBError

TABLE = "CREATE TABLE Orders PRIMARY KEY (pk STRING HASH)"
EXCEPTION = "Transaction is ongoing for the item"
REASON = "Transaction is ongoing for the item."


def _db(duration=0.05, clock=None):
    db = partiql.connect(clock=clock or VirtualClock(), realism={"transactions": {"duration": duration}})
    db.execute(TABLE)
    return db


def _transaction(db) -> None:
    """A transaction writing A and checking B (both held)."""
    db.engine.put_item(TableName="Orders", Item={"pk": "B", "n": 1})
    db.engine.transact_write_items(TransactItems=[
        {"Put": {"TableName": "Orders", "Item": {"pk": "A", "n": 1}}},
        {"ConditionCheck": {"TableName": "Orders", "Key": {"pk": "B"}, "ConditionExpression": "attribute_exists(pk)"}},
    ])


def _outcome(call) -> object:
    try:
        return call()
    except DynamoDBError as error:
        reasons = getattr(error, "reasons", None)
        return (error.code, error.message) if reasons is None else (
            error.code, [(reason.code, reason.message) for reason in reasons])


CANCELLED = "TransactionCanceledException"
CASES = [
    ("PutItem of a held item", lambda db: db.engine.put_item(TableName="Orders", Item={"pk": "A"}),
     ("TransactionConflictException", EXCEPTION)),
    ("UpdateItem of an item the transaction only checks",
     lambda db: db.engine.update_item(TableName="Orders", Key={"pk": "B"}, UpdateExpression="SET n = :n",
                                      ExpressionAttributeValues={":n": 2}),
     ("TransactionConflictException", EXCEPTION)),
    ("DeleteItem of a held item", lambda db: db.engine.delete_item(TableName="Orders", Key={"pk": "A"}),
     ("TransactionConflictException", EXCEPTION)),
    ("another transaction including a held item", lambda db: db.engine.transact_write_items(TransactItems=[
        {"Put": {"TableName": "Orders", "Item": {"pk": "C"}}},
        {"Delete": {"TableName": "Orders", "Key": {"pk": "A"}}}]),
     (CANCELLED, [("None", None), ("TransactionConflict", REASON)])),
    ("TransactGetItems of a held item", lambda db: db.engine.transact_get_items(TransactItems=[
        {"Get": {"TableName": "Orders", "Key": {"pk": "B"}}}, {"Get": {"TableName": "Orders", "Key": {"pk": "C"}}}]),
     (CANCELLED, [("TransactionConflict", REASON), ("None", None)])),
    ("PartiQL UPDATE of a held item", lambda db: db.execute("UPDATE Orders SET n = 3 WHERE pk = 'A'"),
     ("TransactionConflictException", EXCEPTION)),
    ("PartiQL transaction including a held item", lambda db: db.execute_transaction([
        "INSERT INTO Orders VALUE {'pk': 'D'}", "DELETE FROM Orders WHERE pk = 'B'"]),
     (CANCELLED, [("None", None), ("TransactionConflict", REASON)])),
]


@pytest.mark.parametrize("name, call, refused", CASES, ids=[case[0] for case in CASES])
def test_a_held_item_refuses_what_dynamodb_refuses_until_the_transaction_ends(name, call, refused):
    clock = VirtualClock()
    db = _db(clock=clock)
    _transaction(db)
    clock.advance(0.049)
    assert _outcome(lambda: call(db)) == refused
    assert db.engine.realism.conflicts.met >= 1
    clock.advance(0.001)  # (the transaction's 50 ms are over)
    assert not isinstance(_outcome(lambda: call(db)), tuple)


def test_reads_and_other_items_are_never_refused():
    clock = VirtualClock()
    db = _db(clock=clock)
    _transaction(db)
    assert db.engine.get_item(TableName="Orders", Key={"pk": "A"})["Item"]["n"] == 1
    assert [item["pk"] for item in db.execute("SELECT * FROM Orders WHERE pk = 'B'").items] == ["B"]
    db.engine.put_item(TableName="Orders", Item={"pk": "C"})
    assert db.engine.realism.conflicts.met == 0 and db.engine.realism.total == 0


def test_a_batch_hands_back_the_held_entries_and_writes_the_rest():
    clock = VirtualClock()
    db = _db(clock=clock)
    _transaction(db)
    response = db.engine.batch_write_item(RequestItems={"Orders": [
        {"PutRequest": {"Item": {"pk": "A", "n": 9}}}, {"PutRequest": {"Item": {"pk": "C", "n": 9}}},
        {"DeleteRequest": {"Key": {"pk": "B"}}}]})
    assert [list(entry)[0] for entry in response["UnprocessedItems"]["Orders"]] == ["PutRequest", "DeleteRequest"]
    assert db.engine.get_item(TableName="Orders", Key={"pk": "C"})["Item"]["n"] == 9
    assert db.engine.get_item(TableName="Orders", Key={"pk": "A"})["Item"]["n"] == 1
    results = db.execute_batch(["UPDATE Orders SET n = 5 WHERE pk = 'A'", "UPDATE Orders SET n = 5 WHERE pk = 'C'"])
    assert isinstance(results[0], DynamoDBError) and results[0].code == "TransactionConflictException"
    assert results[1].items == [] and db.engine.get_item(TableName="Orders", Key={"pk": "C"})["Item"]["n"] == 5


def test_every_conflict_is_logged_with_its_operation():
    clock = VirtualClock()
    db = _db(clock=clock)
    _transaction(db)
    for call, _ in [(case[1], case[2]) for case in CASES]:
        _outcome(lambda: call(db))
    logged = [(entry.operation, entry.fault) for entry in db.engine.realism.injected]
    assert [operation for operation, _ in logged] == ["PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems",
                                                      "TransactGetItems", "UpdateItem", "TransactWriteItems"]
    assert {fault for _, fault in logged} == {"TransactionConflict (an ongoing transaction holds the item)"}


def test_without_a_duration_nothing_is_held():
    db = _db(duration=0)
    _transaction(db)
    db.engine.put_item(TableName="Orders", Item={"pk": "A"})
    assert db.engine.realism.conflicts.held == {}


def test_on_the_real_clock_the_caller_waits_and_other_threads_meet_the_transaction():
    db = partiql.connect(realism={"transactions": {"duration": 0.4}})
    db.execute(TABLE)
    done, outcomes = {}, []

    def transaction():
        started = time.monotonic()
        _transaction(db)
        done["took"] = time.monotonic() - started
        db.engine.put_item(TableName="Orders", Item={"pk": "A", "n": 2})  # (its own next write: never a conflict)

    def other():
        while "Item" not in db.engine.get_item(TableName="Orders", Key={"pk": "A"}):
            time.sleep(0.005)
        outcomes.append(_outcome(lambda: db.engine.put_item(TableName="Orders", Item={"pk": "A", "n": 3})))

    threads = [threading.Thread(target=transaction), threading.Thread(target=other)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert done["took"] >= 0.4
    assert outcomes == [("TransactionConflictException", EXCEPTION)]
    assert db.engine.get_item(TableName="Orders", Key={"pk": "A"})["Item"]["n"] == 2


def test_a_server_awaits_a_transaction_while_its_other_clients_meet_it(boto3_for):
    from botocore.exceptions import ClientError

    from partiql.server import Server

    db = partiql.connect(realism={"transactions": {"duration": 0.5}, "fault": [
        {"operation": "DescribeTable", "latency": 0.5}]})
    db.execute(TABLE)
    db.engine.put_item(TableName="Orders", Item={"pk": "B", "n": 1})
    seen = {}
    with Server(db, port=0) as running:
        writer, other = boto3_for(running.url), boto3_for(running.url)

        def transaction():
            writer.transact_write_items(TransactItems=[{"Put": {"TableName": "Orders", "Item": {"pk": {"S": "A"}}}}])
            seen["transaction"] = time.monotonic()
            writer.put_item(TableName="Orders", Item={"pk": {"S": "A"}, "n": {"N": "2"}})

        def describe():
            other.describe_table(TableName="Orders")
            seen["described"] = time.monotonic()

        thread = threading.Thread(target=transaction)
        thread.start()
        while "Item" not in other.get_item(TableName="Orders", Key={"pk": {"S": "A"}}):
            time.sleep(0.005)
        with pytest.raises(ClientError) as put:
            other.put_item(TableName="Orders", Item={"pk": {"S": "A"}, "n": {"N": "3"}})
        with pytest.raises(ClientError) as read:
            other.transact_get_items(TransactItems=[{"Get": {"TableName": "Orders", "Key": {"pk": {"S": "A"}}}}])
        seen["refused"] = time.monotonic()
        thread.join(10)
        slow = threading.Thread(target=describe)
        slow.start()
        time.sleep(0.05)
        other.get_item(TableName="Orders", Key={"pk": {"S": "B"}})
        seen["served meanwhile"] = time.monotonic()
        slow.join(10)
        final = other.get_item(TableName="Orders", Key={"pk": {"S": "A"}}, ConsistentRead=True)["Item"]
    db.close()
    assert put.value.response["Error"] == {"Code": "TransactionConflictException", "Message": EXCEPTION}
    assert read.value.response["CancellationReasons"] == [{"Code": "TransactionConflict", "Message": REASON}]
    assert seen["refused"] < seen["transaction"]  # (both met the transaction before its answer came)
    assert seen["served meanwhile"] < seen["described"]  # (an injected latency is awaited, not slept)
    assert final["n"] == {"N": "2"}
