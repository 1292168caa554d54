"""A server on port 0 in a thread, and clients for it (boto3 with retries off, raw HTTP)."""

from __future__ import annotations

import http.client
import json

import pytest

import partiql
from partiql.server import Server

REGION = "us-east-1"
HASH_RANGE = {
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                             {"AttributeName": "sk", "AttributeType": "N"}],
    "BillingMode": "PAY_PER_REQUEST",
}


@pytest.fixture(scope="module")
def server():
    db = partiql.connect()
    with Server(db, port=0) as running:
        yield running
    db.close()


def boto3_client(url: str, key_id: str = "anything", secret: str = "anything"):
    import boto3
    from botocore.config import Config

    return boto3.client("dynamodb", endpoint_url=url, region_name=REGION, aws_access_key_id=key_id,
                        aws_secret_access_key=secret, config=Config(retries={"max_attempts": 1}))


@pytest.fixture(scope="module")
def client(server):
    return boto3_client(server.url)


# A well-formed signature (any one passes a server without --credentials; a header set to None is not sent).
SIGNED = {"Authorization": "AWS4-HMAC-SHA256 Credential=local/20261127/us-east-1/dynamodb/aws4_request, "
                           "SignedHeaders=host;x-amz-date, Signature=0", "X-Amz-Date": "20261127T000000Z"}


class Raw:
    """One keep-alive HTTP connection speaking the JSON protocol by hand, signed as ``SIGNED``."""

    def __init__(self, server):
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)

    def post(self, target: str | None, body, content_type="application/x-amz-json-1.0", headers=None):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        sent = {name: value for name, value in {"Content-Type": content_type, **SIGNED, **(headers or {})}.items()
                if value is not None}
        if target is not None:
            sent["X-Amz-Target"] = target
        self.connection.request("POST", "/", body=data, headers=sent)
        response = self.connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()

    def close(self):
        self.connection.close()


@pytest.fixture
def raw(server):
    connection = Raw(server)
    yield connection
    connection.close()
