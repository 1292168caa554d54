"""The server over raw HTTP: the front door (item-api §1.1), one keep-alive connection, no input yields a 500."""

from __future__ import annotations

import json
import os
import socket
import time
import zlib

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from partiql.engine.requests import OPERATIONS
from partiql.wire import OPERATIONS as STATEMENT_OPERATIONS

from .conftest import HASH_RANGE, Raw


def test_health_check(server):
    connection = Raw(server).connection
    connection.request("GET", "/")
    response = connection.getresponse()
    assert (response.status, response.read()) == (200, b"healthy: dynamodb.us-east-1.amazonaws.com ")


def test_other_methods_paths_and_content_types_are_404(server, raw):
    assert raw.post("DynamoDB_20120810.ListTables", {}, content_type="text/plain")[::2] == (
        404, b"<UnknownOperationException/>\n")
    raw.connection.request("PUT", "/", body=b"{}", headers={"Content-Type": "application/x-amz-json-1.0"})
    response = raw.connection.getresponse()
    assert (response.status, response.read()) == (404, b"<UnknownOperationException/>\n")


def test_a_body_over_16_mb_is_413_before_it_is_read(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\n"
                     b"X-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Length: 16777217\r\n\r\n")
        answer = sock.recv(4096)  # answered without a byte of the body sent
    assert answer.startswith(b"HTTP/1.1 413 ")


def test_a_16_mb_body_is_read(server, raw):
    body = json.dumps({"Limit": 1, "pad": "x" * (16 * 1024 * 1024 - 30)}).encode()
    assert len(body) <= 16 * 1024 * 1024
    status, _, out = raw.post("DynamoDB_20120810.ListTables", body)
    assert status == 200 and "TableNames" in json.loads(out)


def test_the_crc32_header_matches_the_body(raw):
    _, headers, body = raw.post("DynamoDB_20120810.ListTables", {})
    assert headers["x-amz-crc32"] == str(zlib.crc32(body))


def test_one_keep_alive_connection_has_no_delayed_ack_stall(server, raw):
    """A socket without TCP_NODELAY, or a response in two sends, costs ~40 ms a request (the delayed-ACK
    trap): 200 requests would take > 8 s. A trap detector, with two orders of magnitude of slack."""
    raw.post("DynamoDB_20120810.CreateTable", {"TableName": "KeepAlive", **HASH_RANGE})
    request = {"TableName": "KeepAlive", "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}}}
    started = time.perf_counter()
    for _ in range(200):
        assert raw.post("DynamoDB_20120810.GetItem", request)[0] == 200
    assert time.perf_counter() - started < 4.0


# ------------------------------------------------------------------ property

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
_MEMBERS = st.sampled_from(["TableName", "Key", "Item", "Limit", "Statement", "Statements", "TransactStatements",
                            "Parameters", "RequestItems", "TransactItems", "KeySchema", "AttributeDefinitions",
                            "ExclusiveStartKey", "ResourceArn", "Tags", "TagKeys", "TimeToLiveSpecification",
                            "KeyConditionExpression", "ExpressionAttributeValues", "NextToken", "BillingMode"])
_VALUES = st.one_of(_JSON, st.just("Tab"), st.just({"pk": {"S": "a"}, "sk": {"N": "1"}}),
                    st.just([{"Statement": "SELECT * FROM Tab"}]), st.just("SELECT * FROM Tab"))
_BODIES = st.one_of(
    st.dictionaries(_MEMBERS, _VALUES, max_size=5).map(lambda body: json.dumps(body).encode()),
    _JSON.map(lambda body: json.dumps(body).encode()),
    st.binary(max_size=40))
_TARGETS = st.one_of(
    st.sampled_from(sorted({*OPERATIONS, *STATEMENT_OPERATIONS, "DescribeEndpoints"})).map(
        lambda op: f"DynamoDB_20120810.{op}"),
    st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), max_size=30))


@pytest.fixture(scope="module")
def tab(server):
    """A table the generated requests name, so they reach past the table lookup."""
    connection = Raw(server)
    connection.post("DynamoDB_20120810.CreateTable", {"TableName": "Tab", **HASH_RANGE})
    connection.post("DynamoDB_20120810.PutItem", {"TableName": "Tab", "Item": {"pk": {"S": "a"}, "sk": {"N": "1"}}})
    connection.close()


@settings(max_examples=int(os.environ.get("PARTIQL_PROPERTY_EXAMPLES", 300)), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(target=_TARGETS, body=_BODIES)
def test_no_input_yields_a_500(server, tab, raw, target, body):
    status, headers, out = raw.post(target, body)
    assert status in (200, 400), (status, out)
    if status == 400:
        assert json.loads(out)["__type"].rpartition("#")[2].endswith("Exception")


# recorded-2026-11 C1 and C3: CORS as DynamoDB answers it, and the edges of the HTTP face
PREFLIGHT = {"Origin": "http://localhost:3000", "Access-Control-Request-Method": "POST",
             "Access-Control-Request-Headers": "authorization,content-type,x-amz-date,x-amz-target,x-amz-user-agent"}


def _request(raw, method: str, headers: dict, body: bytes = b""):
    raw.connection.request(method, "/", body=body, headers=headers)
    response = raw.connection.getresponse()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()


def test_c1_a_preflight_is_answered_as_dynamodb_answers_it(raw):
    status, headers, body = _request(raw, "OPTIONS", PREFLIGHT)
    assert (status, body) == (200, b"")
    assert headers["access-control-allow-origin"] == "*"
    assert headers["access-control-allow-methods"] == "POST"
    assert headers["access-control-allow-headers"] == PREFLIGHT["Access-Control-Request-Headers"]
    assert headers["access-control-max-age"] == "172800"


@pytest.mark.parametrize("target, body, status", [
    ("DynamoDB_20120810.ListTables", {}, 200),
    ("DynamoDB_20120810.NoSuchOperation", {}, 400),
])
def test_c1_every_answer_to_a_request_with_an_origin_allows_it_and_exposes_the_id_and_crc(raw, target, body, status):
    answer, headers, _ = raw.post(target, body, headers={"Origin": "http://localhost:3000"})
    assert answer == status
    assert headers["access-control-allow-origin"] == "*"
    assert set(headers["access-control-expose-headers"].split(",")) == {"x-amzn-RequestId", "x-amz-crc32"}
    _, plain, _ = raw.post(target, body)
    assert "access-control-allow-origin" not in plain  # (no Origin, no CORS headers)


@pytest.mark.parametrize("method, content_type, body, status", [
    ("PUT", "application/x-amz-json-1.0", b"{}", 404),
    ("POST", "text/plain", b"{}", 404),
    ("GET", None, b"", 200),
    ("POST", "application/x-amz-json-1.0", b"", 400),
    ("POST", None, b"", 400),
])
def test_c3_every_answer_carries_a_request_id_and_the_crc_of_its_body(raw, method, content_type, body, status):
    headers = {"X-Amz-Target": "DynamoDB_20120810.ListTables", **({"Content-Type": content_type} if content_type else {})}
    answer, out, data = _request(raw, method, headers, body)
    assert answer == status
    assert len(out["x-amzn-requestid"]) == 52 and out["x-amz-crc32"] == str(zlib.crc32(data))
    if status == 400:  # (a POST with no body: a SerializationException, not a 404)
        assert json.loads(data)["__type"] == "com.amazon.coral.service#SerializationException"
