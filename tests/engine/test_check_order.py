"""The declared check order of every item operation (``engine.requests.check_order``), listed and tried: for
each operation, requests that fail two adjacent phases get the earlier phase's error, and the envelope
lists its members in the declared order (one item where DynamoDB stops at the first)."""

from __future__ import annotations

import pytest

from partiql.engine import Engine
from partiql.engine.errors import DynamoDBError
from partiql.engine.requests import shapes
from partiql.engine.requests.check_order import ORDERS, PHASES
from partiql.engine.requests.wire import wire_call

# The sequence each operation declares, as a reader of check_order.py would write it down.
SEQUENCES = {
    "PutItem": ("ReturnConsumedCapacity", "TableName", "ConditionalOperator", "ReturnValues", "*", "|",
                "conditional_mixing", "item", "put_return_values", "expression_names"),
    "UpdateItem": ("ReturnConsumedCapacity", "TableName", "ConditionalOperator", "ReturnValues", "*", "first",
                   "|", "update_mixing", "expression_names"),
    "DeleteItem": ("ReturnConsumedCapacity", "TableName", "ConditionalOperator", "ReturnValues", "*", "|",
                   "conditional_mixing", "delete_return_values", "expression_names"),
    "GetItem": ("*", "|", "get_mixing", "attributes_to_get", "expression_names"),
    "Query": ("ConditionalOperator", "*", "first", "|", "query_mixing", "attributes_to_get", "expression_names"),
    "Scan": ("*", "|", "scan_mixing", "attributes_to_get", "expression_names"),
    "BatchGetItem": ("*", "|", "batch_get"),
    "BatchWriteItem": ("ReturnConsumedCapacity", "ReturnItemCollectionMetrics", "*", "first", "|", "batch_write"),
    "TransactGetItems": ("*", "|", "transact_get"),
    "TransactWriteItems": ("*", "|", "transact_write"),
}


def _declared(operation: str) -> tuple:
    order = ORDERS[operation]
    return (*order.envelope, "*", *(("first",) if order.first_only else ()), "|", *order.rules)


@pytest.mark.parametrize("operation", sorted(SEQUENCES))
def test_every_operation_declares_its_order(operation):
    assert _declared(operation) == SEQUENCES[operation]
    members = list(shapes.WIRE_SHAPES[operation]["members"])
    declared = [name for name in ORDERS[operation].envelope if name in members]
    assert members[:len(declared)] == declared  # the envelope walks the shape in that order
    assert all(name in shapes.RULES for name in ORDERS[operation].rules)


def test_the_phases_are_item_api_s():
    assert PHASES == ("types", "envelope", "values", "rules", "expressions", "table", "schema", "execution")
    assert set(ORDERS) == set(shapes.WIRE_SHAPES)


@pytest.fixture(scope="module")
def engine():
    db = Engine()
    for name, keys in (("Hhh", (("pk", "S"),)), ("Ccc", (("pk", "S"), ("sk", "S")))):
        wire_call(db, "CreateTable", {
            "TableName": name, "BillingMode": "PAY_PER_REQUEST",
            "KeySchema": [{"AttributeName": n, "KeyType": kind} for (n, _), kind in zip(keys, ("HASH", "RANGE"))],
            "AttributeDefinitions": [{"AttributeName": n, "AttributeType": t} for n, t in keys]})
    return db


H_KEY = {"pk": {"S": "a"}}
ABC = {"N": "abc"}
# (operation, the earlier phase, the later one, a request failing both) -> the earlier phase's error (start)
PAIRS = [
    ("PutItem", "envelope", "values", {"TableName": "ab", "Item": {"pk": ABC}},
     "1 validation error detected: Value 'ab' at 'tableName'"),
    ("PutItem", "values", "rules", {"TableName": "Hhh", "Item": {"pk": ABC}, "ReturnValues": "ALL_NEW"},
     "1 validation error detected: The parameter cannot be converted"),
    ("PutItem", "rules", "expressions", {"TableName": "Hhh", "Item": H_KEY, "ReturnValues": "ALL_NEW",
                                         "ConditionExpression": ""}, "Return values set to invalid value"),
    ("PutItem", "expressions", "table", {"TableName": "Absent", "Item": H_KEY, "ConditionExpression": ""},
     "1 validation error detected: Invalid ConditionExpression"),
    ("PutItem", "table", "schema", {"TableName": "Absent", "Item": {"x": {"S": "a"}}}, "Requested resource not found"),
    ("PutItem", "schema", "execution", {"TableName": "Hhh", "Item": {"pk": {"N": "1"}},
                                        "ConditionExpression": "attribute_exists(nope)"},
     "One or more parameter values were invalid: Type mismatch for key"),
    ("UpdateItem", "envelope", "rules", {"TableName": "Hhh", "Key": H_KEY, "ReturnValues": "BAD",
                                         "AttributeUpdates": {}, "UpdateExpression": "SET a = :v"},
     "1 validation error detected: Value 'BAD' at 'returnValues'"),
    ("UpdateItem", "rules", "expressions", {"TableName": "Hhh", "Key": H_KEY, "AttributeUpdates": {},
                                            "UpdateExpression": "SET"}, "Can not use both expression"),
    ("UpdateItem", "expressions", "table", {"TableName": "Absent", "Key": H_KEY, "UpdateExpression": "SET"},
     "1 validation error detected: Invalid UpdateExpression: Syntax error"),
    ("DeleteItem", "rules", "expressions", {"TableName": "Hhh", "Key": H_KEY, "ReturnValues": "ALL_NEW",
                                            "ConditionExpression": ""},
     "1 validation error detected: ReturnValues can only be ALL_OLD or NONE"),
    ("GetItem", "values", "rules", {"TableName": "Hhh", "Key": {"pk": ABC}, "AttributesToGet": ["a", "a"]},
     "The parameter cannot be converted"),
    ("GetItem", "rules", "expressions", {"TableName": "Hhh", "Key": H_KEY, "AttributesToGet": ["a", "a"],
                                         "ExpressionAttributeNames": {"#a": "a"}},
     "One or more parameter values were invalid: Duplicate value in attribute name: a"),
    ("Query", "envelope", "expressions", {"TableName": "Ccc", "Limit": 0, "KeyConditionExpression": "pk ="},
     "1 validation error detected: Value at 'Limit'"),
    ("Query", "expressions", "table", {"TableName": "Absent", "KeyConditionExpression": "pk ="},
     "Invalid KeyConditionExpression: Syntax error"),
    ("Query", "table", "schema", {"TableName": "Absent", "KeyConditionExpression": "sk = :s",
                                  "ExpressionAttributeValues": {":s": {"S": "a"}}}, "Requested resource not found"),
    ("Scan", "envelope", "rules", {"TableName": "Hhh", "Limit": 0, "AttributesToGet": ["a", "a"]},
     "1 validation error detected: Value '0' at 'limit'"),
    ("BatchWriteItem", "envelope", "values", {"RequestItems": {"Hhh": [{"PutRequest": {"Item": {"pk": ABC}}}]},
                                              "ReturnItemCollectionMetrics": "BAD"},
     "1 validation error detected: Value 'BAD' at 'returnItemCollectionMetrics'"),
    ("TransactWriteItems", "rules", "table", {"TransactItems": [
        {"Put": {"TableName": "Absent", "Item": {"pk": {"S": "a"}, "": {"S": "x"}}}}]}, "Empty attribute name"),
]


@pytest.mark.parametrize("operation, earlier, later, request_, expected", PAIRS,
                         ids=[f"{row[0]}: {row[1]} before {row[2]}" for row in PAIRS])
def test_an_earlier_phase_s_error_comes_first(engine, operation, earlier, later, request_, expected):
    assert PHASES.index(earlier) < PHASES.index(later)
    with pytest.raises(DynamoDBError) as caught:
        wire_call(engine, operation, request_)
    assert caught.value.message.startswith(expected), caught.value.message
