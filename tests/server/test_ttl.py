"""Time to Live: the settings (item-api §6.1) and the expiry sweep (§6.2), on a virtual clock."""

from __future__ import annotations

from decimal import Decimal

import pytest

import partiql
from partiql.api import Connection
from partiql.engine import Engine
from partiql.engine.clock import VirtualClock
from partiql.engine import ttl

NOW = 1_800_000_000  # epoch seconds the virtual clock starts at
YEAR = 365 * 24 * 3600
HASH = dict(KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}], BillingMode="PAY_PER_REQUEST")


@pytest.fixture
def clock():
    return VirtualClock()


@pytest.fixture
def engine(clock):
    engine = Engine(clock=clock)
    engine.epoch.anchor = NOW  # epoch seconds at the clock's start
    engine.create_table(TableName="Tab", **HASH)
    engine.update_time_to_live(TableName="Tab", TimeToLiveSpecification={"Enabled": True, "AttributeName": "exp"})
    return engine


def keys(engine) -> list[str]:
    return sorted(item["pk"] for item in engine.scan(TableName="Tab")["Items"])


@pytest.mark.parametrize("value, expires", [
    (Decimal(NOW + 10), True),
    (Decimal(NOW + 11), False),            # not yet: the clock stands at NOW + 10.5
    (Decimal(NOW - YEAR), True),
    (Decimal(NOW - 6 * YEAR), False),     # more than five years old: ignored (malformed data)
    (Decimal("1.8e9"), True),             # any notation
    (Decimal(NOW) + Decimal("0.25"), True),
    ("1000", False),                       # a string never expires
    ({"at": Decimal(1)}, False),           # nor a map
    ({Decimal(1)}, False),                 # nor a number set
], ids=["past", "future", "year-old", "six-years-old", "exponent", "fraction", "string", "map", "set"])
def test_sweep_deletes_what_has_expired(engine, clock, value, expires):
    engine.put_item(TableName="Tab", Item={"pk": "x", "exp": value})
    engine.put_item(TableName="Tab", Item={"pk": "no-ttl"})
    clock.advance(10.5)
    assert ttl.sweep(engine) == int(expires)
    assert keys(engine) == (["no-ttl"] if expires else ["no-ttl", "x"])


def test_expired_items_stay_readable_until_a_sweep(engine, clock):
    engine.put_item(TableName="Tab", Item={"pk": "x", "exp": NOW + 1})
    clock.advance(5)
    assert engine.get_item(TableName="Tab", Key={"pk": "x"})["Item"]["exp"] == NOW + 1
    assert keys(engine) == ["x"]
    assert ttl.sweep(engine) == 1
    assert "Item" not in engine.get_item(TableName="Tab", Key={"pk": "x"})


def test_updating_the_attribute_before_the_sweep_saves_the_item(engine, clock):
    engine.put_item(TableName="Tab", Item={"pk": "x", "exp": NOW + 1})
    clock.advance(5)
    engine.update_item(TableName="Tab", Key={"pk": "x"}, UpdateExpression="SET exp = :e",
                       ExpressionAttributeValues={":e": NOW + 100})
    assert ttl.sweep(engine) == 0 and keys(engine) == ["x"]


def test_disabled_ttl_expires_nothing(engine, clock):
    engine.put_item(TableName="Tab", Item={"pk": "x", "exp": NOW})
    engine.update_time_to_live(TableName="Tab", TimeToLiveSpecification={"Enabled": False, "AttributeName": "exp"})
    clock.advance(5)
    assert ttl.sweep(engine) == 0 and keys(engine) == ["x"]


def test_sweep_deletes_through_the_write_path_as_the_service(engine, clock, monkeypatch):
    engine.create_table(TableName="Idx", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                              {"AttributeName": "g", "AttributeType": "S"}],
                        GlobalSecondaryIndexes=[{"IndexName": "gix", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                                 "Projection": {"ProjectionType": "ALL"}}],
                        BillingMode="PAY_PER_REQUEST")
    engine.update_time_to_live(TableName="Idx", TimeToLiveSpecification={"Enabled": True, "AttributeName": "exp"})
    engine.put_item(TableName="Idx", Item={"pk": "x", "g": "G", "exp": NOW})
    applied = []
    original = Engine.apply
    monkeypatch.setattr(Engine, "apply", lambda self, mutations: applied.extend(mutations) or original(self, mutations))
    clock.advance(1)
    assert ttl.sweep(engine) == 1
    assert [(m.table.name, m.new, m.service) for m in applied] == [("Idx", None, True)]
    assert engine.query(TableName="Idx", IndexName="gix", KeyConditionExpression="g = :g",
                        ExpressionAttributeValues={":g": "G"})["Items"] == []


def test_sweep_is_bounded_per_step(engine, clock):
    for i in range(5):
        engine.put_item(TableName="Tab", Item={"pk": f"k{i}", "exp": NOW})
    clock.advance(1)
    assert [ttl.sweep(engine, batch=2) for _ in range(4)] == [2, 2, 1, 0]


@pytest.mark.parametrize("steps, message", [
    ([(True, "exp"), (True, "exp")], "TimeToLive is already enabled"),
    ([(True, "exp"), (True, "other")], "TimeToLive is active on a different AttributeName"),
    ([(False, "exp")], "TimeToLive is already disabled"),
    ([(True, "exp"), (False, "other")], "TimeToLive is active on a different AttributeName"),
], ids=["enable-twice", "enable-other", "disable-disabled", "disable-other"])
def test_update_time_to_live_errors(steps, message):
    engine = Engine()
    engine.create_table(TableName="Tab", **HASH)
    *setup, (enabled, name) = steps
    for on, attribute in setup:
        engine.update_time_to_live(TableName="Tab", TimeToLiveSpecification={"Enabled": on, "AttributeName": attribute})
    with pytest.raises(partiql.engine.errors.ValidationException) as error:
        engine.update_time_to_live(TableName="Tab", TimeToLiveSpecification={"Enabled": enabled, "AttributeName": name})
    assert error.value.message == message


def test_describe_time_to_live():
    engine = Engine()
    engine.create_table(TableName="Tab", **HASH)
    assert engine.describe_time_to_live(TableName="Tab") == {"TimeToLiveDescription": {"TimeToLiveStatus": "DISABLED"}}
    assert engine.update_time_to_live(TableName="Tab", TimeToLiveSpecification={"Enabled": True, "AttributeName": "e"}) == {
        "TimeToLiveSpecification": {"Enabled": True, "AttributeName": "e"}}
    assert engine.describe_time_to_live(TableName="Tab") == {
        "TimeToLiveDescription": {"TimeToLiveStatus": "ENABLED", "AttributeName": "e"}}


def test_ttl_and_tags_are_kept_in_the_database_file(tmp_path):
    path = tmp_path / "app.db"
    with partiql.connect(path) as db:
        db.engine.create_table(TableName="Tab", Tags=[{"Key": "team", "Value": "a"}], **HASH)
        db.engine.update_time_to_live(TableName="Tab", TimeToLiveSpecification={"Enabled": True, "AttributeName": "exp"})
        arn = db.describe("Tab")["TableArn"]
        db.engine.tag_resource(ResourceArn=arn, Tags=[{"Key": "env", "Value": "dev"}])
    with partiql.connect(path) as db:
        assert db.engine.describe_time_to_live(TableName="Tab")["TimeToLiveDescription"]["AttributeName"] == "exp"
        assert db.engine.list_tags_of_resource(ResourceArn=arn)["Tags"] == [
            {"Key": "team", "Value": "a"}, {"Key": "env", "Value": "dev"}]


def test_the_server_sweeps_on_its_own(clock):
    """The Sweeper task runs steps in the server's loop (interval shortened; expiry judged on the clock)."""
    import time

    from partiql.server import Server

    engine = Engine(clock=clock)
    engine.create_table(TableName="Tab", **HASH)
    engine.update_time_to_live(TableName="Tab", TimeToLiveSpecification={"Enabled": True, "AttributeName": "exp"})
    engine.put_item(TableName="Tab", Item={"pk": "x", "exp": int(engine.epoch()) - 1})
    with Server(Connection(engine), port=0, ttl_interval=0.01):
        deadline = time.monotonic() + 30
        while keys(engine) and time.monotonic() < deadline:
            time.sleep(0.01)  # waiting for the background task, not timing it
    assert keys(engine) == []
