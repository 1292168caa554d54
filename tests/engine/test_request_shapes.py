"""Request shapes and table-free member checks of the item operations, through the
Python API (item-api §2.1–§2.2, §5.0, §5.11–§5.16): one row per rule."""

from __future__ import annotations

import pytest

from partiql.engine import Engine
from partiql.engine.errors import DynamoDBError

from .helpers import create, key_schema

ONE = "1 validation error detected: "


def _violation(value, path, constraint):
    shown = "null" if value is None else f"'{value}'"
    return f"{ONE}Value {shown} at '{path}' failed to satisfy constraint: {constraint}"


def _modern(path, constraint):
    """Query's and BatchGetItem's newer form (recorded against DynamoDB 2026-04, issue #14 point 5)."""
    return f"{ONE}Value at '{path}' failed to satisfy constraint: {constraint}"


@pytest.fixture(scope="module")
def db() -> Engine:
    engine = Engine()
    create(engine, "Shapes", range_name="sk", types={"pk": "S", "sk": "N", "g": "S"}, GlobalSecondaryIndexes=[
        {"IndexName": "byg", "KeySchema": key_schema("g"), "Projection": {"ProjectionType": "ALL"}}])
    for sk in range(5):
        engine.put_item(TableName="Shapes", Item={"pk": "p", "sk": sk, "g": "g"})
    return engine


KEY = {"pk": "p", "sk": 1}
Q = dict(TableName="Shapes", KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": "p"})
Q_RANGE = dict(TableName="Shapes", KeyConditionExpression="pk = :p AND sk > :s",
               ExpressionAttributeValues={":p": "p", ":s": 2})
START = "The provided starting key is invalid"

ROWS = [
    ("table name too short", "get_item", dict(TableName="ab", Key=KEY), "ValidationException",
     _violation("ab", "tableName", "Member must have length greater than or equal to 3")),
    ("table name pattern and length", "get_item", dict(TableName="a;", Key=KEY), "ValidationException",
     "2 validation errors detected: Value 'a;' at 'tableName' failed to satisfy constraint: Member must satisfy "
     "regular expression pattern: [a-zA-Z0-9_.-]+; Value 'a;' at 'tableName' failed to satisfy constraint: Member "
     "must have length greater than or equal to 3"),
    ("table name too long", "scan", dict(TableName="t" * 256), "ValidationException",
     _violation("t" * 256, "tableName", "Member must have length less than or equal to 255")),
    ("Item missing", "put_item", dict(TableName="Shapes"), "ValidationException",
     _violation(None, "item", "Member must not be null")),
    ("Limit 0", "query", dict(Q, Limit=0), "ValidationException",
     _modern("Limit", "Member must have value greater than or equal to 1")),
    ("Limit as text", "scan", dict(TableName="Shapes", Limit="5"), "SerializationException",
     "STRING_VALUE cannot be converted to Integer"),
    ("TableName as a number", "scan", dict(TableName=5), "SerializationException",
     "NUMBER_VALUE cannot be converted to String"),
    ("Segment negative", "scan", dict(TableName="Shapes", Segment=-1, TotalSegments=2), "ValidationException",
     _violation(-1, "segment", "Member must have value greater than or equal to 0")),
    ("TotalSegments too many", "scan", dict(TableName="Shapes", Segment=0, TotalSegments=1_000_001),
     "ValidationException", _violation(1_000_001, "totalSegments", "Member must have value less than or equal to 1000000")),
    ("Segment too large", "scan", dict(TableName="Shapes", Segment=1_000_000, TotalSegments=1_000_000),
     "ValidationException", _violation(1000000, "segment", "Member must have value less than or equal to 999999")),
    ("Select enum", "scan", dict(TableName="Shapes", Select="ALL"), "ValidationException",
     _violation("ALL", "select", "Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, "
                                 "ALL_PROJECTED_ATTRIBUTES]")),
    ("ReturnValues enum", "delete_item", dict(TableName="Shapes", Key=KEY, ReturnValues="all_old"),
     "ValidationException", _violation("all_old", "returnValues", "Member must satisfy enum value set: [ALL_NEW, "
                                                                  "UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]")),
    ("DeleteItem ReturnValues ALL_NEW", "delete_item", dict(TableName="Shapes", Key=KEY, ReturnValues="ALL_NEW"),
     "ValidationException", "1 validation error detected: ReturnValues can only be ALL_OLD or NONE"),  # recorded-2026-11 B4
    ("ReturnConsumedCapacity enum", "get_item", dict(TableName="Shapes", Key=KEY, ReturnConsumedCapacity="ALL"),
     "ValidationException", _violation("ALL", "returnConsumedCapacity",
                                       "Member must satisfy enum value set: [INDEXES, TOTAL, NONE]")),
    ("index name too short", "query", dict(Q, IndexName="ix"), "ValidationException",
     _modern("IndexName", "Member must have length greater than or equal to 3")),
    ("AttributesToGet empty list", "get_item", dict(TableName="Shapes", Key=KEY, AttributesToGet=[]),
     "ValidationException", _violation("[]", "attributesToGet", "Member must have length greater than or equal to 1")),
    ("empty attribute name in an item", "put_item", dict(TableName="Shapes", Item={**KEY, "": 1}),
     "ValidationException", "Empty attribute name"),
    ("attribute name of 65,536 bytes", "put_item", dict(TableName="Shapes", Item={**KEY, "n" * 65_536: 1}),
     "ValidationException", "Attribute name is too large, must be less than 65536 bytes"),
    ("empty name in ExpressionAttributeNames", "get_item", dict(TableName="Shapes", Key=KEY, ProjectionExpression="#a",
                                                                ExpressionAttributeNames={"#a": ""}),
     "ValidationException", "Empty attribute name"),
    ("item too large before the key", "put_item", dict(TableName="Shapes", Item={"big": "x" * 409_600}),
     "ValidationException", "Item size has exceeded the maximum allowed size"),
    ("item too large, no such table", "put_item", dict(TableName="Nothing", Item={"big": "x" * 409_600}),
     "ValidationException", "Item size has exceeded the maximum allowed size"),
    ("BatchWriteItem 26 over two tables", "batch_write_item", dict(RequestItems={
        "Shapes": [{"DeleteRequest": {"Key": {"pk": "p", "sk": i}}} for i in range(13)],
        "Other": [{"DeleteRequest": {"Key": {"pk": "p", "sk": i}}} for i in range(13)]}),
     "ValidationException", "Too many items requested for the BatchWriteItem call"),
    # corrected against DynamoDB 2026-04 (issue #14 point 5)
    ("BatchWriteItem empty", "batch_write_item", dict(RequestItems={}), "ValidationException",
     "The requestItems parameter is required for BatchWriteItem"),
    ("BatchWriteItem PutRequest without Item", "batch_write_item", dict(RequestItems={"Shapes": [{"PutRequest": {}}]}),
     "ValidationException", _violation(None, "requestItems.Shapes.member.1.member.putRequest.item",
                                       "Member must not be null")),
    ("BatchWriteItem empty WriteRequest", "batch_write_item", dict(RequestItems={"Shapes": [{}]}),
     "ValidationException", "Supplied AttributeValue has more than one datatypes set, must contain exactly one of "
                            "the supported datatypes"),
    ("BatchWriteItem bad table name", "batch_write_item", dict(RequestItems={"a;": [{"DeleteRequest": {"Key": KEY}}]}),
     "ValidationException", "1 validation error detected: Value '{a;=[WriteRequest(deleteRequest=DeleteRequest(key={pk=p, sk=1}))]}' at "
                            "'requestItems' failed to satisfy constraint: Map keys must satisfy constraint: [Member "
                            "must have length less than or equal to 255, Member must have length greater than or "
                            "equal to 3, Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]"),
    ("BatchGetItem Keys empty", "batch_get_item", dict(RequestItems={"Shapes": {"Keys": []}}), "ValidationException",
     _modern("RequestItems.Shapes.member.Keys", "Member must have length greater than or equal to 1")),
    # ExclusiveStartKey (item-api §5.11, §5.12)
    ("start key: a name missing", "query", dict(Q, ExclusiveStartKey={"pk": "p"}), "ValidationException", START),
    ("start key: an extra name", "scan", dict(TableName="Shapes", ExclusiveStartKey={**KEY, "x": 1}),
     "ValidationException", START),
    ("start key: wrong type", "query", dict(Q, ExclusiveStartKey={"pk": "p", "sk": "1"}), "ValidationException",
     f"{START}: The provided key element does not match the schema"),
    ("start key: another partition", "query", dict(Q, ExclusiveStartKey={"pk": "q", "sk": 1}), "ValidationException",
     "The provided starting key is outside query boundaries based on provided conditions"),
    ("start key: outside the range", "query", dict(Q_RANGE, ExclusiveStartKey={"pk": "p", "sk": 1}),
     "ValidationException", "The provided starting key does not match the range key predicate"),
    ("start key: index without its key", "query", dict(TableName="Shapes", IndexName="byg",
                                                       KeyConditionExpression="g = :g",
                                                       ExpressionAttributeValues={":g": "g"}, ExclusiveStartKey=KEY),
     "ValidationException", START),
]


@pytest.mark.parametrize("operation,request_,code,message", [row[1:] for row in ROWS], ids=[row[0] for row in ROWS])
def test_rejected(db, operation, request_, code, message):
    with pytest.raises(DynamoDBError) as caught:
        getattr(db, operation)(**request_)
    assert (caught.value.code, caught.value.message) == (code, message)


ACCEPTED = [
    ("boolean text is coerced", "get_item", dict(TableName="Shapes", Key=KEY, ConsistentRead="true"),
     lambda r: r["Item"]["sk"] == 1),
    ("unknown members are ignored", "get_item", dict(TableName="Shapes", Key=KEY, Nonsense=1),
     lambda r: r["Item"]["pk"] == "p"),
    ("start key inside the range", "query", dict(Q_RANGE, ExclusiveStartKey={"pk": "p", "sk": 3}),
     lambda r: [i["sk"] for i in r["Items"]] == [4]),
    ("index start key", "query", dict(TableName="Shapes", IndexName="byg", KeyConditionExpression="g = :g",
                                      ExpressionAttributeValues={":g": "g"}, Limit=2),
     lambda r: r["LastEvaluatedKey"] == {"pk": "p", "sk": 1, "g": "g"}),
    ("index pages", "query", dict(TableName="Shapes", IndexName="byg", KeyConditionExpression="g = :g",
                                  ExpressionAttributeValues={":g": "g"},
                                  ExclusiveStartKey={"pk": "p", "sk": 1, "g": "g"}),
     lambda r: [i["sk"] for i in r["Items"]] == [2, 3, 4]),
    ("Limit 1 is fine", "scan", dict(TableName="Shapes", Limit=1), lambda r: r["Count"] == 1),
    ("BatchWriteItem 25", "batch_write_item", dict(RequestItems={
        "Shapes": [{"DeleteRequest": {"Key": {"pk": "none", "sk": i}}} for i in range(25)]}),
     lambda r: r == {"UnprocessedItems": {}}),
]


@pytest.mark.parametrize("operation,request_,check", [row[1:] for row in ACCEPTED], ids=[row[0] for row in ACCEPTED])
def test_accepted(db, operation, request_, check):
    assert check(getattr(db, operation)(**request_))
