"""Legacy parameters (item-api §4): Expected, AttributeUpdates, KeyConditions,
QueryFilter, ScanFilter and AttributesToGet, lowered into the expression model.

Rows: (id, operation, request, expected) on a seeded table; expected is the
response, an ``Error(message)`` or a callable check. The item ``{pk: "a",
sk: "1", n: 5, s: "hello", ss: {"x", "y"}, l: [1]}`` is there before each row.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from partiql.engine import Engine
from partiql.engine.errors import DynamoDBError

from .helpers import create

INVALID = "One or more parameter values were invalid: "
ITEM = {"pk": "a", "sk": "1", "n": 5, "s": "hello", "ss": {"x", "y"}, "l": [1]}
KEY = {"pk": "a", "sk": "1"}


class Error:
    def __init__(self, message, code="ValidationException"):
        self.message, self.code = message, code


# recorded-2026-11 B4: PutItem, UpdateItem and DeleteItem envelope Expected's errors (AttributeUpdates' stay
# bare: A3)
ENVELOPE = "1 validation error detected: "
ENVELOPED = ENVELOPE + INVALID
CCF = Error("The conditional request failed", "ConditionalCheckFailedException")


@pytest.fixture
def db() -> Engine:
    engine = Engine()
    create(engine, "Legacy", range_name="sk")
    engine.put_item(TableName="Legacy", Item=ITEM)
    for sk in ("2", "3"):
        engine.put_item(TableName="Legacy", Item={"pk": "a", "sk": sk, "n": int(sk)})
    return engine


def cond(operator, *values):
    entry = {"ComparisonOperator": operator}
    if values:
        entry["AttributeValueList"] = list(values)
    return entry


def put(expected=None, **extra):
    return "put_item", dict(TableName="Legacy", Item={**KEY, "new": True}, **({"Expected": expected} if expected else {}),
                            **extra)


def upd(updates, **extra):
    return "update_item", dict(TableName="Legacy", Key=KEY, AttributeUpdates=updates, **{"ReturnValues": "ALL_NEW",
                                                                                          **extra})


def query(conditions, **extra):
    return "query", dict(TableName="Legacy", KeyConditions=conditions, **extra)


def keys_of(*sort_keys):
    def check(response):
        assert [item["sk"] for item in response["Items"]] == list(sort_keys), response
    return check


def new_item(**changes):
    item = {**ITEM, **changes}
    return {"Attributes": {name: value for name, value in item.items() if value is not None}}


PK_A = {"pk": cond("EQ", "a")}
ROWS = [
    # Expected (§4.4)
    ("Expected Value holds", *put({"n": {"Value": 5}}), {}),
    ("Expected Value fails", *put({"n": {"Value": 6}}), CCF),
    ("Expected Exists false fails", *put({"n": {"Exists": False}}), CCF),
    ("Expected Exists false holds", *put({"zz": {"Exists": False}}), {}),
    ("Expected Exists true", *put({"s": {"Exists": True, "Value": "hello"}}), {}),
    ("Expected GT", *put({"n": cond("GT", 4)}), {}),
    ("Expected BETWEEN", *put({"n": cond("BETWEEN", 6, 9)}), CCF),
    ("Expected IN", *put({"s": cond("IN", "a", "hello")}), {}),
    ("Expected NULL", *put({"zz": cond("NULL")}), {}),
    ("Expected NOT_NULL", *put({"zz": cond("NOT_NULL")}), CCF),
    ("Expected CONTAINS set", *put({"ss": cond("CONTAINS", "x")}), {}),
    ("Expected NOT_CONTAINS", *put({"s": cond("NOT_CONTAINS", "ell")}), CCF),
    ("Expected BEGINS_WITH", *put({"s": cond("BEGINS_WITH", "he")}), {}),
    ("Expected NE on a missing attribute", *put({"zz": cond("NE", 1)}), {}),
    ("Expected ComparisonOperator with Value", *put({"n": {"ComparisonOperator": "LT", "Value": 10}}), {}),
    ("Expected OR", *put({"n": {"Value": 6}, "s": {"Value": "hello"}}, ConditionalOperator="OR"), {}),
    ("Expected AND", *put({"n": {"Value": 6}, "s": {"Value": "hello"}}), CCF),
    ("Expected: Value missing", *put({"n": {}}),
     Error(ENVELOPED + "Value must be provided when Exists is null for Attribute: n")),
    ("Expected: Value missing, Exists true", *put({"n": {"Exists": True}}),
     Error(ENVELOPED + "Value must be provided when Exists is true for Attribute: n")),
    ("Expected: Value with Exists false", *put({"n": {"Exists": False, "Value": 1}}),
     Error(ENVELOPED + "Value cannot be used when Exists is false for Attribute: n")),
    ("Expected: Value and AttributeValueList", *put({"n": {"Value": 1, "ComparisonOperator": "EQ",
                                                           "AttributeValueList": [1]}}),
     Error(ENVELOPED + "Value and AttributeValueList cannot be used together for Attribute: n")),
    ("Expected: Exists and ComparisonOperator", *put({"n": {"Exists": True, "ComparisonOperator": "NULL"}}),
     Error(ENVELOPED + "Exists and ComparisonOperator cannot be used together for Attribute: n")),
    ("Expected: operator without values", *put({"n": {"ComparisonOperator": "EQ"}}),
     Error(ENVELOPED + "Value or AttributeValueList must be used with ComparisonOperator: EQ for Attribute: n")),
    ("Expected: list without operator", *put({"n": {"AttributeValueList": [1]}}),
     Error(ENVELOPED + "AttributeValueList can only be used with a ComparisonOperator for Attribute: n")),
    ("Expected: arity", *put({"n": cond("BETWEEN", 1)}),
     Error(ENVELOPED + "Invalid number of argument(s) for the BETWEEN ComparisonOperator")),
    ("Expected: NULL takes none", *put({"n": cond("NULL", 1)}),
     Error(ENVELOPED + "Invalid number of argument(s) for the NULL ComparisonOperator")),
    ("Expected: mixed types", *put({"n": cond("IN", 1, "a")}),
     Error(ENVELOPED + "AttributeValues inside AttributeValueList must be of same type")),
    ("Expected: type not valid", *put({"n": cond("LT", {"a", "b"})}),
     Error(ENVELOPED + "ComparisonOperator LT is not valid for SS AttributeValue type")),
    ("Expected: BEGINS_WITH a number", *put({"n": cond("BEGINS_WITH", 1)}),
     Error(ENVELOPED + "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type")),
    ("Expected: BETWEEN reversed", *put({"n": cond("BETWEEN", 9, 1)}),
     Error(ENVELOPE + "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound")),
    ("Expected: unknown operator", *put({"n": cond("LIKE", 1)}),
     Error("1 validation error detected: Value 'LIKE' at 'expected.n.member.comparisonOperator' failed to satisfy "
           "constraint: Member must satisfy enum value set: [IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, "
           "NE, LE, BEGINS_WITH, GE, CONTAINS]")),
    ("Expected with ConditionExpression", *put({"n": {"Value": 5}}, ConditionExpression="attribute_exists(pk)"),
     Error("Can not use both expression and non-expression parameters in the same request: Non-expression "
           "parameters: {Expected} Expression parameters: {ConditionExpression}")),
    ("Expected on DeleteItem", "delete_item", dict(TableName="Legacy", Key=KEY, Expected={"n": {"Value": 6}}), CCF),
    ("Expected on UpdateItem", *upd({"n": {"Value": 1}}, Expected={"s": {"Value": "bye"}}), CCF),
    # AttributeUpdates (§4.5)
    ("PUT", *upd({"n": {"Value": 7, "Action": "PUT"}}), new_item(n=7)),
    ("PUT is the default", *upd({"t": {"Value": "new"}}), new_item(t="new")),
    ("ADD a number", *upd({"n": {"Value": 2, "Action": "ADD"}}), new_item(n=7)),
    ("ADD to a missing number", *upd({"m": {"Value": 2, "Action": "ADD"}}), new_item(m=2)),
    ("ADD to a set", *upd({"ss": {"Value": {"z"}, "Action": "ADD"}}), new_item(ss={"x", "y", "z"})),
    ("ADD appends to a list", *upd({"l": {"Value": [2, 3], "Action": "ADD"}}), new_item(l=[1, 2, 3])),
    ("ADD a list to a missing attribute", *upd({"nl": {"Value": ["a"], "Action": "ADD"}}), new_item(nl=["a"])),
    ("DELETE an attribute", *upd({"s": {"Action": "DELETE"}}), new_item(s=None)),
    ("DELETE set elements", *upd({"ss": {"Value": {"x"}, "Action": "DELETE"}}), new_item(ss={"y"})),
    ("DELETE the last elements", *upd({"ss": {"Value": {"x", "y"}, "Action": "DELETE"}}), new_item(ss=None)),
    ("UPDATED_OLD names the updated attributes", *upd({"n": {"Value": 1}, "t": {"Value": 2}}, ReturnValues="UPDATED_OLD"),
     {"Attributes": {"n": 5}}),
    ("PUT without a value", *upd({"n": {"Action": "PUT"}}),
     Error(INVALID + "Only DELETE action is allowed when no attribute value is specified")),
    ("ADD without a value", *upd({"n": {"Action": "ADD"}}),
     Error(INVALID + "Only DELETE action is allowed when no attribute value is specified")),
    ("DELETE a string", *upd({"s": {"Value": "h", "Action": "DELETE"}}),
     Error(INVALID + "DELETE action with value is not supported for the type S")),
    ("ADD a string", *upd({"s": {"Value": "h", "Action": "ADD"}}),
     Error(INVALID + "ADD action is not supported for the type S")),
    ("ADD a map", *upd({"s": {"Value": {"k": 1}, "Action": "ADD"}}),
     Error(INVALID + "ADD action is not supported for the type M")),
    ("ADD a number to a set", *upd({"ss": {"Value": 1, "Action": "ADD"}}), Error("Type mismatch for attribute to update")),
    ("DELETE a number set from a string set", *upd({"ss": {"Value": {1}, "Action": "DELETE"}}),
     Error("Type mismatch for attribute to update")),
    ("update of a key", *upd({"sk": {"Value": "2"}}),
     Error(INVALID + "Cannot update attribute sk. This attribute is part of the key")),
    ("unknown action", *upd({"n": {"Value": 1, "Action": "SET"}}),
     Error("1 validation error detected: Value 'SET' at 'attributeUpdates.n.member.action' failed to satisfy "
           "constraint: Member must satisfy enum value set: [ADD, DELETE, PUT]")),
    ("with UpdateExpression", *upd({"n": {"Value": 1}}, UpdateExpression="SET n = :v",
                                   ExpressionAttributeValues={":v": 1}),
     Error("Can not use both expression and non-expression parameters in the same request: Non-expression "
           "parameters: {AttributeUpdates} Expression parameters: {UpdateExpression}")),
    ("{} creates the key-only item", "update_item", dict(TableName="Legacy", Key={"pk": "b", "sk": "1"},
                                                        AttributeUpdates={}, ReturnValues="ALL_NEW"),
     {"Attributes": {"pk": "b", "sk": "1"}}),
    ("DELETE on a missing item creates nothing", "update_item", dict(
        TableName="Legacy", Key={"pk": "b", "sk": "1"}, AttributeUpdates={"x": {"Action": "DELETE"}},
        ReturnValues="ALL_NEW"), {}),
    ("ADD on a missing item creates it", "update_item", dict(
        TableName="Legacy", Key={"pk": "b", "sk": "1"}, AttributeUpdates={"x": {"Value": 1, "Action": "ADD"}},
        ReturnValues="ALL_NEW"), {"Attributes": {"pk": "b", "sk": "1", "x": 1}}),
    # KeyConditions, QueryFilter (§4.3)
    ("KeyConditions EQ", *query(PK_A), keys_of("1", "2", "3")),
    ("KeyConditions range", *query({**PK_A, "sk": cond("GT", "1")}), keys_of("2", "3")),
    ("KeyConditions BETWEEN", *query({**PK_A, "sk": cond("BETWEEN", "1", "2")}), keys_of("1", "2")),
    ("KeyConditions BEGINS_WITH", *query({**PK_A, "sk": cond("BEGINS_WITH", "3")}), keys_of("3")),
    ("KeyConditions with FilterExpression", *query(PK_A, FilterExpression="n > :n", ExpressionAttributeValues={":n": 2}),
     keys_of("1", "3")),
    ("QueryFilter", *query(PK_A, QueryFilter={"n": cond("LE", 2)}), keys_of("2")),
    ("QueryFilter OR", *query(PK_A, QueryFilter={"n": cond("EQ", 2), "s": cond("NOT_NULL")}, ConditionalOperator="OR"),
     keys_of("1", "2")),
    ("QueryFilter on a key", *query(PK_A, QueryFilter={"sk": cond("EQ", "1")}),
     Error("QueryFilter can only contain non-primary key attributes: Primary key attribute: sk")),
    ("KeyConditions three", *query({**PK_A, "sk": cond("EQ", "1"), "n": cond("EQ", 1)}),
     Error("Conditions can be of length 1 or 2 only")),
    ("KeyConditions not indexable", *query({**PK_A, "sk": cond("NE", "1")}),
     Error("Attempted conditional constraint is not an indexable operation")),
    ("KeyConditions without the hash key", *query({"sk": cond("EQ", "1")}),
     Error("Query condition missed key schema element: pk")),
    ("KeyConditions hash not EQ", *query({"pk": cond("GT", "a")}), Error("Query key condition not supported")),
    ("KeyConditions wrong type", *query({"pk": cond("EQ", 1)}),
     Error(INVALID + "Condition parameter type does not match schema type")),
    ("KeyConditions with KeyConditionExpression", *query(PK_A, KeyConditionExpression="pk = :p",
                                                        ExpressionAttributeValues={":p": "a"}),
     Error("Can not use both expression and non-expression parameters in the same request: Non-expression "
           "parameters: {KeyConditions} Expression parameters: {KeyConditionExpression}")),
    ("QueryFilter with FilterExpression", *query(PK_A, QueryFilter={"n": cond("LE", 2)}, FilterExpression="n > :n",
                                                 ExpressionAttributeValues={":n": 2}),
     Error("Can not use both expression and non-expression parameters in the same request: Non-expression "
           "parameters: {QueryFilter} Expression parameters: {FilterExpression}")),
    # ScanFilter
    ("ScanFilter", "scan", dict(TableName="Legacy", ScanFilter={"n": cond("GE", 3)}), keys_of("1", "3")),
    ("ScanFilter on a key", "scan", dict(TableName="Legacy", ScanFilter={"sk": cond("IN", "2", "3")}), keys_of("2", "3")),
    ("ScanFilter CONTAINS a list element", "scan", dict(TableName="Legacy", ScanFilter={"l": cond("CONTAINS", 1)}),
     keys_of("1")),
    # AttributesToGet (§4.1)
    ("AttributesToGet", "get_item", dict(TableName="Legacy", Key=KEY, AttributesToGet=["n", "zz", "s"]),
     {"Item": {"n": 5, "s": "hello"}}),
    ("AttributesToGet duplicate", "get_item", dict(TableName="Legacy", Key=KEY, AttributesToGet=["n", "n"]),
     Error(INVALID + "Duplicate value in attribute name: n")),
    ("AttributesToGet with ProjectionExpression", "get_item", dict(TableName="Legacy", Key=KEY, AttributesToGet=["n"],
                                                                   ProjectionExpression="s"),
     Error("Can not use both expression and non-expression parameters in the same request: Non-expression "
           "parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}")),
    ("AttributesToGet empty name", "get_item", dict(TableName="Legacy", Key=KEY, AttributesToGet=[""]),
     Error("Empty attribute name")),
    ("AttributesToGet on a Query", *query(PK_A, AttributesToGet=["n"]),
     lambda r: r["Items"] == [{"n": 5}, {"n": 2}, {"n": 3}] or pytest.fail(str(r))),
    ("AttributesToGet with Select COUNT", *query(PK_A, AttributesToGet=["n"], Select="COUNT"),
     Error("1 validation error detected: Cannot specify the AttributesToGet when choosing to get only the Count")),
]


@pytest.mark.parametrize("operation,request_,expected", [row[1:] for row in ROWS], ids=[row[0] for row in ROWS])
def test_legacy(db, operation, request_, expected):
    if isinstance(expected, Error):
        with pytest.raises(DynamoDBError) as caught:
            getattr(db, operation)(**request_)
        assert (caught.value.code, caught.value.message) == (expected.code, expected.message)
        return
    response = getattr(db, operation)(**request_)
    if callable(expected):
        expected(response)
    else:
        assert response == _engine_values(expected)


def _engine_values(value):
    """Ints in expected rows compare as the Decimals the engine returns; sets as frozensets."""
    if isinstance(value, dict):
        return {key: _engine_values(member) for key, member in value.items()}
    if isinstance(value, list):
        return [_engine_values(member) for member in value]
    if isinstance(value, set):
        return frozenset(_engine_values(member) for member in value)
    if isinstance(value, int) and not isinstance(value, bool):
        return Decimal(value)
    return value
