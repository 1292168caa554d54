"""Wording corrections recorded against DynamoDB in 2026-04 (issue #14 point 5), over the wire.

Rows the engine now follows; the spec (item-api.md) still has the older texts
where it gives one (the spec is read-only here: the rules live in the code's
"why" comments, engine/requests/shapes.py and engine/envelope.py).
"""

from __future__ import annotations

import pytest

from partiql.engine import Engine
from partiql.engine.errors import DynamoDBError
from partiql.engine.requests.wire import wire_call

KEYS = [{"AttributeName": "pk", "KeyType": "HASH"}]
DEFS = [{"AttributeName": "pk", "AttributeType": "S"}]
TABLE = {"KeySchema": KEYS, "AttributeDefinitions": DEFS, "BillingMode": "PAY_PER_REQUEST"}
ENVELOPE = "1 validation error detected: "


@pytest.fixture(scope="module")
def engine():
    engine = Engine()
    wire_call(engine, "CreateTable", {"TableName": "Tab", **TABLE})
    return engine


CASES = [
    pytest.param("CreateTable", {"TableName": "ab", **TABLE}, "ValidationException",
                 ENVELOPE + "Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater "
                            "than or equal to 3", id="create-table-short-name"),
    pytest.param("CreateTable", {"TableName": "a b", **TABLE}, "ValidationException",
                 ENVELOPE + "Value 'a b' at 'tableName' failed to satisfy constraint: Member must satisfy regular "
                            "expression pattern: [a-zA-Z0-9_.-]+", id="create-table-invalid-name"),
    pytest.param("GetItem", {"TableName": "", "Key": {"pk": {"S": "a"}}}, "ValidationException",
                 ENVELOPE + "Value '' at 'tableName' failed to satisfy constraint: Member must have length greater "
                            "than or equal to 1", id="item-empty-table-name"),
    pytest.param("PutItem", {"TableName": "", "Item": {"pk": {"S": "a"}}}, "ValidationException",
                 ENVELOPE + "Value '' at 'tableName' failed to satisfy constraint: Member must have length greater "
                            "than or equal to 1", id="put-empty-table-name"),
    pytest.param("BatchGetItem", {"RequestItems": {}}, "ValidationException",  # recorded-2026-11 B6
                 ENVELOPE + "Value at 'RequestItems' failed to satisfy constraint: Member must have length greater "
                            "than or equal to 1", id="batch-get-empty"),
    pytest.param("BatchWriteItem", {"RequestItems": {}}, "ValidationException",
                 "The requestItems parameter is required for BatchWriteItem", id="batch-write-empty"),
    pytest.param("Scan", {"TableName": "Tab", "Limit": 0}, "ValidationException",
                 ENVELOPE + "Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than "
                            "or equal to 1", id="scan-keeps-old-form"),
    pytest.param("Query", {"TableName": "Tab", "Limit": 0, "KeyConditionExpression": "pk = :p",
                           "ExpressionAttributeValues": {":p": {"S": "a"}}}, "ValidationException",
                 ENVELOPE + "Value at 'Limit' failed to satisfy constraint: Member must have value greater than or "
                            "equal to 1", id="query-new-form"),
    pytest.param("BatchGetItem", {"RequestItems": {"Tab": {"Keys": []}}}, "ValidationException",
                 ENVELOPE + "Value at 'RequestItems.Tab.member.Keys' failed to satisfy constraint: Member must "
                            "have length greater than or equal to 1", id="batch-get-new-form"),
    pytest.param("CreateTable", {"TableName": "Tab2", **TABLE, "KeySchema": KEYS * 3}, "ValidationException",
                 ENVELOPE + "Value '[KeySchemaElement(attributeName=pk, keyType=HASH), KeySchemaElement("
                            "attributeName=pk, keyType=HASH), KeySchemaElement(attributeName=pk, keyType=HASH)]' "
                            "at 'keySchema' failed to satisfy constraint: Member must have length less than or "
                            "equal to 2", id="key-schema-elements"),
]


@pytest.mark.parametrize("operation, request_, code, message", CASES)
def test_wording(engine, operation, request_, code, message):
    with pytest.raises(DynamoDBError) as error:
        wire_call(engine, operation, request_)
    assert (error.value.code, error.value.message) == (code, message)


def test_transact_get_items_with_an_invalid_key_is_cancelled(engine):
    with pytest.raises(DynamoDBError) as error:
        wire_call(engine, "TransactGetItems", {"TransactItems": [
            {"Get": {"TableName": "Tab", "Key": {"pk": {"S": "a"}}}},
            {"Get": {"TableName": "Tab", "Key": {"other": {"S": "a"}}}},
            {"Get": {"TableName": "Tab", "Key": {"pk": {"N": "1"}}}}]})
    assert error.value.code == "TransactionCanceledException"
    assert error.value.message == ("Transaction cancelled, please refer cancellation reasons for specific reasons "
                                   "[None, ValidationError, None]")
    assert [reason.as_dict() for reason in error.value.reasons] == [
        {"Code": "None"}, {"Code": "ValidationError", "Message": "The provided key element does not match the schema"},
        {"Code": "None"}]
