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
    assert first is not second and first.lifecycle.create == first.lifecycle.delete == 15.0
    assert first.lifecycle.backfill == 3000.0
    with pytest.raises(RealismError, match="lifecycle.create takes seconds from 0 to 86,400, not -1"):
        realism_from({"lifecycle": {"create": -1}})
    with pytest.raises(RealismError, match="lifecycle: unknown drop"):
        realism_from({"lifecycle": {"drop": 1}})


def test_boto3_s_waiter_waits_for_a_creating_table_over_the_wire(boto3_for):
    from partiql.server import Server

    db = partiql.connect(realism={"lifecycle": {"create": 1.5}})
    polls = []
    with Server(db, port=0) as running:
        client = boto3_for(running.url)
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


def test_a_deleted_table_is_deleting_for_its_seconds_then_gone():
    clock = VirtualClock()
    db = partiql.connect(clock=clock, realism={"lifecycle": {"delete": 3}})
    db.execute("CREATE TABLE Orders PRIMARY KEY (pk STRING HASH)")
    for name in ("Alpha", "Zeta"):
        db.execute(f"CREATE TABLE {name} PRIMARY KEY (pk STRING HASH)")
    assert db.engine.delete_table(TableName="Orders")["TableDescription"]["TableStatus"] == "DELETING"
    clock.advance(2.9)
    assert db.engine.describe_table(TableName="Orders")["Table"]["TableStatus"] == "DELETING"
    assert db.engine.list_tables()["TableNames"] == ["Alpha", "Orders", "Zeta"]  # (listed until gone)
    assert db.engine.list_tables(Limit=2) == {"TableNames": ["Alpha", "Orders"], "LastEvaluatedTableName": "Orders"}
    assert db.engine.list_tables(ExclusiveStartTableName="Alpha")["TableNames"] == ["Orders", "Zeta"]
    assert db.engine.delete_table(TableName="Orders")["TableDescription"]["TableStatus"] == "DELETING"
    assert _answer(lambda: db.engine.get_item(TableName="Orders", Key={"pk": "a"})) == (
        "ResourceNotFoundException: Requested resource not found")
    assert _answer(lambda: db.execute("CREATE TABLE Orders PRIMARY KEY (pk STRING HASH)")) == (
        "ResourceInUseException: Table already exists: Orders")
    clock.advance(0.1)
    assert _answer(lambda: db.engine.describe_table(TableName="Orders")).startswith("ResourceNotFoundException")
    assert db.engine.list_tables()["TableNames"] == ["Alpha", "Zeta"]
    assert _answer(lambda: db.execute("CREATE TABLE Orders PRIMARY KEY (pk STRING HASH)")) == "ok"


def test_boto3_s_waiter_waits_for_a_deleting_table_to_go_over_the_wire(boto3_for):
    from partiql.server import Server

    db = partiql.connect(realism={"lifecycle": {"delete": 1.5}})
    db.execute("CREATE TABLE Orders PRIMARY KEY (pk STRING HASH)")
    polls = []
    with Server(db, port=0) as running:
        client = boto3_for(running.url)
        client.meta.events.register("after-call.dynamodb.DescribeTable",
                                    lambda http_response, parsed, **_: polls.append(
                                        parsed.get("Table", {}).get("TableStatus", http_response.status_code)))
        client.delete_table(TableName="Orders")
        client.get_waiter("table_not_exists").wait(TableName="Orders",
                                                   WaiterConfig={"Delay": 0.5, "MaxAttempts": 20})
    db.close()
    assert polls[0] == "DELETING" and polls[-1] == 400 and set(polls) == {"DELETING", 400}


def test_the_aws_cli_waits_for_a_creating_table(tmp_path):
    """``aws dynamodb wait table-exists``: the CLI's own waiter, its 20-s delay cut to 1 s by a copy of botocore's
    waiter model on AWS_DATA_PATH (how botocore lets a model be overridden)."""
    import json
    import os
    import shutil
    import subprocess
    import time
    from pathlib import Path

    import botocore

    from partiql.server import Server

    if shutil.which("aws") is None:
        pytest.skip("the AWS CLI (awscli, test extra) is not installed")
    shipped = Path(botocore.__file__).parent / "data" / "dynamodb" / "2012-08-10" / "waiters-2.json"
    waiters = json.loads(shipped.read_text())
    waiters["waiters"]["TableExists"]["delay"] = 1
    target = tmp_path / "dynamodb" / "2012-08-10" / "waiters-2.json"
    target.parent.mkdir(parents=True)
    target.write_text(json.dumps(waiters))
    env = {**os.environ, "AWS_ACCESS_KEY_ID": "any", "AWS_SECRET_ACCESS_KEY": "any", "AWS_DEFAULT_REGION": "us-east-1",
           "AWS_MAX_ATTEMPTS": "1", "AWS_PAGER": "", "AWS_DATA_PATH": str(tmp_path)}
    db = partiql.connect(realism={"lifecycle": {"create": 4}})
    with Server(db, port=0) as running:
        db.execute("CREATE TABLE Orders PRIMARY KEY (pk STRING HASH)")
        assert db.engine.describe_table(TableName="Orders")["Table"]["TableStatus"] == "CREATING"
        started = time.monotonic()
        waited = subprocess.run(["aws", "dynamodb", "wait", "table-exists", "--table-name", "Orders",
                                 "--endpoint-url", running.url], capture_output=True, text=True, env=env, timeout=60)
        took = time.monotonic() - started
        active = db.engine.describe_table(TableName="Orders")["Table"]["TableStatus"]
    db.close()
    assert waited.returncode == 0, waited.stderr
    assert active == "ACTIVE" and 3 < took < 20  # (it waited out the 4 s, polling each second, not 20 s a poll)


def _ttl_db(lifecycle: dict, seed: int = 0):
    clock = VirtualClock()
    db = partiql.connect(clock=clock, realism={"seed": seed, "lifecycle": lifecycle})
    db.execute("CREATE TABLE Sessions PRIMARY KEY (pk STRING HASH)")
    return db, clock


def _ttl(db, enabled=True):
    return db.engine.update_time_to_live(TableName="Sessions", TimeToLiveSpecification={
        "Enabled": enabled, "AttributeName": "expires"})


def _status(db) -> dict:
    return db.engine.describe_time_to_live(TableName="Sessions")["TimeToLiveDescription"]


def test_time_to_live_is_enabling_then_disabling_for_its_seconds_and_expires_nothing_meanwhile():
    from partiql.engine.ttl import sweep

    db, clock = _ttl_db({"ttl": 5})
    db.engine.put_item(TableName="Sessions", Item={"pk": "old", "expires": int(db.engine.epoch()) - 60})
    _ttl(db)
    assert _status(db) == {"TimeToLiveStatus": "ENABLING", "AttributeName": "expires"}
    assert _answer(lambda: _ttl(db, False)) == ("ValidationException: Time to live has been modified multiple times "
                                               "within a fixed interval")
    clock.advance(4.9)
    assert sweep(db.engine) == 0
    clock.advance(0.1)
    assert _status(db) == {"TimeToLiveStatus": "ENABLED", "AttributeName": "expires"}
    assert sweep(db.engine) == 1
    _ttl(db, False)
    assert _status(db) == {"TimeToLiveStatus": "DISABLING", "AttributeName": "expires"}
    clock.advance(5)
    assert _status(db) == {"TimeToLiveStatus": "DISABLED"}


def test_time_to_live_cannot_be_configured_while_a_table_is_creating_or_deleting():
    db, clock = _ttl_db({"create": 5, "delete": 5})
    db.execute("CREATE TABLE Later PRIMARY KEY (pk STRING HASH)")
    later = lambda: db.engine.update_time_to_live(TableName="Later", TimeToLiveSpecification={  # noqa: E731
        "Enabled": True, "AttributeName": "expires"})
    refused = ("ValidationException: Time to live cannot be configured when table is in CREATING or DELETING "
               "state")
    assert _answer(later) == refused
    clock.advance(5)
    assert _answer(later) == "ok"
    db.engine.delete_table(TableName="Later")
    assert _answer(later) == refused


def _expiry(seed: int) -> list:
    """How many of 100 items expired together the sweep has deleted after 0, 150, …, 600 s of a 600-s lag."""
    from partiql.engine.ttl import sweep

    db, clock = _ttl_db({"ttl_lag": 600}, seed)
    now = int(db.engine.epoch())
    for n in range(100):
        db.engine.put_item(TableName="Sessions", Item={"pk": f"s{n}", "expires": now})
    _ttl(db)
    gone, out = 0, []
    for _ in range(5):
        clock.advance(150 if out else 1)
        gone += sweep(db.engine)
        out.append(gone)
    return out


def test_expired_items_are_deleted_over_the_lag_the_same_way_for_a_seed():
    counts = _expiry(3)
    assert counts == sorted(counts) and counts[0] <= 2 and counts[-1] == 100
    assert 10 <= counts[1] <= 40 and 35 <= counts[2] <= 65  # (delays spread evenly over the lag)
    assert _expiry(3) == counts and _expiry(4) != counts
