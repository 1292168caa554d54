"""SigV4 hardening with --credentials (issue 32): requests signed by botocore's own signer (not ours), then
changed the ways an attacker would, sent over a real socket; and presigned query strings verified."""

from __future__ import annotations

import http.client
import json
import time
from urllib.parse import urlsplit

import pytest
from botocore.auth import SigV4Auth, SigV4QueryAuth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

import partiql
from partiql.engine.errors import InvalidSignatureException
from partiql.server import Server
from partiql.server.sigv4 import PRESIGNED, Verifier

KEY = ("AKIDLOCAL", "s3cret")
SERVICE = "com.amazon.coral.service#"
MISMATCH = ("The request signature we calculated does not match the signature you provided. Check your AWS Secret "
            "Access Key and signing method. Consult the service documentation for details.")


@pytest.fixture(scope="module")
def server():
    db = partiql.connect()
    with Server(db, port=0, credentials=KEY) as running:
        yield running
    db.close()


class _Without(SigV4Auth):
    """botocore's signer, leaving some headers out of the signature (as a careless or hostile client might)."""

    left_out: tuple = ()

    def headers_to_sign(self, request):
        headers = super().headers_to_sign(request)
        for name in self.left_out:
            del headers[name]
        return headers


def _signed(url: str, target: str, body: bytes, *, service="dynamodb", region="eu-west-2", key=KEY,
            left_out=()) -> list[tuple[str, str]]:
    request = AWSRequest("POST", url + "/", data=body, headers={
        "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": target})
    signer = type("Signer", (_Without,), {"left_out": left_out})(Credentials(*key), service, region)
    signer.add_auth(request)
    return list(request.headers.items())


def _send(server, headers: list, body: bytes, path: str = "/") -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    connection.putrequest("POST", path, skip_accept_encoding=True)
    for name, value in headers:
        connection.putheader(name, value)
    connection.putheader("Content-Length", str(len(body)))
    connection.endheaders(body)
    response = connection.getresponse()
    answer = (response.status, json.loads(response.read() or b"{}"))
    connection.close()
    return answer


LIST = ("DynamoDB_20120810.ListTables", b"{}")


def _replace(headers: list, name: str, value: str) -> list:
    return [(key, value if key.lower() == name.lower() else text) for key, text in headers]


# How the request is made -> the answer (status, __type, message). The texts for a scope of another service,
# an unsigned Host and a malformed X-Amz-Date are AWS's SigV4 ones; the others follow them (see sigv4.py).
CASES = {
    "botocore's signature": (lambda url: _signed(url, *LIST), 200, None, None),
    "any region": (lambda url: _signed(url, *LIST, region="xx-test-9"), 200, None, None),
    "a scope of another service": (
        lambda url: _signed(url, *LIST, service="s3"), 400, "InvalidSignatureException",
        "Credential should be scoped to correct service: 'dynamodb'. "),
    "Host not signed": (
        lambda url: _signed(url, *LIST, left_out=("host",)), 400, "InvalidSignatureException",
        "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization."),
    "X-Amz-Date not signed": (
        lambda url: _signed(url, *LIST, left_out=("x-amz-date",)), 400, "InvalidSignatureException",
        "'X-Amz-Date' must be a 'SignedHeader' in the AWS Authorization."),
    "X-Amz-Target not signed, then changed": (
        lambda url: _replace(_signed(url, *LIST, left_out=("x-amz-target",)), "X-Amz-Target",
                             "DynamoDB_20120810.DescribeLimits"), 400, "InvalidSignatureException",
        "'X-Amz-Target' must be a 'SignedHeader' in the AWS Authorization."),
    "X-Amz-Target signed, then changed": (
        lambda url: _replace(_signed(url, *LIST), "X-Amz-Target", "DynamoDB_20120810.DescribeLimits"),
        400, "InvalidSignatureException", MISMATCH),
    "an X-Amz-* header added after signing": (
        lambda url: [*_signed(url, *LIST), ("X-Amz-Security-Token", "stolen")], 400, "InvalidSignatureException",
        "'X-Amz-Security-Token' must be a 'SignedHeader' in the AWS Authorization."),
    "two Authorization headers": (
        lambda url: [*_signed(url, *LIST), ("Authorization", dict(_signed(url, *LIST))["Authorization"])],
        400, "IncompleteSignatureException", "Authorization header must be sent once. Authorization=AWS4-HMAC-SHA256 …"),
    "two X-Amz-Target headers": (
        lambda url: [*_signed(url, *LIST), ("X-Amz-Target", "DynamoDB_20120810.DeleteTable")],
        400, "UnknownOperationException", None),
    "an X-Amz-Date in another form": (
        lambda url: _replace(_signed(url, *LIST), "X-Amz-Date", "2026-11-27T00:00:00Z"),
        400, "IncompleteSignatureException",
        "Date must be in ISO-8601 'basic format'. Got '2026-11-27T00:00:00Z'. See http://en.wikipedia.org/wiki/ISO_8601"),
}


@pytest.mark.parametrize("make, status, kind, message", CASES.values(), ids=CASES)
def test_a_signed_request_changed_after_signing_is_refused(server, make, status, kind, message):
    found, body = _send(server, make(server.url), LIST[1])
    assert found == status, body
    if kind is not None:
        assert body["__type"] == SERVICE + kind
    if message is not None and message.endswith("…"):  # (the rest echoes the header as sent)
        assert body["message"].startswith(message[:-1])
    elif message is not None:
        assert body["message"] == message


class _QueryKeepingBody(SigV4QueryAuth):
    """botocore's presigner, keeping a JSON body where DynamoDB reads it (botocore would move it to the query)."""

    def _modify_request_before_signing(self, request):
        data, request.data = request.data, b""
        super()._modify_request_before_signing(request)
        request.data = data


def _presigned(url: str, target: str, body: bytes, key=KEY, expires: int = 300) -> tuple[str, list]:
    request = AWSRequest("POST", url + "/", data=body, headers={
        "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": target})
    _QueryKeepingBody(Credentials(*key), "dynamodb", "eu-west-2", expires=expires).add_auth(request)
    parts = urlsplit(request.url)
    return f"{parts.path}?{parts.query}", list(request.headers.items())


@pytest.mark.parametrize("key, status, message", [(KEY, 200, None), ((KEY[0], "wrong"), 400, MISMATCH)],
                         ids=["its key", "another secret"])
def test_a_presigned_request_is_verified(server, key, status, message):
    path, headers = _presigned(server.url, *LIST, key=key)
    found, body = _send(server, headers, LIST[1], path)
    assert (found, body.get("message")) == (status, message)
    if status == 200:
        assert body == {"TableNames": []}


def test_a_presigned_request_s_body_is_signed(server):
    path, headers = _presigned(server.url, *LIST)
    found, body = _send(server, headers, b'{"Limit": 1}', path)
    assert (found, body["message"]) == (400, MISMATCH)


def test_a_presigned_request_expires_after_its_x_amz_expires():
    """On a virtual clock: valid for X-Amz-Expires seconds after it was signed, then refused."""
    path, headers = _presigned("http://127.0.0.1:1", *LIST, expires=60)
    query = path.partition("?")[2]
    wire = {name.lower(): value for name, value in headers} | {"host": "127.0.0.1:1", PRESIGNED: query}
    signed_at = time.time()
    Verifier(*KEY, clock=lambda: signed_at + 59).verify(wire, LIST[1])
    with pytest.raises(InvalidSignatureException) as refused:
        Verifier(*KEY, clock=lambda: signed_at + 120).verify(wire, LIST[1])
    assert refused.value.message.startswith("Signature expired: ") and refused.value.message.endswith(" - 60 sec.)")
