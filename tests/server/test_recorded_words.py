"""Section B of ``recorded-2026-11.md`` over the wire: DynamoDB's words, and which error a request with several
problems gets. Each row is a recorded class with DynamoDB's exact answer (tables H, C, CN are Hhh, Ccc, Cnn:
DynamoDB's names take three characters; ``deep(n)`` is a string leaf wrapped in n single-key maps)."""

from __future__ import annotations

import pytest

import partiql
from partiql.server.handler import Handler

from .test_recorded_2026 import _call, recorded_tables

ONE = "1 validation error detected: "
CAPACITY = "Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"
SELECT = "Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]"
TABLE_KEYS = ("Map keys must satisfy constraint: [Member must have length less than or equal to 255, Member must have "
              "length greater than or equal to 3, Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]")
NESTING = ("Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond "
           "supported limit")
CANNOT_CONVERT = "The parameter cannot be converted to a numeric value: "
UNDERFLOW = "Number underflow. Attempting to store a number with magnitude smaller than supported range"


def deep(levels: int) -> dict:
    value = {"S": "x"}
    for _ in range(levels):
        value = {"M": {"a": value}}
    return value


@pytest.fixture(scope="module")
def handler():
    db, served = recorded_tables()
    yield served
    db.close()


def _query(**members) -> dict:
    return {"TableName": "Ccc", "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "a"}},
            **members}


C_KEY = {"pk": {"S": "a"}, "sk": {"S": "b"}}


def _statement(statement: str, *parameters) -> dict:
    return {"Statement": statement, **({"Parameters": list(parameters)} if parameters else {})}


ROWS = {  # class: operation, request -> DynamoDB's message (ValidationException, HTTP 400)
    "B1 Query Limit: the newer form": ("Query", _query(Limit=0), ONE + "Value at 'Limit' failed to satisfy constraint: "
                                       "Member must have value greater than or equal to 1"),
    "B1 Query Select: the classic form": ("Query", _query(Select="INVALID_VALUE"),
                                          ONE + f"Value 'INVALID_VALUE' at 'select' failed to satisfy constraint: {SELECT}"),
    "B1 Query Select and ReturnConsumedCapacity: the latter alone": (
        "Query", _query(Select="INVALID", ReturnConsumedCapacity="INVALID"),
        ONE + f"Value 'INVALID' at 'returnConsumedCapacity' failed to satisfy constraint: {CAPACITY}"),
    "B1 BatchGetItem ReturnConsumedCapacity: the classic form": (
        "BatchGetItem", {"RequestItems": {"Hhh": {"Keys": [{"pk": {"S": "a"}}]}}, "ReturnConsumedCapacity": "BOGUS"},
        ONE + f"Value 'BOGUS' at 'returnConsumedCapacity' failed to satisfy constraint: {CAPACITY}"),
    "B2 UpdateItem: the first of two": (
        "UpdateItem", {"TableName": "Ccc", "Key": C_KEY, "ReturnValues": "BAD", "ReturnConsumedCapacity": "BAD"},
        ONE + f"Value 'BAD' at 'returnConsumedCapacity' failed to satisfy constraint: {CAPACITY}"),
    "B2 UpdateItem: the first of four": (
        "UpdateItem", {"TableName": "b!", "ReturnValues": "BAD", "ReturnConsumedCapacity": "BAD"},
        ONE + f"Value 'BAD' at 'returnConsumedCapacity' failed to satisfy constraint: {CAPACITY}"),
    "B2 BatchWriteItem: the enum alone over a bad table name": (
        "BatchWriteItem", {"RequestItems": {"bad!name": [{"PutRequest": {"Item": {"pk": {"S": "a"}}}}]},
                           "ReturnConsumedCapacity": "BAD"},
        ONE + f"Value 'BAD' at 'returnConsumedCapacity' failed to satisfy constraint: {CAPACITY}"),
    "B2 Query ConditionalOperator over Select": (
        "Query", _query(ConditionalOperator="XOR", Select="BOGUS"),
        "Failed to satisfy constraint: Member must satisfy enum value set: [ALL, OR]"),
    "B2 DeleteItem: returnConsumedCapacity; tableName; returnValues; key": (
        "DeleteItem", {"TableName": "ab", "ReturnValues": "BAD", "ReturnConsumedCapacity": "BAD"},
        "4 validation errors detected: "
        f"Value 'BAD' at 'returnConsumedCapacity' failed to satisfy constraint: {CAPACITY}; "
        "Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3; "
        "Value 'BAD' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: "
        "[ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]; "
        "Value null at 'key' failed to satisfy constraint: Member must not be null"),
    "B2 DeleteItem: conditionalOperator; key": (
        "DeleteItem", {"TableName": "Ccc", "ConditionalOperator": "XOR"},
        "2 validation errors detected: Value 'XOR' at 'conditionalOperator' failed to satisfy constraint: Member must "
        "satisfy enum value set: [OR, AND]; Value null at 'key' failed to satisfy constraint: Member must not be null"),
    "B2 CreateTable: a GSI's error before an LSI's": (
        "CreateTable", {"TableName": "New", "BillingMode": "PAY_PER_REQUEST",
                        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
                        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                                 {"AttributeName": "sk", "AttributeType": "S"}],
                        "LocalSecondaryIndexes": [{"IndexName": "lsi", "Projection": {"ProjectionType": "BAD"},
                                                   "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                                 {"AttributeName": "sk", "KeyType": "RANGE"}]}],
                        "GlobalSecondaryIndexes": [{"IndexName": "gsi", "Projection": {"ProjectionType": "BAD"},
                                                    "KeySchema": [{"AttributeName": "sk", "KeyType": "HASH"}]}]},
        "2 validation errors detected: Value 'BAD' at 'globalSecondaryIndexes.1.member.projection.projectionType' "
        "failed to satisfy constraint: Member must satisfy enum value set: [ALL, INCLUDE, KEYS_ONLY]; Value 'BAD' at "
        "'localSecondaryIndexes.1.member.projection.projectionType' failed to satisfy constraint: Member must "
        "satisfy enum value set: [ALL, INCLUDE, KEYS_ONLY]"),
    "B2 key condition clauses in the order written": (
        "Query", {"TableName": "Ccc", "KeyConditionExpression": "begins_with(sk, :n) AND pk = :missing",
                  "ExpressionAttributeValues": {":n": {"N": "1"}}},
        "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: "
        "begins_with, operand type: N"),
    "B2 within one clause the undefined value first": (
        "Query", {"TableName": "Ccc", "KeyConditionExpression": "begins_with(sk, :missing) AND pk = :n",
                  "ExpressionAttributeValues": {":n": {"N": "1"}}},
        "Invalid KeyConditionExpression: An expression attribute value used in expression is not defined; "
        "attribute value: :missing"),
    "B3 a too-deep item for an absent table": (
        "TransactWriteItems", {"TransactItems": [{"Put": {"TableName": "Absent", "Item": {"pk": {"S": "a"},
                                                                                       "d": deep(40)}}}]},
        "Nesting Levels have exceeded supported limits"),
    "B3 an action's depth before a later action's table": (
        "TransactWriteItems", {"TransactItems": [
            {"Put": {"TableName": "Hhh", "Item": {"pk": {"S": "a"}, "d": deep(40)}}},
            {"Put": {"TableName": "Absent", "Item": {"pk": {"S": "b"}}}}]},
        "Nesting Levels have exceeded supported limits"),
    "B3 an oversized UpdateExpression in a transaction": (
        "TransactWriteItems", {"TransactItems": [{"Update": {
            "TableName": "Hhh", "Key": {"pk": {"S": "a"}}, "ExpressionAttributeValues": {":v": {"S": "x"}},
            "UpdateExpression": "SET a = :v" + "".join(f", a{n} = :v" for n in range(1000))}}]},
        "Invalid UpdateExpression: Expression size has exceeded the maximum allowed size;"),
    "B4 ExpressionAttributeValues without an expression": (
        "PutItem", {"TableName": "Hhh", "Item": {"pk": {"S": "a"}}, "ExpressionAttributeValues": {":v": {"S": "x"}}},
        ONE + "ExpressionAttributeValues can only be specified when using expressions"),
    "B4 an UpdateItem's values without an expression": (
        "UpdateItem", {"TableName": "Hhh", "Key": {"pk": {"S": "a"}}, "ExpressionAttributeValues": {":v": {"S": "x"}}},
        ONE + "ExpressionAttributeValues can only be specified when using expressions"),
    "B4 an empty ConditionExpression": (
        "DeleteItem", {"TableName": "Hhh", "Key": {"pk": {"S": "a"}}, "ConditionExpression": ""},
        ONE + "Invalid ConditionExpression: The expression can not be empty;"),
    "B4 a malformed Expected": (
        "PutItem", {"TableName": "Hhh", "Item": {"pk": {"S": "a"}},
                    "Expected": {"a": {"Value": {"S": "x"}, "Exists": False}}},
        ONE + "One or more parameter values were invalid: Value cannot be used when Exists is false for Attribute: a"),
    "B4 an undefined condition value": (
        "PutItem", {"TableName": "Hhh", "Item": {"pk": {"S": "a"}}, "ConditionExpression": "a = :v"},
        ONE + "Invalid ConditionExpression: An expression attribute value used in expression is not defined; "
              "attribute value: :v"),
    "B4 DeleteItem ReturnValues ALL_NEW": (
        "DeleteItem", {"TableName": "Hhh", "Key": {"pk": {"S": "a"}}, "ReturnValues": "ALL_NEW"},
        ONE + "ReturnValues can only be ALL_OLD or NONE"),
    "B4 PutItem a number it cannot read": (
        "PutItem", {"TableName": "Hhh", "Item": {"pk": {"S": "a"}, "n": {"N": "abc"}}}, ONE + CANNOT_CONVERT + "abc"),
    "B4 GetItem an empty number keeps the colon": (
        "GetItem", {"TableName": "Hhh", "Key": {"pk": {"N": ""}}}, CANNOT_CONVERT),
    "B5 an SS member twice: quoted, sorted by bytes": (
        "PutItem", {"TableName": "Hhh", "Item": {"pk": {"S": "a"}, "s": {"SS": ["b", "a", "b"]}}},
        ONE + 'One or more parameter values were invalid: Input collection ["a", "b", "b"] contains duplicates.'),
    "B5 an NS member twice": (
        "PutItem", {"TableName": "Hhh", "Item": {"pk": {"S": "a"}, "s": {"NS": ["1", "2", "1.0"]}}},
        "One or more parameter values were invalid: Input collection contains duplicates."),
    "B5 BatchWriteItem keeps its older words": (
        "BatchWriteItem", {"RequestItems": {"Hhh": [{"PutRequest": {"Item": {"pk": {"S": "a"},
                                                                            "s": {"SS": ["b", "a", "b"]}}}}]}},
        "One or more parameter values were invalid: Input collection [b, a, b] contains duplicates."),
    "B6 BatchGetItem echoes RequestItems as JSON": (
        "BatchGetItem", {"RequestItems": {"bad!name": {"Keys": [{"pk": {"S": "a"}}]}}},
        ONE + """Value '{"bad!name":{"Keys":[{"pk":{"S":"a"}}]}}' at 'requestItems' failed to satisfy constraint: """
        + TABLE_KEYS),
    "B6 BatchGetItem RequestItems {}": (
        "BatchGetItem", {"RequestItems": {}},
        ONE + "Value at 'RequestItems' failed to satisfy constraint: Member must have length greater than or equal to 1"),
    "B6 BatchWriteItem RequestItems {}: the sentence": (
        "BatchWriteItem", {"RequestItems": {}}, "The requestItems parameter is required for BatchWriteItem"),
    "B7 an exponent past 32 bits": (
        "ExecuteStatement", _statement("SELECT * FROM Hhh WHERE pk = ?", {"N": "1e99999999999"}),
        CANNOT_CONVERT + "1e99999999999"),
    "B7 a negative one": ("ExecuteStatement", _statement("SELECT * FROM Hhh WHERE pk = ?", {"N": "-1e99999999999"}),
                          CANNOT_CONVERT + "-1e99999999999"),
    "B7 a tiny one": ("ExecuteStatement", _statement("SELECT * FROM Hhh WHERE pk = ?", {"N": "1e-99999999999"}),
                      CANNOT_CONVERT + "1e-99999999999"),
    "B7 the exponent 2^31": ("ExecuteStatement", _statement("SELECT * FROM Hhh WHERE pk = ?", {"N": "1e2147483648"}),
                             CANNOT_CONVERT + "1e2147483648"),
    "B7 the scale 2^31": ("ExecuteStatement", _statement("SELECT * FROM Hhh WHERE pk = ?", {"N": "1e-2147483648"}),
                          CANNOT_CONVERT + "1e-2147483648"),
    "B7 inside a list, in an INSERT": (
        "ExecuteStatement", _statement("INSERT INTO Hhh VALUE {'pk': 'a', 'l': ?}", {"L": [{"N": "1e2147483648"}]}),
        CANNOT_CONVERT + "1e2147483648"),
    "B7 inside a map, in an UPDATE": (
        "ExecuteStatement", _statement("UPDATE Hhh SET m = ? WHERE pk = 'a'", {"M": {"x": {"N": "1e99999999999"}}}),
        CANNOT_CONVERT + "1e99999999999"),
    "B7 inside an NS, in a transaction": (
        "ExecuteTransaction", {"TransactStatements": [_statement("INSERT INTO Hhh VALUE {'pk': 'a', 's': ?}",
                                                                 {"NS": ["1e99999999999"]})]},
        CANNOT_CONVERT + "1e99999999999"),
    "B7 the 32-bit magnitude wraps": ("ExecuteStatement", _statement("SELECT * FROM Hhh WHERE pk = ?",
                                                                     {"N": "1e2147483647"}), UNDERFLOW),
    "B7 a literal BigDecimal cannot read": (
        "ExecuteStatement", _statement("SELECT * FROM Hhh WHERE pk = 1.5e-2147483647"),
        "Statement wasn't well formed, can't be processed: "),
    "B7 depth before numbers, in document order": (
        "ExecuteStatement", _statement("INSERT INTO Hhh VALUE {'pk': 'a', 'd': ?, 'n': ?}", deep(40), {"N": "abc"}),
        NESTING),
    "B7 a parameter's depth before its own numbers": (
        "ExecuteStatement", _statement("SELECT * FROM Hhh WHERE pk = ?", {"L": [{"N": "abc"}, deep(40)]}), NESTING),
    "B8 UPDATE with an alias": ("ExecuteStatement", _statement("UPDATE \"Hhh\" t SET a = 3 WHERE pk = 'x'"),
                                "Aliasing is not supported"),
    "B8 DELETE with an alias": ("ExecuteStatement", _statement("DELETE FROM \"Hhh\" AS t WHERE pk = 'x'"),
                                "Aliasing is not supported"),
    **{f"B8 IS {name}": ("ExecuteStatement", _statement(f"SELECT * FROM Hhh WHERE pk = 'x' AND a IS {name}"),
                         "Unsupported operation: IsType")
       for name in ("INT4", "INT8", "DOUBLE PRECISION", "CHARACTER VARYING")},
    "B9 a structural key-condition error has no prefix": (
        "Query", {"TableName": "Ccc", "KeyConditionExpression": "pk = :p AND pk = :p",
                  "ExpressionAttributeValues": {":p": {"S": "a"}}},
        "KeyConditionExpressions must only contain one condition per key"),
    "B9 a one-row Query given a start key": (
        "Query", {"TableName": "Hhh", "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "a"}},
                  "ExclusiveStartKey": {"pk": {"S": "a"}}},
        "The query can return at most one row and cannot be restarted"),
    "B9 the whole key pinned, and a start key": (
        "Query", _query(KeyConditionExpression="pk = :p AND sk = :p", ExclusiveStartKey={"pk": {"S": "a"},
                                                                                        "sk": {"S": "a"}}),
        "The query can return at most one row and cannot be restarted"),
    "B10 a duplicated AttributeDefinition": (
        "CreateTable", {"TableName": "Dup", "BillingMode": "PAY_PER_REQUEST",
                        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}] * 2},
        "Attribute Name is duplicated: pk"),
}


@pytest.mark.parametrize("operation, request_, message", ROWS.values(), ids=ROWS)
def test_dynamodb_s_words(handler, operation, request_, message):
    status, body = _call(handler, operation, request_)
    assert (status, body.get("__type", "").rsplit("#", 1)[-1], body.get("message")) == (
        400, "ValidationException", message)


def test_b7_a_literal_past_the_range_under_32_bits_is_the_range_error(handler):
    status, body = _call(handler, "ExecuteStatement", _statement("SELECT * FROM Hhh WHERE pk = 1e2147483646"))
    assert body["message"] == ("Number overflow. Attempting to store a number with magnitude larger than supported "
                               "range under root")


def test_b9_a_one_row_query_hands_out_no_start_key(handler):
    assert _call(handler, "PutItem", {"TableName": "Hhh", "Item": {"pk": {"S": "one"}}})[0] == 200
    status, body = _call(handler, "Query", {"TableName": "Hhh", "KeyConditionExpression": "pk = :p", "Limit": 1,
                                            "ExpressionAttributeValues": {":p": {"S": "one"}}})
    assert (status, body["Count"], "LastEvaluatedKey" in body) == (200, 1, False)


def test_b9_an_index_query_of_one_hash_value_can_still_be_resumed():
    db = partiql.connect()
    served = Handler(db)
    assert _call(served, "CreateTable", {
        "TableName": "Gix", "BillingMode": "PAY_PER_REQUEST",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "g", "AttributeType": "S"}],
        "GlobalSecondaryIndexes": [{"IndexName": "byg", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                    "Projection": {"ProjectionType": "ALL"}}]})[0] == 200
    for pk in ("a", "b"):
        _call(served, "PutItem", {"TableName": "Gix", "Item": {"pk": {"S": pk}, "g": {"S": "x"}}})
    request = {"TableName": "Gix", "IndexName": "byg", "KeyConditionExpression": "g = :g", "Limit": 1,
               "ExpressionAttributeValues": {":g": {"S": "x"}}}
    first = _call(served, "Query", request)[1]
    second = _call(served, "Query", dict(request, ExclusiveStartKey=first["LastEvaluatedKey"]))[1]
    assert {item["pk"]["S"] for item in first["Items"] + second["Items"]} == {"a", "b"}
    db.close()
