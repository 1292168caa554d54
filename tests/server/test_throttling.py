"""Throttles over the wire (issue #15): boto3 sees DynamoDB's exceptions, reasons and retries."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

import partiql
from partiql.engine.clock import VirtualClock
from partiql.server import Server
from partiql.server.cli import build_parser

from .conftest import boto3_client

TABLE = {"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
         "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}


@pytest.fixture(scope="module")
def server():
    db = partiql.connect(throughput="enforce", clock=VirtualClock(100.0))
    with Server(db, port=0) as running:
        yield running
    db.close()


def test_boto3_sees_a_provisioned_throttle_with_its_reasons(server):
    client = boto3_client(server.url)
    client.create_table(TableName="Thin", ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1},
                        **TABLE)
    for i in range(300):  # the 300-unit burst, in one instant of the virtual clock
        client.put_item(TableName="Thin", Item={"pk": {"S": f"k{i}"}})
    with pytest.raises(client.exceptions.ProvisionedThroughputExceededException) as caught:
        client.put_item(TableName="Thin", Item={"pk": {"S": "over"}})
    response = caught.value.response
    assert response["Error"]["Code"] == "ProvisionedThroughputExceededException"
    assert response["Error"]["Message"].startswith("The level of configured provisioned throughput for the table")
    assert response["ThrottlingReasons"] == [{"reason": "TableWriteProvisionedThroughputExceeded",
                                              "resource": "arn:aws:dynamodb:us-east-1:123456789012:table/Thin"}]


def test_boto3_retries_a_throttle_as_it_does_against_dynamodb(server, monkeypatch):
    """botocore's standard retry mode retries throttles: every attempt reaches the server (and is refused)."""
    import boto3
    from botocore.config import Config

    client = boto3.client("dynamodb", endpoint_url=server.url, region_name="us-east-1", aws_access_key_id="a",
                          aws_secret_access_key="b",
                          config=Config(retries={"mode": "standard", "max_attempts": 3}))
    delays = []
    monkeypatch.setattr("botocore.endpoint.time.sleep", delays.append)  # its back-off, without waiting
    client.create_table(TableName="Hot", BillingMode="PAY_PER_REQUEST", **TABLE)
    for _ in range(1000):
        client.put_item(TableName="Hot", Item={"pk": {"S": "k"}})
    attempts = []
    client.meta.events.register("before-send.dynamodb.PutItem", lambda **kw: attempts.append(1))
    with pytest.raises(ClientError) as caught:
        client.put_item(TableName="Hot", Item={"pk": {"S": "k"}})
    assert caught.value.response["Error"]["Code"] == "ThrottlingException"
    assert caught.value.response["throttlingReasons"][0]["reason"] == "TableWriteKeyRangeThroughputExceeded"
    # botocore's retries config counts retries: three, after the first attempt
    assert caught.value.response["ResponseMetadata"]["RetryAttempts"] == 3
    assert len(attempts) == 4 and len(delays) == 3


@pytest.mark.parametrize("argv, mode, adaptive", [
    ([], "report", True),
    (["--throughput", "enforce"], "enforce", True),
    (["--throughput", "off", "--classic-partitions"], "off", False),
])
def test_serve_takes_the_throughput_switches(argv, mode, adaptive):
    args = build_parser().parse_args(argv)
    db = partiql.connect(throughput=args.throughput, adaptive_capacity=not args.classic_partitions)
    assert (db.engine.throughput.mode, db.engine.throughput.adaptive) == (mode, adaptive)
    db.close()
