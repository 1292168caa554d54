"""--credentials: SigV4 verification with DynamoDB's errors (item-api §1.1); the bind warning."""

from __future__ import annotations

import json

import pytest
from botocore.exceptions import ClientError

import partiql
from partiql.server import Server
from partiql.server.sigv4 import parse_credentials

from .conftest import Raw, boto3_client


@pytest.fixture(scope="module")
def signed_server():
    db = partiql.connect()
    with Server(db, port=0, credentials=("AKIDLOCAL", "s3cret")) as running:
        yield running
    db.close()


def test_the_right_credentials_are_accepted(signed_server):
    assert boto3_client(signed_server.url, "AKIDLOCAL", "s3cret").list_tables()["TableNames"] == []


@pytest.mark.parametrize("key_id, secret, code, message", [
    ("OTHER", "s3cret", "UnrecognizedClientException", "The security token included in the request is invalid."),
    ("AKIDLOCAL", "wrong", "InvalidSignatureException",
     "The request signature we calculated does not match the signature you provided. Check your AWS Secret "
     "Access Key and signing method. Consult the service documentation for details."),
], ids=["unknown-key", "wrong-secret"])
def test_other_credentials_are_refused(signed_server, key_id, secret, code, message):
    with pytest.raises(ClientError) as error:
        boto3_client(signed_server.url, key_id, secret).list_tables()
    assert (error.value.response["Error"]["Code"], error.value.response["Error"]["Message"]) == (code, message)


@pytest.mark.parametrize("authorization, expected", [
    (None, {"__type": "com.amazon.coral.service#MissingAuthenticationTokenException",
            "message": "Request is missing Authentication Token"}),
    ("AWS4-HMAC-SHA256 Signature=abc", {
        "__type": "com.amazon.coral.service#IncompleteSignatureException",
        "message": "Authorization header requires 'Credential' parameter. Authorization=AWS4-HMAC-SHA256 Signature=abc"}),
], ids=["no-authorization", "incomplete"])
def test_unsigned_requests_are_refused(signed_server, authorization, expected):
    raw = Raw(signed_server)
    status, _, body = raw.post("DynamoDB_20120810.ListTables", {},
                               headers={"Authorization": authorization} if authorization else {})
    raw.close()
    assert (status, json.loads(body)) == (400, expected)


def test_without_credentials_any_signature_is_accepted(server):
    assert "TableNames" in boto3_client(server.url, "who", "ever").list_tables()


@pytest.mark.parametrize("text", ["nocolon", ":secret", "id:"])
def test_malformed_credentials_are_refused(text):
    with pytest.raises(ValueError, match="ACCESS_KEY_ID:SECRET_ACCESS_KEY"):
        parse_credentials(text)


@pytest.mark.parametrize("host, open_", [("127.0.0.1", False), ("localhost", False), ("::1", False),
                                         ("0.0.0.0", True)])
def test_binding_beyond_loopback_is_flagged(host, open_):
    db = partiql.connect()
    try:
        server = Server(db, host, 0)
    except OSError:
        pytest.skip(f"cannot bind {host} here")
    server.socket.close()
    db.close()
    assert server.open_bind is open_
