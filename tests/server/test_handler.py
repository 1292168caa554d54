"""The protocol without sockets: ``Handler.handle(target, headers, body)`` (item-api §1)."""

from __future__ import annotations

import json
import zlib

import pytest

import partiql
from partiql.server import targets
from partiql.server.handler import Handler

from .conftest import HASH_RANGE

DDB = "DynamoDB_20120810."
JSON_HEADERS = {"content-type": "application/x-amz-json-1.0"}


@pytest.fixture
def handler():
    db = partiql.connect()
    handler = Handler(db, address="localhost:1234")
    handler.handle(DDB + "CreateTable", JSON_HEADERS, json.dumps({"TableName": "Tab", **HASH_RANGE}).encode())
    yield handler
    db.close()


def call(handler, operation, request, target=DDB):
    body = request if isinstance(request, bytes) else json.dumps(request).encode()
    status, headers, out = handler.handle(None if operation is None else target + operation, JSON_HEADERS, body)
    return status, dict(headers), (json.loads(out) if out else None)


@pytest.mark.parametrize("target, body, expected", [
    ("DynamoDB_20120810.NoSuchOperation", b"{}", {"__type": "com.amazon.coral.service#UnknownOperationException"}),
    (None, b"{}", {"__type": "com.amazon.coral.service#UnknownOperationException"}),
    ("DynamoDB_20990101.GetItem", b"{}", {"__type": "com.amazon.coral.service#UnknownOperationException"}),
    ("GetItem", b"{}", {"__type": "com.amazon.coral.service#UnknownOperationException"}),
    ("DynamoDB_20120810.ListTables", b"{not json", {"__type": "com.amazon.coral.service#SerializationException"}),
    ("DynamoDB_20120810.ListTables", b"", {"__type": "com.amazon.coral.service#SerializationException"}),
    ("DynamoDB_20120810.ListTables", b"\xff\xfe", {"__type": "com.amazon.coral.service#SerializationException"}),
], ids=["unknown-operation", "no-target", "unknown-version", "no-version", "bad-json", "empty-body", "not-utf8"])
def test_front_door_errors_have_no_message(handler, target, body, expected):
    status, _, out = handler.handle(target, JSON_HEADERS, body)
    assert (status, json.loads(out)) == (400, expected)


def test_success_headers_carry_crc32_and_request_id(handler):
    status, headers, body = handler.handle(DDB + "ListTables", JSON_HEADERS, b"{}")
    headers = dict(headers)
    assert status == 200 and json.loads(body) == {"TableNames": ["Tab"]}
    assert headers["x-amz-crc32"] == str(zlib.crc32(body))
    assert len(headers["x-amzn-requestid"]) == 52 and headers["x-amzn-requestid"].isupper()
    assert headers["content-type"] == "application/x-amz-json-1.0"
    assert headers["content-length"] == str(len(body))


def test_json_1_1_is_answered_in_kind(handler):
    _, headers, _ = handler.handle(DDB + "ListTables", {"content-type": "application/x-amz-json-1.1"}, b"{}")
    assert dict(headers)["content-type"] == "application/x-amz-json-1.1"


@pytest.mark.parametrize("operation, request_, code, message", [
    ("GetItem", {"TableName": "Nope", "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}}},
     "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", "Requested resource not found"),
    ("PutItem", {"TableName": "Tab", "Item": {"pk": {"S": "a"}}},
     "com.amazon.coral.validate#ValidationException",
     "One or more parameter values were invalid: Missing the key sk in the item"),
    ("PutItem", {"TableName": "Tab", "Item": {"pk": {"N": 1}, "sk": {"N": "1"}}},
     "com.amazon.coral.service#SerializationException", "NUMBER_VALUE cannot be converted to String"),
], ids=["not-found", "validation", "serialization"])
def test_errors_as_dynamodb_sends_them(handler, operation, request_, code, message):
    status, _, out = call(handler, operation, request_)
    assert status == 400 and out["__type"] == code
    assert out.get("message", out.get("Message")) == message


def test_error_members_pass_through(handler):
    key = {"pk": {"S": "a"}, "sk": {"N": "1"}}
    call(handler, "PutItem", {"TableName": "Tab", "Item": {**key, "v": {"S": "x"}}})
    status, _, out = call(handler, "PutItem", {
        "TableName": "Tab", "Item": key, "ConditionExpression": "attribute_not_exists(pk)",
        "ReturnValuesOnConditionCheckFailure": "ALL_OLD"})
    assert status == 400
    assert out == {"__type": "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",
                   "message": "The conditional request failed", "Item": {**key, "v": {"S": "x"}}}
    status, _, out = call(handler, "ExecuteTransaction", {"TransactStatements": [
        {"Statement": "INSERT INTO Tab VALUE {'pk': 'a', 'sk': 1}"}]})
    assert out["__type"].endswith("#TransactionCanceledException")
    assert out["CancellationReasons"] == [{"Code": "DuplicateItem", "Message": "Duplicate primary key exists in table"}]


def test_an_internal_error_is_a_500_and_the_handler_survives(handler, monkeypatch):
    def broken(handler, operation, request):
        raise KeyError("bug")

    monkeypatch.setitem(targets.TARGETS, "Broken_1", targets.Target(frozenset({"Op"}), broken))
    status, _, out = handler.handle("Broken_1.Op", JSON_HEADERS, b"{}")
    assert (status, json.loads(out)) == (500, {"__type": "com.amazonaws.dynamodb.v20120810#InternalServerError",
                                               "message": "Internal server error"})
    assert call(handler, "ListTables", {})[0] == 200


def test_a_target_registered_on_the_engine_is_routed(handler, monkeypatch):
    seen = []
    monkeypatch.setitem(targets.TARGETS, "DynamoDBStreams_20120810", targets.on_engine(
        {"ListStreams"}, lambda engine, operation, request: seen.append((engine, operation, request)) or {}))
    assert call(handler, "ListStreams", {"Limit": 1}, target="DynamoDBStreams_20120810.")[0] == 200
    assert seen == [(handler.connection.engine, "ListStreams", {"Limit": 1})]


def test_describe_endpoints_names_the_server(handler):
    assert call(handler, "DescribeEndpoints", {})[2] == {
        "Endpoints": [{"Address": "localhost:1234", "CachePeriodInMinutes": 1440}]}


@pytest.mark.parametrize("operation, request_, message", [
    ("ExecuteStatement", {}, "1 validation error detected: Value null at 'statement' failed to satisfy "
                             "constraint: Member must not be null"),
    ("ExecuteStatement", {"Statement": "SELECT * FROM Tab", "Limit": 0},
     "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value "
     "greater than or equal to 1"),
    ("ExecuteStatement", {"Statement": "", "Parameters": []},
     "2 validation errors detected: Value '' at 'statement' failed to satisfy constraint: Member must have "
     "length greater than or equal to 1; Value '[]' at 'parameters' failed to satisfy constraint: Member must "
     "have length greater than or equal to 1"),
    ("BatchExecuteStatement", {"Statements": []},
     "1 validation error detected: Value '[]' at 'statements' failed to satisfy constraint: Member must have "
     "length greater than or equal to 1"),
    ("BatchExecuteStatement", {"Statements": [{}]},
     "1 validation error detected: Value null at 'statements.1.member.statement' failed to satisfy "
     "constraint: Member must not be null"),
    ("ExecuteTransaction", {}, "1 validation error detected: Value null at 'transactStatements' failed to "
                               "satisfy constraint: Member must not be null"),
    ("ExecuteTransaction", {"TransactStatements": [{"Statement": "SELECT * FROM Tab"}], "ClientRequestToken": ""},
     "1 validation error detected: Value '' at 'clientRequestToken' failed to satisfy constraint: Member "
     "must have length greater than or equal to 1"),
], ids=["no-statement", "limit-0", "empty-statement-and-parameters", "no-statements", "statement-missing",
        "no-transact-statements", "empty-token"])
def test_partiql_envelope(handler, operation, request_, message):
    status, _, out = call(handler, operation, request_)
    assert (status, out) == (400, {"__type": "com.amazon.coral.validate#ValidationException", "message": message})


@pytest.mark.parametrize("operation, request_, message", [
    ("ExecuteStatement", {"Statement": "SELECT * FROM Tab", "Limit": "x"}, "STRING_VALUE cannot be converted to Integer"),
    ("ExecuteStatement", {"Statement": 5}, "NUMBER_VALUE cannot be converted to String"),
    ("BatchExecuteStatement", {"Statements": "SELECT * FROM Tab"}, "Unexpected field type"),
    ("ExecuteTransaction", {"TransactStatements": [{"Statement": "SELECT * FROM Tab", "Parameters": [5]}]},
     "Unexpected value type in payload"),
], ids=["limit-text", "statement-number", "statements-text", "parameter-scalar"])
def test_partiql_json_types(handler, operation, request_, message):
    status, _, out = call(handler, operation, request_)
    assert (status, out) == (400, {"__type": "com.amazon.coral.service#SerializationException",
                                   "Message": message})


def test_partiql_operations_answer_wire_json(handler):
    status, _, out = call(handler, "ExecuteStatement", {
        "Statement": "INSERT INTO Tab VALUE {'pk': ?, 'sk': ?}", "Parameters": [{"S": "p"}, {"N": "2"}]})
    assert (status, out) == (200, {"Items": []})
    status, _, out = call(handler, "BatchExecuteStatement", {"Statements": [
        {"Statement": "SELECT * FROM Tab WHERE pk = ? AND sk = ?", "Parameters": [{"S": "p"}, {"N": "2"}]},
        {"Statement": "SELECT * FROM Nope WHERE pk = 'p' AND sk = 2"}]})
    assert out["Responses"][0] == {"TableName": "Tab", "Item": {"pk": {"S": "p"}, "sk": {"N": "2"}}}
    assert out["Responses"][1]["Error"]["Code"] == "ResourceNotFound"
    status, _, out = call(handler, "ExecuteTransaction", {"TransactStatements": [
        {"Statement": "SELECT * FROM Tab WHERE pk = 'p' AND sk = 2"}], "ReturnConsumedCapacity": "TOTAL"})
    assert out == {"Responses": [{"Item": {"pk": {"S": "p"}, "sk": {"N": "2"}}}],
                   "ConsumedCapacity": [{"TableName": "Tab", "CapacityUnits": 2.0, "ReadCapacityUnits": 2.0}]}
