"""Deep nesting on every surface (#12.2): a bounded depth and DynamoDB's error, never a RecursionError.

* Values: up to 32 levels can be stored (item-api §1); values nested past
  ``limits.MAX_VALUE_DEPTH`` are refused where they come in (Python values,
  wire JSON, the envelope) with DynamoDB's ``Nesting Levels have exceeded
  supported limits``.
* Statements: at most ``checks.MAX_STATEMENT_DEPTH`` syntax-tree levels,
  measured iteratively; deeper is ``Statement is nested too deeply``. Up to
  the bound every stage runs — checked from a call stack already 150 frames
  deep, as a server thread or the shell may be.
* Expressions: DynamoDB's 300-operator limit bounds their depth; at the
  limit the compiled condition (NOT NOT … folded) evaluates.
"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

import partiql
from partiql.checks import MAX_STATEMENT_DEPTH
from partiql.engine import limits
from partiql.engine.errors import SerializationException, ValidationException
from partiql.engine.requests.wire import wire_call
from partiql.server.handler import Handler

NESTING = "Nesting Levels have exceeded supported limits"
TOO_DEEP = "Statement is nested too deeply"
TABLE = {"TableName": "Tab", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
         "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}], "BillingMode": "PAY_PER_REQUEST"}


@pytest.fixture
def db():
    db = partiql.connect()
    wire_call(db.engine, "CreateTable", dict(TABLE))
    db.execute("INSERT INTO Tab VALUE {'pk': 'a', 'x': 1, 'n': 0}")
    yield db
    db.close()


def python_map(levels):
    value = 1
    for _ in range(levels):
        value = {"a": value}
    return value


def python_list(levels):
    value = 1
    for _ in range(levels):
        value = [value]
    return value


def wire_map(levels):
    value = {"N": "1"}
    for _ in range(levels):
        value = {"M": {"a": value}}
    return value


def wire_list(levels):
    value = {"N": "1"}
    for _ in range(levels):
        value = {"L": [value]}
    return value


def on_deep_stack(function, frames=150):
    """``function()`` called from ``frames`` extra frames down the stack."""
    if frames == 0:
        return function()
    return on_deep_stack(function, frames - 1)


DEEP = [limits.MAX_VALUE_DEPTH + 1, 600, 5000]


# ------------------------------------------------------------------- values

@pytest.mark.parametrize("levels", DEEP)
@pytest.mark.parametrize("make", [python_map, python_list], ids=["map", "list"])
def test_deep_parameters_are_the_nesting_error(db, make, levels):
    for statement in ("INSERT INTO Tab VALUE {'pk': 'b', 'x': ?}", "SELECT * FROM Tab WHERE pk = 'a' AND x = ?",
                      "UPDATE Tab SET y = ? WHERE pk = 'a'"):
        with pytest.raises(ValidationException) as caught:
            db.execute(statement, [make(levels)])
        assert caught.value.message == NESTING
    assert db.execute("SELECT * FROM Tab").items == [{"pk": "a", "x": 1, "n": 0}]


@pytest.mark.parametrize("levels", DEEP)
@pytest.mark.parametrize("make", [wire_map, wire_list], ids=["map", "list"])
@pytest.mark.parametrize("operation, request_", [
    ("PutItem", lambda v: {"Item": {"pk": {"S": "b"}, "x": v}}),
    ("PutItem", lambda v: {"Item": {"pk": {"S": "b"}}, "ConditionExpression": "x = :v",
                           "ExpressionAttributeValues": {":v": v}}),
    ("UpdateItem", lambda v: {"Key": {"pk": {"S": "a"}}, "UpdateExpression": "SET y = :v",
                              "ExpressionAttributeValues": {":v": v}}),
    ("TransactWriteItems", lambda v: {"TransactItems": [{"Put": {"TableName": "Tab",
                                                                 "Item": {"pk": {"S": "b"}, "x": v}}}]}),
], ids=["put", "condition", "update", "transact"])
def test_deep_wire_values_are_the_nesting_error(db, make, levels, operation, request_):
    request_ = request_(make(levels))
    if operation != "TransactWriteItems":
        request_ = {"TableName": "Tab", **request_}
    with pytest.raises(ValidationException) as caught:
        wire_call(db.engine, operation, request_)
    assert caught.value.message == NESTING
    client = partiql.client(db)
    call = {"PutItem": client.put_item, "UpdateItem": client.update_item,
            "TransactWriteItems": client.transact_write_items}[operation]
    with pytest.raises(client.exceptions.ClientError) as raised:
        call(**request_)
    assert raised.value.response["Error"]["Message"] == NESTING
    assert db.execute("SELECT * FROM Tab").items == [{"pk": "a", "x": 1, "n": 0}]


@pytest.mark.parametrize("levels, expected", [(31, None), (32, NESTING), (limits.MAX_VALUE_DEPTH, NESTING)])
def test_items_hold_32_levels_as_before(db, levels, expected):
    """The store's own limit is unchanged: 31 nested maps under an attribute fit, 32 do not."""
    request_ = {"TableName": "Tab", "Item": {"pk": {"S": "b"}, "x": wire_map(levels)}}
    if expected is None:
        wire_call(db.engine, "PutItem", request_)
        assert len(db.execute("SELECT * FROM Tab").items) == 2
    else:
        with pytest.raises(ValidationException, match=expected):
            wire_call(db.engine, "PutItem", request_)


@pytest.mark.parametrize("levels, error", [(250, "ValidationException"), (20_000, "SerializationException")])
def test_http_bodies_nested_deep(db, levels, error):
    """250 levels parse and are the nesting error; past what JSON decoding takes, a SerializationException."""
    body = ('{"TableName": "Tab", "Item": {"pk": {"S": "b"}, "x": ' + '{"L": [' * levels + '{"N": "1"}'
            + ']}' * levels + '}}').encode()
    status, _, out = Handler(db, address="localhost:1").handle(
        "DynamoDB_20120810.PutItem", {"content-type": "application/x-amz-json-1.0"}, body)
    assert status == 400 and json.loads(out)["__type"].endswith("#" + error)


def test_deep_serialization_fault_still_comes_first(db):
    with pytest.raises(SerializationException):
        wire_call(db.engine, "PutItem", {"TableName": "Tab", "Item": {"pk": {"S": "b"}, "x": {"L": 5}}})


# --------------------------------------------------------------- statements

def _chain(kind, n):
    return {
        "not": "SELECT * FROM Tab WHERE pk = 'a' AND " + "NOT " * n + "x = 1",
        "and": "SELECT * FROM Tab WHERE pk = 'a' AND " + " AND ".join(["x = 1"] * n),
        "not-and": "SELECT * FROM Tab WHERE pk = 'a' AND " + "NOT (x = 2 AND " * n + "x = 1" + ")" * n,
        "plus": "UPDATE Tab SET n = n" + " + 1" * n + " WHERE pk = 'a'",
        "minus-params": "UPDATE Tab SET n = n" + " - ?" * n + " WHERE pk = 'a'",
    }[kind]


# the deepest chain of each kind within the bound (levels of the tree, counted by ast_walk.depth)
AT_LIMIT = {"not": MAX_STATEMENT_DEPTH - 5, "and": MAX_STATEMENT_DEPTH - 5,
            "not-and": (MAX_STATEMENT_DEPTH - 5) // 2, "plus": MAX_STATEMENT_DEPTH - 5,
            "minus-params": MAX_STATEMENT_DEPTH - 5}


@pytest.mark.parametrize("kind", sorted(AT_LIMIT))
def test_statements_at_the_depth_limit_run(db, kind):
    n = AT_LIMIT[kind]
    text = _chain(kind, n)
    params = [1] * text.count("?")
    result = on_deep_stack(lambda: db.execute(text, params))
    if kind in ("plus", "minus-params"):
        expected = n if kind == "plus" else -n
        assert db.execute("SELECT n FROM Tab WHERE pk = 'a'").items == [{"n": Decimal(expected)}]
    else:
        expected = [] if kind == "not" and n % 2 else [{"pk": "a", "x": 1, "n": 0}]
        assert result.items == expected


@pytest.mark.parametrize("kind", sorted(AT_LIMIT))
@pytest.mark.parametrize("extra", [10, 700])
def test_statements_past_the_depth_limit_are_refused(db, kind, extra):
    n = AT_LIMIT[kind] + extra if kind != "not-and" else AT_LIMIT[kind] + extra // 2 + 5
    text = _chain(kind, n)
    with pytest.raises(ValidationException) as caught:
        db.execute(text, [1] * text.count("?"))
    message = caught.value.message
    assert message.endswith(TOO_DEEP) or "failed to satisfy constraint: Member must have length less than" in message
    assert db.execute("SELECT n FROM Tab WHERE pk = 'a'").items == [{"n": 0}]


# -------------------------------------------------------------- expressions

@pytest.mark.parametrize("expression, matches", [
    ("NOT " * 299 + "x = :v", False),
    ("NOT " * 298 + "x = :v", True),
    ("NOT (x = :v AND " * 99 + "x = :v" + ")" * 99, False),
    ("(x = :w OR " * 149 + "x = :v" + ")" * 149, True),
], ids=["not-299", "not-298", "not-and", "nested-or"])
def test_expressions_at_the_operator_limit_evaluate(db, expression, matches):
    values = {":v": {"N": "1"}, ":w": {"N": "2"}}
    request_ = {"TableName": "Tab", "FilterExpression": expression,
                "ExpressionAttributeValues": {k: v for k, v in values.items() if k in expression}}
    response = on_deep_stack(lambda: wire_call(db.engine, "Scan", request_))
    assert response["Count"] == (1 if matches else 0)
