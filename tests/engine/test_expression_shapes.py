"""Issue 34 point 2: a write's expressions are checked in full the first time their shape (texts, names, the
values' placeholders) is seen, and only as their values decide after — so a shape's later requests must answer
exactly as a first one would: the same item, the same error. Each row sends a shape once with good values, then
other values, and compares that answer with a fresh engine's (whose shape cache is empty)."""

from __future__ import annotations

import pytest

import partiql
from partiql.engine.errors import DynamoDBError
from partiql.engine.requests import items

TABLE = "CREATE TABLE Shapes PRIMARY KEY (pk STRING HASH)"


def _engine():
    db = partiql.connect()
    db.execute(TABLE)
    db.engine.put_item(TableName="Shapes", Item={"pk": "a", "n": 1, "s": "text", "tags": ["x"], "set": {"p"}})
    return db.engine


def _answer(engine, operation: str, request: dict):
    try:
        return getattr(engine, operation)(**request), engine.get_item(TableName="Shapes", Key={"pk": "a"})
    except DynamoDBError as error:
        return error.code, error.message


UPDATE = {"TableName": "Shapes", "Key": {"pk": "a"}, "ReturnValues": "ALL_NEW"}
ROWS = [
    ("arithmetic", "update_item", dict(UPDATE, UpdateExpression="SET n = n + :d"), {":d": 1}, {":d": "two"}),
    ("ADD of a number onto a set", "update_item", dict(UPDATE, UpdateExpression="ADD #s :v",
                                                       ExpressionAttributeNames={"#s": "set"}),
     {":v": {"q"}}, {":v": 3}),
    ("list_append", "update_item", dict(UPDATE, UpdateExpression="SET tags = list_append(tags, :t)"),
     {":t": ["y"]}, {":t": "y"}),
    ("BETWEEN's order", "update_item", dict(UPDATE, UpdateExpression="SET n = :n",
                                            ConditionExpression="n BETWEEN :lo AND :hi"),
     {":n": 2, ":lo": 0, ":hi": 5}, {":n": 2, ":lo": 9, ":hi": 5}),
    ("BETWEEN's types", "update_item", dict(UPDATE, UpdateExpression="SET n = :n",
                                            ConditionExpression="n BETWEEN :lo AND :hi"),
     {":n": 2, ":lo": 0, ":hi": 5}, {":n": 2, ":lo": "a", ":hi": 5}),
    ("attribute_type's name", "put_item", {"TableName": "Shapes", "Item": {"pk": "b"},
                                           "ConditionExpression": "attribute_type(n, :t)"},
     {":t": "N"}, {":t": "NUMBER"}),
    ("begins_with's operand", "delete_item", {"TableName": "Shapes", "Key": {"pk": "zz"},
                                              "ConditionExpression": "begins_with(s, :p) OR attribute_not_exists(s)"},
     {":p": "t"}, {":p": 5}),
    ("a failed condition", "update_item", dict(UPDATE, UpdateExpression="SET n = :n", ConditionExpression="n = :n"),
     {":n": 1}, {":n": 7}),
    ("the update's own values", "update_item", dict(UPDATE, UpdateExpression="SET s = :v, n = :w"),
     {":v": "one", ":w": 1}, {":v": "two", ":w": 2}),
]


@pytest.mark.parametrize("name, operation, request_, first, second", ROWS, ids=[row[0] for row in ROWS])
def test_a_shape_s_later_request_answers_as_a_first_one_would(name, operation, request_, first, second):
    seen = _engine()
    assert _answer(seen, operation, dict(request_, ExpressionAttributeValues=first))[0] != "ValidationException"
    later = _answer(seen, operation, dict(request_, ExpressionAttributeValues=second))
    items._PASSED.clear()  # (a first request of the shape again: every check)
    fresh = _answer(_engine(), operation, dict(request_, ExpressionAttributeValues=second))
    assert later == fresh


def test_a_shape_that_failed_is_checked_in_full_again():
    engine = _engine()
    request = dict(UPDATE, UpdateExpression="SET n = :n", ExpressionAttributeValues={":n": 1, ":unused": 2})
    for _ in range(2):
        assert _answer(engine, "update_item", request) == (
            "ValidationException",
            "1 validation error detected: Value provided in ExpressionAttributeValues unused in expressions: keys: "
            "{:unused}")
