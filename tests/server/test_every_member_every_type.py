"""Every member of every operation set to every JSON type, over the wire: a DynamoDB answer, never a 500
(issue 30.2).

Each operation the server answers starts from a valid request (the seeds below, over a table with an LSI, a
GSI and a stream); every member the seed holds, at any depth, and every top-level member the operation's
shape declares, is set in turn to each JSON type (null, booleans, numbers of every kind, strings, arrays,
objects, the attribute-value shape). The answer must be 200 or a DynamoDB error a client could receive.
"""

from __future__ import annotations

import json

import pytest

import partiql
from partiql.engine.requests import OPERATIONS as ENGINE_OPERATIONS
from partiql.engine.requests.shapes import WIRE_SHAPES
from partiql.engine.streams.api import OPERATIONS as STREAMS_OPERATIONS
from partiql.server.handler import Handler
from partiql.wire import OPERATIONS as STATEMENT_OPERATIONS

HEADERS = {"content-type": "application/x-amz-json-1.0"}
JSON_TYPES = [None, True, False, 0, -7, 2.5, 10 ** 30, 1e300, "", "x", "Fzz", [], [None], ["x"], [{}], {},
              {"x": 1}, {"S": "a"}, {"N": "1"}, {"NULL": True}]
TABLE = "Fzz"
KEY = {"pk": {"S": "p1"}, "sk": {"N": "1"}}
ITEM = {**KEY, "g": {"S": "g1"}, "l": {"N": "3"}, "a": {"L": [{"S": "x"}, {"N": "2"}]}, "s": {"SS": ["a"]}}
ARN = "arn:aws:dynamodb:us-east-1:123456789012:table/" + TABLE
DEFINITION = {
    "TableName": TABLE, "BillingMode": "PAY_PER_REQUEST",
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
    "AttributeDefinitions": [{"AttributeName": n, "AttributeType": t} for n, t in
                             (("pk", "S"), ("sk", "N"), ("g", "S"), ("l", "N"))],
    "GlobalSecondaryIndexes": [{"IndexName": "ByG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                "Projection": {"ProjectionType": "ALL"}}],
    "LocalSecondaryIndexes": [{"IndexName": "ByL", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                                 {"AttributeName": "l", "KeyType": "RANGE"}],
                               "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["a"]}}],
    "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
}
VECTORS = {  # a table with a vector index (vector-search.md), for SearchVectors
    "TableName": "Vzz", "BillingMode": "PAY_PER_REQUEST", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "t", "AttributeType": "S"}],
    "VectorIndexes": [{"IndexName": "ByV", "VectorAttribute": {"AttributeName": "v"}, "Dimensions": 2,
                       "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "ALL"},
                       "SearchSchema": [{"AttributeName": "t", "SearchSchemaElementType": "HASH"}]}],
}
VALUES = {":v": {"S": "p1"}, ":w": {"N": "1"}, ":x": {"N": "9"}}
NAMES = {"#a": "a"}

SEEDS = {  # operation -> a valid request (a callable: given the stream's ARN, its shard and an iterator of it)
    "CreateTable": {**DEFINITION, "TableName": "Fresh", "Tags": [{"Key": "k", "Value": "v"}],
                    "SSESpecification": {"Enabled": True}, "TableClass": "STANDARD"},
    "DescribeTable": {"TableName": TABLE},
    "ListTables": {"ExclusiveStartTableName": "Aaa", "Limit": 5},
    "DeleteTable": {"TableName": "Gone"},
    "UpdateTable": {"TableName": TABLE, "BillingMode": "PROVISIONED",
                    "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
                    "GlobalSecondaryIndexUpdates": [{"Update": {"IndexName": "ByG", "ProvisionedThroughput": {
                        "ReadCapacityUnits": 5, "WriteCapacityUnits": 5}}}]},
    "PutItem": {"TableName": TABLE, "Item": ITEM, "ConditionExpression": "attribute_not_exists(#a) OR #a <> :v",
                "ExpressionAttributeNames": NAMES, "ExpressionAttributeValues": {":v": {"S": "p1"}},
                "ReturnValues": "ALL_OLD", "ReturnConsumedCapacity": "INDEXES", "ReturnItemCollectionMetrics": "SIZE",
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD"},
    "GetItem": {"TableName": TABLE, "Key": KEY, "ProjectionExpression": "pk, #a[1]", "ExpressionAttributeNames": NAMES,
                "ConsistentRead": True, "ReturnConsumedCapacity": "TOTAL"},
    "UpdateItem": {"TableName": TABLE, "Key": KEY, "UpdateExpression": "SET #a = :v ADD n :w REMOVE q DELETE s :x",
                   "ConditionExpression": "size(#a) > :w", "ExpressionAttributeNames": NAMES,
                   "ExpressionAttributeValues": {":v": {"S": "p1"}, ":w": {"N": "1"}, ":x": {"SS": ["a"]}},
                   "ReturnValues": "UPDATED_NEW"},
    "DeleteItem": {"TableName": TABLE, "Key": KEY, "Expected": {"a": {"Exists": True}},
                   "ConditionalOperator": "AND", "ReturnValues": "ALL_OLD"},
    "Query": {"TableName": TABLE, "IndexName": "ByL", "KeyConditionExpression": "pk = :v AND l BETWEEN :w AND :x",
              "FilterExpression": "#a[0] = :v", "ProjectionExpression": "pk, #a", "ExpressionAttributeNames": NAMES,
              "ExpressionAttributeValues": VALUES, "Limit": 2, "ScanIndexForward": False, "Select": "SPECIFIC_ATTRIBUTES",
              "ExclusiveStartKey": {**KEY, "l": {"N": "3"}}, "ConsistentRead": True},
    "Scan": {"TableName": TABLE, "ScanFilter": {"a": {"AttributeValueList": [{"S": "x"}], "ComparisonOperator":
                                                        "CONTAINS"}},
             "AttributesToGet": ["pk"], "Segment": 0, "TotalSegments": 2, "Limit": 3, "ExclusiveStartKey": KEY},
    "BatchGetItem": {"RequestItems": {TABLE: {"Keys": [KEY], "ProjectionExpression": "#a",
                                              "ExpressionAttributeNames": NAMES, "ConsistentRead": False}},
                     "ReturnConsumedCapacity": "TOTAL"},
    "BatchWriteItem": {"RequestItems": {TABLE: [{"PutRequest": {"Item": ITEM}},
                                                {"DeleteRequest": {"Key": {**KEY, "sk": {"N": "2"}}}}]},
                       "ReturnItemCollectionMetrics": "SIZE"},
    "TransactGetItems": {"TransactItems": [{"Get": {"TableName": TABLE, "Key": KEY, "ProjectionExpression": "pk"}}]},
    "TransactWriteItems": {"TransactItems": [
        {"Update": {"TableName": TABLE, "Key": KEY, "UpdateExpression": "SET b = :w",
                    "ExpressionAttributeValues": {":w": {"N": "1"}}}},
        {"ConditionCheck": {"TableName": TABLE, "Key": {**KEY, "sk": {"N": "5"}},
                            "ConditionExpression": "attribute_not_exists(pk)"}}],
        "ClientRequestToken": "token-1"},
    "UpdateTimeToLive": {"TableName": TABLE, "TimeToLiveSpecification": {"Enabled": True, "AttributeName": "ttl"}},
    "DescribeTimeToLive": {"TableName": TABLE},
    "TagResource": {"ResourceArn": ARN, "Tags": [{"Key": "k", "Value": "v"}]},
    "UntagResource": {"ResourceArn": ARN, "TagKeys": ["k"]},
    "ListTagsOfResource": {"ResourceArn": ARN, "NextToken": "x"},
    "DescribeLimits": {},
    "DescribeContinuousBackups": {"TableName": TABLE},
    "UpdateContributorInsights": {"TableName": TABLE, "IndexName": "ByG", "ContributorInsightsAction": "ENABLE"},
    "DescribeContributorInsights": {"TableName": TABLE, "IndexName": "ByG"},
    "ListContributorInsights": {"TableName": TABLE, "MaxResults": 5, "NextToken": "x"},
    "ExecuteStatement": {"Statement": f'SELECT * FROM "{TABLE}" WHERE pk = ? AND sk > ?',
                         "Parameters": [{"S": "p1"}, {"N": "0"}], "ConsistentRead": True, "Limit": 2,
                         "ReturnConsumedCapacity": "TOTAL"},
    "BatchExecuteStatement": {"Statements": [{"Statement": f'SELECT * FROM "{TABLE}" WHERE pk = ? AND sk = ?',
                                              "Parameters": [{"S": "p1"}, {"N": "1"}], "ConsistentRead": True}]},
    "ExecuteTransaction": {"TransactStatements": [{"Statement": f'UPDATE "{TABLE}" SET b = ? WHERE pk = ? AND sk = ?',
                                                   "Parameters": [{"N": "2"}, {"S": "p1"}, {"N": "1"}]}],
                           "ClientRequestToken": "token-2"},
    "DescribeEndpoints": {},
    "SearchVectors": {"TableName": "Vzz", "IndexName": "ByV", "SearchVector": [{"N": "1"}, {"N": "0.5"}], "TopK": 3,
                      "SearchConditionExpression": "#t = :t", "ExpressionAttributeNames": {"#t": "t"},
                      "ExpressionAttributeValues": {":t": {"S": "t1"}}, "ProjectionExpression": "pk, v",
                      "ReturnConsumedCapacity": "TOTAL"},
    "ListStreams": lambda arn, shard, iterator: {"TableName": TABLE, "Limit": 5, "ExclusiveStartStreamArn": arn},
    "DescribeStream": lambda arn, shard, iterator: {"StreamArn": arn, "Limit": 5, "ExclusiveStartShardId": "shardId-1"},
    "GetShardIterator": lambda arn, shard, iterator: {"StreamArn": arn, "ShardId": shard,
                                                      "ShardIteratorType": "TRIM_HORIZON"},
    "GetRecords": lambda arn, shard, iterator: {"ShardIterator": iterator, "Limit": 10},
}


def _target(operation: str) -> str:
    return ("DynamoDBStreams_20120810." if operation in STREAMS_OPERATIONS else "DynamoDB_20120810.") + operation


def _call(handler, operation: str, request) -> tuple[int, dict]:
    status, _, body = handler.handle(_target(operation), HEADERS, json.dumps(request).encode())
    return status, json.loads(body) if body else {}


@pytest.fixture
def served():
    """A handler over a table with an item and a stream; the stream's ARN, its shard and an iterator of it."""
    db = partiql.connect(throughput="off")
    handler = Handler(db)
    for definition in (DEFINITION, {**DEFINITION, "TableName": "Gone", "StreamSpecification": None}):
        assert _call(handler, "CreateTable", {k: v for k, v in definition.items() if v is not None})[0] == 200
    assert _call(handler, "PutItem", {"TableName": TABLE, "Item": ITEM})[0] == 200
    assert _call(handler, "CreateTable", VECTORS)[0] == 200
    assert _call(handler, "PutItem", {"TableName": "Vzz", "Item": {"pk": {"S": "a"}, "t": {"S": "t1"}, "v": {
        "L": [{"N": "1"}, {"N": "1"}]}}})[0] == 200
    arn = _call(handler, "DescribeTable", {"TableName": TABLE})[1]["Table"]["LatestStreamArn"]
    shard = _call(handler, "DescribeStream", {"StreamArn": arn})[1]["StreamDescription"]["Shards"][0]["ShardId"]
    iterator = _call(handler, "GetShardIterator", {"StreamArn": arn, "ShardId": shard,
                                                   "ShardIteratorType": "TRIM_HORIZON"})[1]["ShardIterator"]
    yield handler, (arn, shard, iterator)
    db.close()


def _paths(value, path=()):
    """Every member path of ``value``: dict members and list elements, at any depth."""
    if isinstance(value, dict):
        for name, member in value.items():
            yield path + (name,)
            yield from _paths(member, path + (name,))
    elif isinstance(value, list):
        for index, member in enumerate(value):
            yield path + (index,)
            yield from _paths(member, path + (index,))


def _replaced(value, path: tuple, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replaced(value.get(head), rest, new)}
    return [_replaced(member, rest, new) if index == head else member for index, member in enumerate(value)]


def _variants(operation: str, seed: dict):
    """(path, request) for every member of ``seed`` and of the operation's declared shape, each set to every
    JSON type."""
    paths = list(_paths(seed))
    declared = WIRE_SHAPES.get(operation, {}).get("members", {})
    paths += [(name,) for name in declared if name not in seed] + [("NotAMember",)]  # (ignored by DynamoDB)
    for path in paths:
        for value in JSON_TYPES:
            yield path, _replaced(seed, path, value)


ALL_OPERATIONS = sorted({*ENGINE_OPERATIONS, *STATEMENT_OPERATIONS, *STREAMS_OPERATIONS, "DescribeEndpoints"})


def test_every_operation_has_a_seed():
    assert sorted(SEEDS) == ALL_OPERATIONS


@pytest.mark.parametrize("operation", ALL_OPERATIONS)
def test_every_member_set_to_every_json_type_gets_a_dynamodb_answer(served, operation):
    handler, stream = served
    seed = SEEDS[operation]
    seed = seed(*stream) if callable(seed) else seed
    answers = {}
    for path, request in _variants(operation, seed):
        status, body = _call(handler, operation, request)
        assert status != 500, f"{operation} with {'.'.join(map(str, path))} = {request}: {body}"
        assert status == 200 or (status == 400 and body["__type"].startswith("com.amazon")), (path, body)
        answers[status] = answers.get(status, 0) + 1
    if seed:
        assert answers.get(400), f"no variant of {operation} was refused: the seeds reach nothing"
    assert answers.get(200), f"no variant of {operation} was answered: the seed is not valid"
