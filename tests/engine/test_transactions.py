"""TransactWriteItems / TransactGetItems (item-api §5.15, §5.16): all or nothing.

Rows are transactions over a seeded table and what must come of them: the
cancellation reasons in request order (codes None / ConditionalCheckFailed /
ValidationError, with messages and ALL_OLD items), or a whole-request error,
and in every failing case an engine exactly as before.
"""

from __future__ import annotations

import json

import pytest

from partiql.engine import Engine, limits
from partiql.engine.errors import DynamoDBError, ValidationException

from .helpers import create, key_schema, reasons, snapshot

CCF = {"Code": "ConditionalCheckFailed", "Message": "The conditional request failed"}
NONE = {"Code": "None"}


@pytest.fixture
def db() -> Engine:
    engine = Engine()
    for name in ("Accounts", "Ledger"):
        create(engine, name)
    for pk, balance in (("a", 10), ("b", 5), ("c", 0)):
        engine.put_item(TableName="Accounts", Item={"pk": pk, "balance": balance, "name": pk.upper()})
    engine.put_item(TableName="Ledger", Item={"pk": "a", "text": "x"})
    return engine


def put(pk, table="Accounts", **extra):
    return {"Put": {"TableName": table, "Item": {"pk": pk, **extra.pop("item", {})}, **extra}}


def update(pk, expression, values=None, table="Accounts", **extra):
    body = {"TableName": table, "Key": {"pk": pk}, "UpdateExpression": expression, **extra}
    if values:
        body["ExpressionAttributeValues"] = values
    return {"Update": body}


def delete(pk, table="Accounts", **extra):
    return {"Delete": {"TableName": table, "Key": {"pk": pk}, **extra}}


def check(pk, condition, values=None, table="Accounts", **extra):
    body = {"TableName": table, "Key": {"pk": pk}, "ConditionExpression": condition, **extra}
    if values:
        body["ExpressionAttributeValues"] = values
    return {"ConditionCheck": body}


# (id, TransactItems, expected reasons in order)
CANCELLED = [
    ("one failing condition", [put("new"), check("a", "balance > :n", {":n": 100})], [NONE, CCF]),
    ("every condition is evaluated", [check("a", "balance > :n", {":n": 100}), put("new"),
                                      delete("b", ConditionExpression="attribute_not_exists(pk)")], [CCF, NONE, CCF]),
    ("ALL_OLD items in reasons", [
        update("a", "SET balance = :z", {":z": 0, ":n": 100}, ConditionExpression="balance > :n",
               ReturnValuesOnConditionCheckFailure="ALL_OLD"),
        delete("b", ConditionExpression="attribute_not_exists(pk)", ReturnValuesOnConditionCheckFailure="ALL_OLD"),
        check("c", "balance > :n", {":n": 1}, ReturnValuesOnConditionCheckFailure="NONE"),
        put("nobody", ConditionExpression="attribute_exists(pk)", ReturnValuesOnConditionCheckFailure="ALL_OLD")],
     [dict(CCF, Item={"pk": "a", "balance": 10, "name": "A"}), dict(CCF, Item={"pk": "b", "balance": 5, "name": "B"}),
      CCF, CCF]),
    ("a validation error is the only reason", [
        check("a", "balance > :n", {":n": 100}), put("new"),
        update("a", "SET #n = #n + :one", {":one": 1}, table="Ledger", ExpressionAttributeNames={"#n": "text"})],
     [NONE, NONE, {"Code": "ValidationError",
                   "Message": "An operand in the update expression has an incorrect data type"}]),
    ("only the first validation error", [
        update("a", "SET q = zz + :one", {":one": 1}),
        update("b", "SET #n = #n + :one", {":one": 1}, ExpressionAttributeNames={"#n": "name"})],
     [{"Code": "ValidationError", "Message": "The provided expression refers to an attribute that does not exist "
                                             "in the item"}, NONE]),
    ("an update too large", [update("a", "SET big = :big", {":big": "x" * limits.MAX_ITEM_BYTES})],
     [{"Code": "ValidationError", "Message": "Item size to update has exceeded the maximum allowed size"}]),
]


@pytest.mark.parametrize("items,expected", [row[1:] for row in CANCELLED], ids=[row[0] for row in CANCELLED])
def test_cancelled_transactions_change_nothing(db, items, expected):
    before = snapshot(db)
    with pytest.raises(DynamoDBError) as caught:
        db.transact_write_items(TransactItems=items)
    error = caught.value
    assert error.code == "TransactionCanceledException"
    codes = ", ".join(reason["Code"] for reason in expected)
    assert error.message == f"Transaction cancelled, please refer cancellation reasons for specific reasons [{codes}]"
    assert reasons(error) == expected
    assert snapshot(db) == before


def test_index_key_type_cancels():
    db = Engine()
    create(db, "Gsi", types={"pk": "S", "g": "S"}, GlobalSecondaryIndexes=[
        {"IndexName": "byg", "KeySchema": key_schema("g"), "Projection": {"ProjectionType": "ALL"}}])
    before = snapshot(db)
    with pytest.raises(DynamoDBError) as caught:
        db.transact_write_items(TransactItems=[put("ok", table="Gsi"),
                                               update("x", "SET g = :n", {":n": 1}, table="Gsi")])
    assert reasons(caught.value) == [NONE, {
        "Code": "ValidationError", "Message": "One or more parameter values were invalid: Type mismatch for Index "
                                              "Key g Expected: S Actual: N IndexName: byg"}]
    assert snapshot(db) == before


# (id, TransactItems, error code, exact message) — whole-request errors, nothing executed
REJECTED = [
    ("same item twice", [put("a"), check("a", "attribute_exists(pk)")], "ValidationException",
     "Transaction request cannot include multiple operations on one item"),
    ("same item: update and delete", [update("b", "SET x = :x", {":x": 1}), delete("b")], "ValidationException",
     "Transaction request cannot include multiple operations on one item"),
    ("no action", [{}], "ValidationException",
     "Invalid Request: TransactWriteRequest should contain Delete or Put or Update request"),
    ("two actions in one", [{**put("x"), **delete("y")}], "ValidationException",
     "TransactItems can only contain one of Check, Put, Update or Delete"),
    ("missing table", [put("x"), put("y", table="NoSuchTable")], "ResourceNotFoundException",
     "Requested resource not found"),
    # recorded-2026-11 B3: the actions are checked one at a time, in request order
    ("an earlier action's missing table beats a later expression error", [
        put("y", table="NoSuchTable"), update("a", "SET", {":x": 1})], "ResourceNotFoundException",
     "Requested resource not found"),
    ("an earlier expression error beats a later missing table", [
        update("a", "SET", {":x": 1}), put("y", table="NoSuchTable")], "ValidationException",
     'Invalid UpdateExpression: Syntax error; token: "<EOF>", near: "SET"'),
    ("unused names", [check("a", "attribute_exists(pk)", ExpressionAttributeNames={"#count": "count"})],
     "ValidationException", "Value provided in ExpressionAttributeNames unused in expressions: keys: {#count}"),
    ("repeated SET", [update("a", "SET x = :x SET y = :x", {":x": 1})], "ValidationException",
     'Invalid UpdateExpression: The "SET" section can only be used once in an update expression;'),
    ("update of a key", [update("a", "SET pk = :x", {":x": "z"})], "ValidationException",
     "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key"),
    ("wrong key", [delete("a", table="Ledger"), {"Delete": {"TableName": "Accounts", "Key": {"id": "a"}}}],
     "ValidationException", "The provided key element does not match the schema"),
    ("101 actions", [put(f"k{i}") for i in range(101)], "ValidationException", None),
    ("no actions", [], "ValidationException",
     "1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: Member must have "
     "length greater than or equal to 1"),
    ("bad ReturnValuesOnConditionCheckFailure", [check("a", "attribute_exists(pk)",
                                                       ReturnValuesOnConditionCheckFailure="ALL_NEW")],
     "ValidationException", "1 validation error detected: Value 'ALL_NEW' at "
                            "'transactItems.1.member.conditionCheck.returnValuesOnConditionCheckFailure' failed to "
                            "satisfy constraint: Member must satisfy enum value set: [ALL_OLD, NONE]"),
]


@pytest.mark.parametrize("items,code,message", [row[1:] for row in REJECTED], ids=[row[0] for row in REJECTED])
def test_rejected_transactions_change_nothing(db, items, code, message):
    before = snapshot(db)
    with pytest.raises(DynamoDBError) as caught:
        db.transact_write_items(TransactItems=items)
    assert caught.value.code == code
    if message is not None:
        assert caught.value.message == message
    else:
        assert caught.value.message.endswith("at 'transactItems' failed to satisfy constraint: Member must have "
                                             "length less than or equal to 100")
    assert snapshot(db) == before


def test_a_transaction_applies_every_action(db):
    response = db.transact_write_items(TransactItems=[
        update("a", "SET balance = balance - :n", {":n": 3, ":min": 3}, ConditionExpression="balance >= :min"),
        update("b", "SET balance = balance + :n", {":n": 3}),
        delete("c"), put("d", item={"balance": 0}), check("a", "attribute_exists(pk)", table="Ledger")],
        ReturnConsumedCapacity="TOTAL")
    assert response == {"ConsumedCapacity": [
        {"TableName": "Accounts", "CapacityUnits": 8.0, "WriteCapacityUnits": 8.0},
        {"TableName": "Ledger", "CapacityUnits": 2.0, "ReadCapacityUnits": 2.0}]}
    balances = {item["pk"]: item["balance"] for item in db.scan(TableName="Accounts")["Items"]}
    assert balances == {"a": 7, "b": 8, "d": 0}


def test_condition_check_writes_nothing(db):
    before = snapshot(db)
    assert db.transact_write_items(TransactItems=[check("a", "balance = :b", {":b": 10})]) == {}
    assert snapshot(db) == before


def test_same_key_in_two_tables_is_two_items(db):
    db.transact_write_items(TransactItems=[put("a", item={"v": 1}), put("a", table="Ledger")])
    assert db.get_item(TableName="Ledger", Key={"pk": "a"})["Item"] == {"pk": "a"}


def test_idempotency_token(db):
    request = dict(TransactItems=[update("a", "ADD balance :one", {":one": 1})], ClientRequestToken="t-1",
                   ReturnConsumedCapacity="TOTAL")
    first = db.transact_write_items(**request)
    assert db.transact_write_items(**request) == first
    assert db.get_item(TableName="Accounts", Key={"pk": "a"})["Item"]["balance"] == 11
    with pytest.raises(DynamoDBError) as caught:
        db.transact_write_items(**dict(request, TransactItems=[update("b", "ADD balance :one", {":one": 1})]))
    assert caught.value.code == "IdempotentParameterMismatchException"
    db.transact_write_items(**dict(request, ClientRequestToken="t-2"))
    assert db.get_item(TableName="Accounts", Key={"pk": "a"})["Item"]["balance"] == 12


def test_idempotency_window_expires(db, monkeypatch):
    request = dict(TransactItems=[update("a", "ADD balance :one", {":one": 1})], ClientRequestToken="t-1")
    db.transact_write_items(**request)
    monkeypatch.setattr(limits, "IDEMPOTENCY_WINDOW_SECONDS", 0)
    db.transact_write_items(**request)
    assert db.get_item(TableName="Accounts", Key={"pk": "a"})["Item"]["balance"] == 12


def test_token_too_long(db):
    with pytest.raises(DynamoDBError) as caught:
        db.transact_write_items(TransactItems=[put("x")], ClientRequestToken="t" * 37)
    assert caught.value.message == ("1 validation error detected: Value '" + "t" * 37 + "' at 'clientRequestToken' "
                                    "failed to satisfy constraint: Member must have length less than or equal to 36")


def test_transact_get_items(db):
    response = db.transact_get_items(TransactItems=[
        {"Get": {"TableName": "Accounts", "Key": {"pk": "b"}, "ProjectionExpression": "balance"}},
        {"Get": {"TableName": "Accounts", "Key": {"pk": "zz"}}},
        {"Get": {"TableName": "Ledger", "Key": {"pk": "a"}}}], ReturnConsumedCapacity="TOTAL")
    assert response == {"Responses": [{"Item": {"balance": 5}}, {}, {"Item": {"pk": "a", "text": "x"}}],
                        "ConsumedCapacity": [
                            {"TableName": "Accounts", "CapacityUnits": 4.0, "ReadCapacityUnits": 4.0},
                            {"TableName": "Ledger", "CapacityUnits": 2.0, "ReadCapacityUnits": 2.0}]}


GET_REJECTED = [
    ("same item twice", [{"Get": {"TableName": "Accounts", "Key": {"pk": "a"}}}] * 2, "ValidationException",
     "Transaction request cannot include multiple operations on one item"),
    ("unused names", [{"Get": {"TableName": "Accounts", "Key": {"pk": "a"}, "ProjectionExpression": "#b",
                                "ExpressionAttributeNames": {"#b": "balance", "#qq": "q"}}}],
     "ValidationException", "Value provided in ExpressionAttributeNames unused in expressions: keys: {#qq}"),
    ("missing table", [{"Get": {"TableName": "NoSuchTable", "Key": {"pk": "a"}}}], "ResourceNotFoundException",
     "Requested resource not found"),
    ("no Get", [{}], "ValidationException",
     "1 validation error detected: Value null at 'transactItems.1.member.get' failed to satisfy constraint: "
     "Member must not be null"),
]


@pytest.mark.parametrize("items,code,message", [row[1:] for row in GET_REJECTED], ids=[row[0] for row in GET_REJECTED])
def test_rejected_transact_gets(db, items, code, message):
    with pytest.raises(DynamoDBError) as caught:
        db.transact_get_items(TransactItems=items)
    assert (caught.value.code, caught.value.message) == (code, message)


# The 4 MB limit is on the request as sent (item-api §5.15), not on the items it touches.
BIG = "x" * 390_000  # 11 of these exceed 4 MB, 10 do not; each is a valid item below 400 KB


def _wire_size(items: list) -> int:
    """The request as an SDK sends it, built by hand: compact JSON, type-tagged values."""
    wire = {"TransactItems": [{"Put": {"TableName": "Accounts",
                                       "Item": {"pk": {"S": body["Put"]["Item"]["pk"]}, "v": {"S": BIG}}}}
                              for body in items]}
    return len(json.dumps(wire, separators=(",", ":")).encode("utf-8"))


def test_a_transaction_over_4_mb_is_rejected_with_its_size(db):
    items = [put(f"big{i}", item={"v": BIG}) for i in range(11)]
    before = snapshot(db)
    with pytest.raises(ValidationException) as caught:
        db.transact_write_items(TransactItems=items)
    assert caught.value.message == f"Transaction payload size cannot exceed 4MB. Payload Size: {_wire_size(items)}"
    assert snapshot(db) == before


def test_expression_values_count_toward_the_payload(db):
    items = [update(f"big{i}", "SET v = :v", {":v": BIG}) for i in range(11)]
    with pytest.raises(ValidationException, match="Transaction payload size cannot exceed 4MB"):
        db.transact_write_items(TransactItems=items)


def test_the_payload_limit_is_on_the_request_not_the_items_touched(db):
    db.transact_write_items(TransactItems=[put(f"big{i}", item={"v": BIG}) for i in range(10)])  # 3.9 MB: allowed
    db.transact_write_items(TransactItems=[put(f"big{i}", item={"v": BIG}) for i in range(10, 12)])
    db.transact_write_items(TransactItems=[delete(f"big{i}") for i in range(12)])  # touches 4.7 MB of items
    assert all("Item" not in db.get_item(TableName="Accounts", Key={"pk": f"big{i}"}) for i in range(12))
