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


INCOMPLETE = "com.amazon.coral.service#IncompleteSignatureException"
SHAPES = {  # (Authorization, X-Amz-Date) -> DynamoDB's answer (recorded-2026-11 C2: every missing part, in order)
    "no authorization": (None, "20261127T000000Z", "com.amazon.coral.service#MissingAuthenticationTokenException",
                         "Request is missing Authentication Token"),
    "the recorded case": ("AWS4-", None, INCOMPLETE,
                          "Authorization header requires 'Credential' parameter. Authorization header requires "
                          "'Signature' parameter. Authorization header requires 'SignedHeaders' parameter. "
                          "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. "
                          "Authorization=AWS4-"),
    "a signature alone": ("AWS4-HMAC-SHA256 Signature=abc", "20261127T000000Z", INCOMPLETE,
                          "Authorization header requires 'Credential' parameter. Authorization header requires "
                          "'SignedHeaders' parameter. Authorization=AWS4-HMAC-SHA256 Signature=abc"),
}


@pytest.mark.parametrize("authorization, date, kind, message", SHAPES.values(), ids=SHAPES)
@pytest.mark.parametrize("which", ["signed_server", "server"])  # (with --credentials, and without)
def test_a_missing_or_malformed_signature_is_refused(request, which, authorization, date, kind, message):
    raw = Raw(request.getfixturevalue(which))
    status, _, body = raw.post("DynamoDB_20120810.ListTables", {},
                               headers={"Authorization": authorization, "X-Amz-Date": date})
    raw.close()
    assert (status, json.loads(body)) == (400, {"__type": kind, "message": message})


def test_a_request_presigned_in_its_query_string_is_served(server):
    raw = Raw(server)
    query = ("X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=local%2F20261127%2Fus-east-1%2Fdynamodb%2F"
             "aws4_request&X-Amz-Date=20261127T000000Z&X-Amz-SignedHeaders=host&X-Amz-Signature=abc")
    raw.connection.request("POST", f"/?{query}", body=b"{}", headers={
        "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810.ListTables"})
    response = raw.connection.getresponse()
    assert (response.status, "TableNames" in json.loads(response.read())) == (200, True)
    raw.close()


def test_serve_unsigned_serves_a_request_without_a_signature():
    db = partiql.connect()
    with Server(db, port=0, unsigned=True) as running:
        raw = Raw(running)
        status, _, body = raw.post("DynamoDB_20120810.ListTables", {}, headers={"Authorization": None})
        raw.close()
    db.close()
    assert (status, json.loads(body)) == (200, {"TableNames": []})


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


NOW = 1_795_737_600.0  # 2026-11-27T00:00:00Z
SIGNED_AT = {"expired": (NOW - 301, "Signature expired: 20261126T235459Z is now earlier than 20261126T235500Z "
                                    "(20261127T000000Z - 5 min.)"),
             "five minutes before": (NOW - 300, None),
             "now": (NOW, None),
             "five minutes after": (NOW + 300, None),
             "not yet current": (NOW + 301, "Signature not yet current: 20261127T000501Z is still later than "
                                            "20261127T000500Z (20261127T000000Z + 5 min.)")}


def _signed(verifier, stamp: str) -> dict:
    """Headers of a ListTables request signed by ``verifier``'s own key at ``stamp``."""
    headers = {"host": "127.0.0.1", "x-amz-date": stamp, "x-amz-target": "DynamoDB_20120810.ListTables"}
    scope = [verifier.key_id, stamp[:8], "us-east-1", "dynamodb", "aws4_request"]
    signature = verifier.signature(headers, b"{}", "host;x-amz-date;x-amz-target", scope)
    headers["authorization"] = (f"AWS4-HMAC-SHA256 Credential={'/'.join(scope)}, "
                                f"SignedHeaders=host;x-amz-date;x-amz-target, Signature={signature}")
    return headers


@pytest.mark.parametrize("signed_at, message", SIGNED_AT.values(), ids=SIGNED_AT)
def test_a_signature_more_than_five_minutes_from_the_server_s_clock_is_refused(signed_at, message):
    """On a virtual clock: SigV4's window is 5 minutes either way, its messages name the three times."""
    from datetime import datetime, timezone

    from partiql.engine.errors import InvalidSignatureException
    from partiql.server.sigv4 import Verifier
    verifier = Verifier("AKIDLOCAL", "s3cret", clock=lambda: NOW)
    headers = _signed(verifier, datetime.fromtimestamp(signed_at, timezone.utc).strftime("%Y%m%dT%H%M%SZ"))
    if message is None:
        verifier.verify(headers, b"{}")
        return
    with pytest.raises(InvalidSignatureException) as refused:
        verifier.verify(headers, b"{}")
    assert refused.value.message == message


def test_a_captured_request_replayed_later_is_refused_over_the_wire(signed_server):
    """The tried attack: a request signed correctly, sent again later (here: signed an hour ago)."""
    import time
    from datetime import datetime, timezone

    from partiql.server.sigv4 import Verifier
    stamp = datetime.fromtimestamp(time.time() - 3600, timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    headers = _signed(Verifier("AKIDLOCAL", "s3cret"), stamp)
    raw = Raw(signed_server)
    status, _, body = raw.post("DynamoDB_20120810.ListTables", {}, headers={
        "Authorization": headers["authorization"], "X-Amz-Date": stamp, "Host": "127.0.0.1"})
    raw.close()
    assert status == 400 and json.loads(body)["__type"] == "com.amazon.coral.service#InvalidSignatureException"
    assert json.loads(body)["message"].startswith(f"Signature expired: {stamp} is now earlier than ")
