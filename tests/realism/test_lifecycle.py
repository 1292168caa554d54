"""Issue 33 point 2 (first part): tables and new GSIs CREATING on the engine's clock — item operations answer
as for a table that is not there, DeleteTable is refused, a backfilling index cannot be read, DescribeTable
says so — and SDK waiters wait through it over the wire."""

from __future__ import annotations

import pytest

import partiql
from partiql.engine.clock import VirtualClock
from partiql.engine.errors import DynamoDBError
from partiql.engine.realism import RealismError, realism_from

LIFECYCLE = {"lifecycle": {"create": 5, "index": 2, "backfill": 500}}


def _answer(call) -> str:
    try:
        call()
    except DynamoDBError as error:
        return f"{error.code}: {error.message}"
    return "ok"


def test_a_table_is_creating_for_its_seconds_and_item_operations_do_not_find_it():
    clock = VirtualClock()
    db = partiql.connect(clock=clock, realism=LIFECYCLE)
    created = db.engine.create_table(TableName="Orders", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                                     BillingMode="PAY_PER_REQUEST")
    assert created["TableDescription"]["TableStatus"] == "CREATING"
    clock.advance(4.9)
    calls = {
        "PutItem": lambda: db.engine.put_item(TableName="Orders", Item={"pk": "a"}),
        "GetItem": lambda: db.engine.get_item(TableName="Orders", Key={"pk": "a"}),
        "BatchWriteItem": lambda: db.engine.batch_write_item(RequestItems={"Orders": [
            {"PutRequest": {"Item": {"pk": "b"}}}]}),
        "ExecuteStatement": lambda: db.execute("SELECT * FROM Orders WHERE pk = 'a'"),
    }
    assert {name: _answer(call) for name, call in calls.items()} == dict.fromkeys(
        calls, "ResourceNotFoundException: Requested resource not found")
    assert db.engine.describe_table(TableName="Orders")["Table"]["TableStatus"] == "CREATING"
    assert db.engine.list_tables()["TableNames"] == ["Orders"]  # (listed while CREATING)
    assert _answer(lambda: db.engine.delete_table(TableName="Orders")) == (
        "ResourceInUseException: Attempt to change a resource which is still in use: Table is being created: Orders")
    clock.advance(0.1)
    assert db.engine.describe_table(TableName="Orders")["Table"]["TableStatus"] == "ACTIVE"
    assert [_answer(call) for call in calls.values()] == ["ok"] * 4


def test_a_new_gsi_backfills_at_its_rate_and_cannot_be_read_until_it_is_active():
    clock = VirtualClock()
    db = partiql.connect(clock=clock, realism=LIFECYCLE)
    db.execute("CREATE TABLE Orders PRIMARY KEY (pk STRING HASH)")
    clock.advance(5)
    for n in range(1000):
        db.engine.put_item(TableName="Orders", Item={"pk": f"o{n}", "status": "open"})
    db.execute("ALTER TABLE Orders CREATE GSI (ByStatus ON (status STRING HASH) PROJECTING ALL)")
    query = {"TableName": "Orders", "IndexName": "ByStatus", "KeyConditionExpression": "#s = :s",
             "ExpressionAttributeNames": {"#s": "status"}, "ExpressionAttributeValues": {":s": "open"}}
    clock.advance(3.9)  # (2 s, then 1,000 items at 500 a second: ACTIVE at 4 s)
    (index,) = db.engine.describe_table(TableName="Orders")["Table"]["GlobalSecondaryIndexes"]
    assert (index["IndexStatus"], index["Backfilling"]) == ("CREATING", True)
    refused = "ValidationException: Cannot read from backfilling global secondary index: ByStatus"
    assert _answer(lambda: db.engine.query(**query)) == refused
    assert _answer(lambda: db.execute("SELECT * FROM \"Orders\".\"ByStatus\" WHERE status = 'open'")) == refused
    assert _answer(lambda: db.engine.put_item(TableName="Orders", Item={"pk": "x", "status": "open"})) == "ok"
    clock.advance(0.1)
    (index,) = db.engine.describe_table(TableName="Orders")["Table"]["GlobalSecondaryIndexes"]
    assert index["IndexStatus"] == "ACTIVE" and "Backfilling" not in index
    assert db.engine.query(**query)["Count"] == 1001


def test_the_aws_preset_and_a_file_give_each_engine_its_own_clocks(tmp_path):
    first, second = realism_from("aws"), realism_from("aws")
    assert first is not second and first.lifecycle.create == 15.0 and first.lifecycle.backfill == 3000.0
    with pytest.raises(RealismError, match=r"lifecycle.create takes a number >= 0 \(seconds\), not -1"):
        realism_from({"lifecycle": {"create": -1}})
    with pytest.raises(RealismError, match="lifecycle: unknown delete"):
        realism_from({"lifecycle": {"delete": 1}})


def test_boto3_s_waiter_waits_for_a_creating_table_over_the_wire():
    import boto3
    from botocore.config import Config

    from partiql.server import Server

    db = partiql.connect(realism={"lifecycle": {"create": 1.5}})
    polls = []
    with Server(db, port=0) as running:
        client = boto3.client("dynamodb", endpoint_url=running.url, region_name="us-east-1",
                              aws_access_key_id="a", aws_secret_access_key="b",
                              config=Config(retries={"max_attempts": 1}))
        client.meta.events.register("after-call.dynamodb.DescribeTable",
                                    lambda parsed, **_: polls.append(parsed["Table"]["TableStatus"]))
        client.create_table(TableName="Orders", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                            BillingMode="PAY_PER_REQUEST")
        with pytest.raises(client.exceptions.ResourceNotFoundException):
            client.put_item(TableName="Orders", Item={"pk": {"S": "a"}})
        client.get_waiter("table_exists").wait(TableName="Orders", WaiterConfig={"Delay": 0.5, "MaxAttempts": 20})
        client.put_item(TableName="Orders", Item={"pk": {"S": "a"}})
    db.close()
    assert polls[0] == "CREATING" and polls[-1] == "ACTIVE" and set(polls) == {"CREATING", "ACTIVE"}
