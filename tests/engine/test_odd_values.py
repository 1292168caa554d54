"""Odd values on every surface (#12.3): one rule each, never an internal error.

* A lone UTF-16 surrogate is not Unicode text: in a statement, a parameter,
  a value, an attribute name, an expression or a placeholder map, through the
  library, the boto3-shaped client, wire JSON and the HTTP handler, it is a
  ValidationException naming the code point and its position.
* Decimal NaN / Infinity / sNaN are refused as boto3's serializer refuses them
  (TypeError, its words); ``"N": "NaN"`` on the wire is DynamoDB's numeric
  conversion error.
* Parameters that are not a list are the caller's TypeError, not a list of
  characters; a null RequestItems entry is an envelope violation.
"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

import partiql
from partiql.engine.errors import SerializationException, ValidationException
from partiql.engine.requests.wire import wire_call
from partiql.server.handler import Handler

TABLE = {"TableName": "Tab", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
         "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}], "BillingMode": "PAY_PER_REQUEST"}
SURROGATE = "One or more parameter values were invalid: a string holds a lone surrogate (U+D800 at character {})"
KEY = {"pk": {"S": "a"}}


@pytest.fixture
def db():
    db = partiql.connect()
    wire_call(db.engine, "CreateTable", dict(TABLE))
    yield db
    db.close()


def _count(db) -> int:
    return len(db.execute("SELECT * FROM Tab").items)


# --------------------------------------------------------------- lone surrogates

@pytest.mark.parametrize("statement, params, position", [
    ("SELECT * FROM Tab WHERE pk = '\ud800'", None, 30),
    ("SELECT * FROM Tab WHERE pk = ?", ["\ud800"], 0),
    ("INSERT INTO Tab VALUE {'pk': ?}", ["ab\ud800"], 2),
    ("INSERT INTO Tab VALUE {'pk': 'a', 'x': ?}", [{"n\ud800": 1}], 1),
    ("INSERT INTO Tab VALUE {'pk': 'a', 'x': ?}", [["ok", {"deep": "\ud800"}]], 0),
    ("INSERT INTO Tab VALUE {'pk': 'a', 'x': ?}", [{"a", "b\ud800"}], 1),
], ids=["statement", "parameter", "key-value", "map-name", "nested-value", "string-set"])
def test_library_refuses_lone_surrogates(db, statement, params, position):
    with pytest.raises(ValidationException) as caught:
        db.execute(statement, params)
    assert caught.value.message.startswith(SURROGATE.format(position))
    assert _count(db) == 0


@pytest.mark.parametrize("operation, request_, position", [
    ("PutItem", {"Item": {"pk": {"S": "a"}, "\ud800": {"S": "x"}}}, 0),
    ("PutItem", {"Item": {"pk": {"S": "a\ud800"}}}, 1),
    ("PutItem", {"Item": {"pk": {"S": "a"}, "m": {"M": {"x\ud800": {"N": "1"}}}}}, 1),
    ("PutItem", {"Item": {"pk": {"S": "a"}, "l": {"L": [{"SS": ["\ud800"]}]}}}, 0),
    ("PutItem", {"Item": KEY, "ConditionExpression": "attribute_not_exists(#\ud800)"}, 22),
    ("PutItem", {"Item": KEY, "ConditionExpression": "attribute_not_exists(#a)",
                 "ExpressionAttributeNames": {"#a": "\ud800"}}, 0),
    ("PutItem", {"Item": KEY, "ConditionExpression": "attribute_not_exists(#a)",
                 "ExpressionAttributeNames": {"#\ud800": "x"}}, 1),
    ("PutItem", {"Item": KEY, "ConditionExpression": "pk <> :v",
                 "ExpressionAttributeValues": {":v": {"S": "\ud800"}}}, 0),
    ("UpdateItem", {"Key": KEY, "UpdateExpression": "SET x = :v", "ExpressionAttributeValues": {":v": {"S": "z\ud800"}}}, 1),
    ("GetItem", {"Key": KEY, "ProjectionExpression": "a, \ud800"}, 3),
    ("Query", {"KeyConditionExpression": "pk = :v", "ExpressionAttributeValues": {":v": {"S": "\ud800"}}}, 0),
], ids=["item-name", "key-value", "nested-name", "nested-set", "condition", "names-value", "names-key",
        "values", "update-value", "projection", "query-value"])
def test_wire_and_client_refuse_lone_surrogates(db, operation, request_, position):
    request_ = {"TableName": "Tab", **request_}
    with pytest.raises(ValidationException) as caught:
        wire_call(db.engine, operation, json.loads(json.dumps(request_)))
    assert caught.value.message.startswith(SURROGATE.format(position))
    client = partiql.client(db)
    with pytest.raises(client.exceptions.ClientError) as raised:
        getattr(client, {"PutItem": "put_item", "UpdateItem": "update_item", "GetItem": "get_item",
                         "Query": "query"}[operation])(**request_)
    assert raised.value.response["Error"]["Message"].startswith(SURROGATE.format(position))
    assert _count(db) == 0


def test_http_handler_answers_a_surrogate_escape_with_400(db):
    handler = Handler(db, address="localhost:1")
    body = b'{"TableName": "Tab", "Item": {"pk": {"S": "\\ud800"}}}'
    status, _, out = handler.handle("DynamoDB_20120810.PutItem", {"content-type": "application/x-amz-json-1.0"}, body)
    answer = json.loads(out)
    assert status == 400 and answer["__type"].endswith("#ValidationException")
    assert answer["message"].startswith(SURROGATE.format(0))
    assert _count(db) == 0


def test_valid_astral_characters_are_still_text(db):
    db.execute("INSERT INTO Tab VALUE {'pk': ?, '\U0001f600': ?}", ["\U0001f600", "\ud83d\ude00".encode(
        "utf-16", "surrogatepass").decode("utf-16")])
    assert db.execute("SELECT * FROM Tab WHERE pk = '\U0001f600'").items == [
        {"pk": "\U0001f600", "\U0001f600": "\U0001f600"}]


# ------------------------------------------------------------- NaN and Infinity

@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "sNaN", "-NaN"])
def test_library_refuses_non_finite_decimals_as_boto3_does(db, number):
    with pytest.raises(TypeError, match="^Infinity and NaN not supported$"):
        db.execute("INSERT INTO Tab VALUE {'pk': 'a', 'n': ?}", [Decimal(number)])
    with pytest.raises(TypeError, match="^Infinity and NaN not supported$"):
        db.execute("INSERT INTO Tab VALUE {'pk': 'a', 'n': ?}", [{"deep": [Decimal(number)]}])
    assert _count(db) == 0


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "sNaN", "inf"])
def test_wire_refuses_non_finite_numbers(db, number):
    with pytest.raises(ValidationException) as caught:
        wire_call(db.engine, "PutItem", {"TableName": "Tab", "Item": {"pk": {"S": "a"}, "n": {"N": number}}})
    # (PutItem envelopes a number it cannot read: recorded-2026-11 B4)
    assert caught.value.message == f"1 validation error detected: The parameter cannot be converted to a numeric value: {number}"
    assert _count(db) == 0


# ------------------------------------------------------------------ parameters

@pytest.mark.parametrize("params, shown", [(5, "int"), ("a", "str"), ({"a": 1}, "dict"), (Decimal(1), "Decimal")])
def test_parameters_must_be_a_list(db, params, shown):
    with pytest.raises(TypeError, match=f"^parameters must be a list of values, not {shown} "):
        db.execute("SELECT * FROM Tab WHERE pk = ?", params)


def test_parameters_may_be_a_tuple(db):
    db.execute("INSERT INTO Tab VALUE {'pk': ?}", ("a",))
    assert _count(db) == 1


# ------------------------------------------------------------- null RequestItems

@pytest.mark.parametrize("operation, expected", [
    # BatchGetItem answers in the newer envelope form (issue #14 point 5), BatchWriteItem in §2.2's
    ("BatchGetItem", "1 validation error detected: Value at 'RequestItems.Tab.member' "
                     "failed to satisfy constraint: Member must not be null"),
    ("BatchWriteItem", "1 validation error detected: Value null at 'requestItems.Tab.member' "
                       "failed to satisfy constraint: Member must not be null"),
])
def test_null_request_items_entry_is_an_envelope_violation(db, operation, expected):
    with pytest.raises(ValidationException) as caught:
        wire_call(db.engine, operation, {"RequestItems": {"Tab": None}})
    assert caught.value.message == expected
    client = partiql.client(db)
    with pytest.raises(client.exceptions.ClientError) as raised:
        getattr(client, "batch_get_item" if operation == "BatchGetItem" else "batch_write_item")(
            RequestItems={"Tab": None})
    assert raised.value.response["Error"]["Message"] == expected


def test_serialization_errors_still_come_first():
    with pytest.raises(SerializationException):
        wire_call(partiql.connect().engine, "BatchGetItem", {"RequestItems": {"Tab": 5}})


# ------------------------------------------------------- statements of the wrong shape

@pytest.mark.parametrize("call, words", [
    (lambda db: db.execute(5), "a statement must be a str, not int"),
    (lambda db: db.execute(b"SELECT * FROM Tab"), "a statement must be a str, not bytes"),
    (lambda db: db.explain(None), "a statement must be a str, not NoneType"),
    (lambda db: db.execute_batch("SELECT * FROM Tab"), "statements must be a list, not str"),
    (lambda db: db.execute_batch([("SELECT * FROM Tab",)]), "each statement must be a str, (statement, parameters)"),
    (lambda db: db.execute_batch([5]), "each statement must be a str, (statement, parameters)"),
    (lambda db: db.execute_batch([(5, [])]), "a statement must be a str, not int"),
    (lambda db: db.execute_transaction([("SELECT * FROM Tab WHERE pk = 'a'", [], 1)]),
     "statement options must be a dict, not int"),
    (lambda db: db.execute_transaction(None), "statements must be a list, not NoneType"),
], ids=["int", "bytes", "explain-none", "batch-str", "one-tuple", "batch-int", "text-int", "options-int",
        "transaction-none"])
def test_statements_of_the_wrong_shape_are_the_callers_type_error(db, call, words):
    with pytest.raises(TypeError) as caught:
        call(db)
    assert str(caught.value).startswith(words)
    assert _count(db) == 0


# ------------------------------------------------------- attribute names that are not str

@pytest.mark.parametrize("call", [
    lambda engine, name: engine.get_item(TableName="Tab", Key={name: "a"}),
    lambda engine, name: engine.put_item(TableName="Tab", Item={"pk": "a", name: 1}),
    lambda engine, name: engine.put_item(TableName="Tab", Item={"pk": "a", "m": {name: 1}}),
    lambda engine, name: engine.query(TableName="Tab", KeyConditionExpression="pk = :v",
                                      ExpressionAttributeValues={name: "a"}),
], ids=["key", "item", "nested-map", "expression-values"])
@pytest.mark.parametrize("name", [1, b"pk", None, ("pk",)], ids=["int", "bytes", "none", "tuple"])
def test_an_attribute_name_that_is_not_a_str_is_the_callers_type_error(db, call, name):
    """At the top of a request member as inside a map: boto3's serializer takes str names only."""
    with pytest.raises(TypeError) as caught:
        call(db.engine, name)
    assert str(caught.value) == f"Attribute names must be strings, not {type(name).__name__}"
    assert _count(db) == 0


# ------------------------------------------------------- request members no JSON body carries

@pytest.mark.parametrize("call, words", [
    (lambda engine: engine.transact_get_items(TransactItems=[object()]), "Unsupported type 'object' for value"),
    (lambda engine: engine.batch_get_item(RequestItems={1: {"Keys": [{"pk": "a"}]}}),
     "Map keys must be strings, not int"),
    (lambda engine: engine.scan(TableName="Tab", AttributesToGet={"pk"}), "Unsupported type 'set' for value"),
    (lambda engine: engine.query(TableName="Tab", KeyConditionExpression="pk = :v",
                                 ExpressionAttributeValues={":v": "a"}, Limit=1j), "Unsupported type 'complex'"),
], ids=["object-in-a-list", "int-map-key", "set-for-a-list", "complex-for-a-number"])
def test_a_request_member_of_a_type_no_json_carries_is_the_callers_type_error(db, call, words):
    """The library's requests are DynamoDB's JSON as Python values: what JSON cannot hold is refused as
    boto3 refuses what it cannot serialise (it was an internal error, found by test_library_fuzz)."""
    with pytest.raises(TypeError) as caught:
        call(db.engine)
    assert str(caught.value).startswith(words)


def test_an_integer_past_a_floats_range_is_a_number_like_any_other(db):
    """``Limit`` of 10**400 (JSON allows it): the fast envelope check took it to a float and overflowed,
    a 500 on the wire; now the envelope treats it as the integer it is, on the wire and in the library."""
    status, _, out = Handler(db, address="localhost:1").handle(
        "DynamoDB_20120810.Scan", {"content-type": "application/x-amz-json-1.0"},
        b'{"TableName": "Tab", "Limit": 1' + b"0" * 400 + b"}")
    assert status == 200 and json.loads(out)["Count"] == 0
    assert db.engine.scan(TableName="Tab", Limit=10 ** 400)["Count"] == 0
    with pytest.raises(ValidationException, match="Member must have value greater than or equal to 1"):
        db.engine.scan(TableName="Tab", Limit=-10 ** 400)
