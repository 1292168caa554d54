"""DynamoDB Streams over the wire (issue #17): boto3's ``dynamodbstreams`` client against ``partiql serve``.

Each view type; INSERT / MODIFY / REMOVE in order across puts, updates, deletes, batches, transactions and
PartiQL, none for a no-op; LATEST vs TRIM_HORIZON vs AT_ / AFTER_SEQUENCE_NUMBER; shard lineage after a
split; expiry of iterators (15 minutes) and records (24 hours) on a virtual clock; TTL deletions and their
userIdentity; a disabled stream; the errors; readers and writers in threads started together; a file
database restarted; generated and mangled requests never a 500.
"""

from __future__ import annotations

import itertools
import json
import threading
from decimal import Decimal

import pytest
from botocore.exceptions import ClientError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import partiql
from partiql.engine import ttl
from partiql.engine.clock import VirtualClock
from partiql.engine.types import item_size
from partiql.server import Server
from partiql.server.handler import Handler

from .. import fuzzing
from ..server.conftest import REGION

NOW = 1_800_000_000  # epoch seconds at the virtual clock's start
KEY = {"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
       "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}
ONE_PARTITION = {"ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}}
SERVICE = {"Type": "Service", "PrincipalId": "dynamodb.amazonaws.com"}
_names = itertools.count()


@pytest.fixture(scope="module")
def clock():
    return VirtualClock()


@pytest.fixture(scope="module")
def db(clock):
    connection = partiql.connect(clock=clock, throughput="off")
    connection.engine.epoch.anchor = NOW
    yield connection
    connection.close()


@pytest.fixture(scope="module")
def server(db):
    with Server(db, port=0) as running:
        yield running


def clients(url: str):
    import boto3
    from botocore.config import Config

    options = dict(endpoint_url=url, region_name=REGION, aws_access_key_id="k", aws_secret_access_key="s",
                   config=Config(retries={"max_attempts": 1}, parameter_validation=False))
    return boto3.client("dynamodb", **options), boto3.client("dynamodbstreams", **options)


@pytest.fixture(scope="module")
def ddb(server):
    return clients(server.url)[0]


@pytest.fixture(scope="module")
def streams(server):
    return clients(server.url)[1]


def new_table(ddb, view_type="NEW_AND_OLD_IMAGES", **extra) -> tuple[str, str]:
    """(table name, stream ARN) of a new table with a stream (one partition unless ``extra`` says)."""
    name = f"Streamed{next(_names)}"
    options = {**KEY, **(extra or ONE_PARTITION)}
    ddb.create_table(TableName=name, StreamSpecification={"StreamEnabled": True, "StreamViewType": view_type},
                     **options)
    return name, ddb.describe_table(TableName=name)["Table"]["LatestStreamArn"]


def shards(streams, arn: str, **extra) -> list:
    return streams.describe_stream(StreamArn=arn, **extra)["StreamDescription"]["Shards"]


def iterator(streams, arn: str, shard_id: str, kind="TRIM_HORIZON", sequence=None) -> str:
    extra = {} if sequence is None else {"SequenceNumber": sequence}
    return streams.get_shard_iterator(StreamArn=arn, ShardId=shard_id, ShardIteratorType=kind,
                                      **extra)["ShardIterator"]


def drain(streams, shard_iterator: str, limit: int = 1000) -> tuple[list, str | None]:
    """Every record from ``shard_iterator`` on, page by page; (records, the last NextShardIterator)."""
    found = []
    while shard_iterator is not None:
        page = streams.get_records(ShardIterator=shard_iterator, Limit=limit)
        found += page["Records"]
        following = page.get("NextShardIterator")
        if not page["Records"]:
            return found, following
        shard_iterator = following
    return found, None


def all_records(streams, arn: str) -> list:
    """Every record of every shard, in sequence-number order."""
    found = []
    for shard in shards(streams, arn):
        found += drain(streams, iterator(streams, arn, shard["ShardId"]))[0]
    return sorted(found, key=lambda record: int(record["dynamodb"]["SequenceNumber"]))


def events(records: list) -> list:
    return [(record["eventName"], record["dynamodb"]["Keys"]["pk"]["S"]) for record in records]


def error_of(call, **request) -> tuple[str, str]:
    with pytest.raises(ClientError) as caught:
        call(**request)
    return caught.value.response["Error"]["Code"], caught.value.response["Error"]["Message"]


# ------------------------------------------------------------------ records

# view type -> (members of the INSERT, MODIFY and REMOVE records' "dynamodb" beyond the common ones)
VIEWS = {
    "KEYS_ONLY": ((), (), ()),
    "NEW_IMAGE": (("NewImage",), ("NewImage",), ()),
    "OLD_IMAGE": ((), ("OldImage",), ("OldImage",)),
    "NEW_AND_OLD_IMAGES": (("NewImage",), ("NewImage", "OldImage"), ("OldImage",)),
}
FIRST = {"pk": {"S": "a"}, "n": {"N": "1"}, "tags": {"SS": ["x", "y"]}}
SECOND = {"pk": {"S": "a"}, "n": {"N": "2"}, "m": {"M": {"deep": {"L": [{"BOOL": True}]}}}}
WIRE = {"FIRST": FIRST, "SECOND": SECOND}
ENGINE = {"FIRST": {"pk": "a", "n": Decimal(1), "tags": frozenset({"x", "y"})},
          "SECOND": {"pk": "a", "n": Decimal(2), "m": {"deep": [True]}}}


@pytest.mark.parametrize("view_type", VIEWS)
def test_each_view_type_carries_its_images(ddb, streams, view_type):
    name, arn = new_table(ddb, view_type)
    ddb.put_item(TableName=name, Item=FIRST)
    ddb.put_item(TableName=name, Item=SECOND)
    ddb.delete_item(TableName=name, Key={"pk": {"S": "a"}})
    found = all_records(streams, arn)
    assert [record["eventName"] for record in found] == ["INSERT", "MODIFY", "REMOVE"]
    for record, members, (new, old) in zip(found, VIEWS[view_type], [("FIRST", None), ("SECOND", "FIRST"),
                                                                      (None, "SECOND")]):
        body = record["dynamodb"]
        assert set(body) == {"ApproximateCreationDateTime", "Keys", "SequenceNumber", "SizeBytes",
                             "StreamViewType", *members}
        assert body["Keys"] == {"pk": {"S": "a"}} and body["StreamViewType"] == view_type
        shown = {"NewImage": new, "OldImage": old}
        for member in members:
            assert body[member] == WIRE[shown[member]]
        assert body["SizeBytes"] == item_size({"pk": "a"}) + sum(item_size(ENGINE[shown[m]]) for m in members)
        assert int(body["ApproximateCreationDateTime"].timestamp()) == int(NOW + 0)  # the clock's second
        assert (record["eventVersion"], record["eventSource"], record["awsRegion"]) == ("1.1", "aws:dynamodb",
                                                                                        REGION)
        assert len(record["eventID"]) == 32 and int(record["eventID"], 16) >= 0
        assert "userIdentity" not in record
    assert len({record["eventID"] for record in found}) == 3
    numbers = [int(record["dynamodb"]["SequenceNumber"]) for record in found]
    assert numbers == sorted(numbers) and all(len(r["dynamodb"]["SequenceNumber"]) == 21 for r in found)


def test_records_follow_every_kind_of_write_in_order_and_none_for_a_no_op(ddb, streams):
    name, arn = new_table(ddb, "KEYS_ONLY")
    s = lambda text: {"S": text}  # noqa: E731
    steps = [
        (lambda: ddb.put_item(TableName=name, Item={"pk": s("a"), "v": s("1")}), [("INSERT", "a")]),
        (lambda: ddb.put_item(TableName=name, Item={"pk": s("a"), "v": s("1")}), []),
        (lambda: ddb.update_item(TableName=name, Key={"pk": s("a")}, UpdateExpression="SET v = :v",
                                 ExpressionAttributeValues={":v": s("2")}), [("MODIFY", "a")]),
        (lambda: ddb.update_item(TableName=name, Key={"pk": s("a")}, UpdateExpression="SET v = :v",
                                 ExpressionAttributeValues={":v": s("2")}), []),
        (lambda: ddb.batch_write_item(RequestItems={name: [
            {"PutRequest": {"Item": {"pk": s("b")}}}, {"PutRequest": {"Item": {"pk": s("c")}}},
            {"DeleteRequest": {"Key": {"pk": s("a")}}}, {"DeleteRequest": {"Key": {"pk": s("zz")}}}]}),
         [("INSERT", "b"), ("INSERT", "c"), ("REMOVE", "a")]),
        (lambda: ddb.transact_write_items(TransactItems=[
            {"Put": {"TableName": name, "Item": {"pk": s("d")}}},
            {"Update": {"TableName": name, "Key": {"pk": s("b")}, "UpdateExpression": "SET w = :w",
                        "ExpressionAttributeValues": {":w": s("x")}}},
            {"ConditionCheck": {"TableName": name, "Key": {"pk": s("c")},
                                "ConditionExpression": "attribute_exists(pk)"}}]),
         [("INSERT", "d"), ("MODIFY", "b")]),
        (lambda: pytest.raises(ClientError, ddb.transact_write_items, TransactItems=[
            {"Put": {"TableName": name, "Item": {"pk": s("e")}}},
            {"ConditionCheck": {"TableName": name, "Key": {"pk": s("nope")},
                                "ConditionExpression": "attribute_exists(pk)"}}]), []),
        (lambda: ddb.execute_statement(Statement=f"INSERT INTO {name} VALUE {{'pk': 'f'}}"), [("INSERT", "f")]),
        (lambda: ddb.execute_statement(Statement=f"UPDATE {name} SET q = 1 WHERE pk = 'f'"), [("MODIFY", "f")]),
        (lambda: ddb.execute_statement(Statement=f"DELETE FROM {name} WHERE pk = 'f'"), [("REMOVE", "f")]),
        (lambda: ddb.delete_item(TableName=name, Key={"pk": s("f")}), []),
    ]
    expected = []
    for step, adds in steps:
        step()
        expected += adds
        assert events(all_records(streams, arn)) == expected


def test_latest_sees_only_what_comes_after_it_and_trim_horizon_everything(ddb, streams):
    name, arn = new_table(ddb)
    (shard,) = shards(streams, arn)
    ddb.put_item(TableName=name, Item={"pk": {"S": "before"}})
    latest = iterator(streams, arn, shard["ShardId"], "LATEST")
    horizon = iterator(streams, arn, shard["ShardId"], "TRIM_HORIZON")
    empty = streams.get_records(ShardIterator=latest)
    assert empty["Records"] == [] and empty["NextShardIterator"]
    ddb.put_item(TableName=name, Item={"pk": {"S": "after"}})
    assert events(drain(streams, latest)[0]) == [("INSERT", "after")]
    assert events(drain(streams, horizon)[0]) == [("INSERT", "before"), ("INSERT", "after")]
    first = drain(streams, horizon)[0][0]["dynamodb"]["SequenceNumber"]
    at = iterator(streams, arn, shard["ShardId"], "AT_SEQUENCE_NUMBER", first)
    after = iterator(streams, arn, shard["ShardId"], "AFTER_SEQUENCE_NUMBER", first)
    assert events(drain(streams, at)[0]) == [("INSERT", "before"), ("INSERT", "after")]
    assert events(drain(streams, after)[0]) == [("INSERT", "after")]


def test_get_records_pages_by_limit_and_the_next_iterator_polls(ddb, streams):
    name, arn = new_table(ddb, "KEYS_ONLY")
    (shard,) = shards(streams, arn)
    for n in range(7):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"k{n}"}})
    page = streams.get_records(ShardIterator=iterator(streams, arn, shard["ShardId"]), Limit=3)
    assert events(page["Records"]) == [("INSERT", f"k{n}") for n in range(3)]
    rest, following = drain(streams, page["NextShardIterator"], limit=2)
    assert events(rest) == [("INSERT", f"k{n}") for n in range(3, 7)]
    ddb.put_item(TableName=name, Item={"pk": {"S": "late"}})
    assert events(streams.get_records(ShardIterator=following)["Records"]) == [("INSERT", "late")]


def test_shards_follow_a_split_with_their_lineage(ddb, streams):
    name, arn = new_table(ddb, "KEYS_ONLY")
    (parent,) = shards(streams, arn)
    for n in range(20):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"k{n}"}})
    ddb.update_table(TableName=name, ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 1500})
    for n in range(20, 40):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"k{n}"}})
    every = shards(streams, arn)
    assert [s["ShardId"] for s in every] == sorted(s["ShardId"] for s in every)
    closed = next(s for s in every if s["ShardId"] == parent["ShardId"])
    children = shards(streams, arn, ShardFilter={"Type": "CHILD_SHARDS", "ShardId": parent["ShardId"]})
    assert len(children) == 2 and all(child["ParentShardId"] == parent["ShardId"] for child in children)
    assert all("EndingSequenceNumber" not in child["SequenceNumberRange"] for child in children)
    parent_records, following = drain(streams, iterator(streams, arn, parent["ShardId"]))
    assert following is None  # a closed shard read to its end has no next iterator
    assert events(parent_records) == [("INSERT", f"k{n}") for n in range(20)]
    end = closed["SequenceNumberRange"]["EndingSequenceNumber"]
    assert end == parent_records[-1]["dynamodb"]["SequenceNumber"]
    for child in children:
        found = drain(streams, iterator(streams, arn, child["ShardId"]))[0]
        assert all(int(r["dynamodb"]["SequenceNumber"]) > int(end) for r in found)
    assert sorted(events(all_records(streams, arn))) == sorted(("INSERT", f"k{n}") for n in range(40))
    paged, start = [], {}
    while True:  # one shard a page
        description = streams.describe_stream(StreamArn=arn, Limit=1, **start)["StreamDescription"]
        paged += description["Shards"]
        if "LastEvaluatedShardId" not in description:
            break
        start = {"ExclusiveStartShardId": description["LastEvaluatedShardId"]}
    assert paged == every
    assert shards(streams, arn, ExclusiveStartShardId=every[-1]["ShardId"]) == []


# ------------------------------------------------------------------ time

def test_iterators_expire_after_fifteen_minutes_on_the_clock(ddb, streams, clock):
    name, arn = new_table(ddb)
    (shard,) = shards(streams, arn)
    old = iterator(streams, arn, shard["ShardId"])
    clock.advance(15 * 60 - 1)
    fresh = streams.get_records(ShardIterator=old)["NextShardIterator"]
    clock.advance(2)
    assert error_of(streams.get_records, ShardIterator=old) == (
        "ExpiredIteratorException", "The provided iterator exceeds the maximum age allowed.")
    assert streams.get_records(ShardIterator=fresh)["Records"] == []


def test_records_are_trimmed_after_a_day_on_the_clock(ddb, streams, clock):
    name, arn = new_table(ddb, "KEYS_ONLY")
    (shard,) = shards(streams, arn)
    ddb.put_item(TableName=name, Item={"pk": {"S": "old"}})
    first = all_records(streams, arn)[0]["dynamodb"]["SequenceNumber"]
    clock.advance(24 * 3600 - 600)
    ddb.put_item(TableName=name, Item={"pk": {"S": "new"}})
    at_old = iterator(streams, arn, shard["ShardId"], "AT_SEQUENCE_NUMBER", first)
    clock.advance(601)  # "old" is more than a day old now; the iterator is ten minutes old
    trimmed = ("TrimmedDataAccessException",
               "The operation attempted to read past the oldest stream record in a shard.")
    assert error_of(streams.get_records, ShardIterator=at_old) == trimmed
    assert error_of(streams.get_shard_iterator, StreamArn=arn, ShardId=shard["ShardId"],
                    ShardIteratorType="AT_SEQUENCE_NUMBER", SequenceNumber=first) == trimmed
    assert events(all_records(streams, arn)) == [("INSERT", "new")]


def test_a_disabled_stream_stays_readable_for_a_day_and_a_new_enable_is_a_new_stream(ddb, streams, clock):
    name, arn = new_table(ddb, "KEYS_ONLY")
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
    ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": False})
    description = streams.describe_stream(StreamArn=arn)["StreamDescription"]
    assert description["StreamStatus"] == "DISABLED"
    assert all("EndingSequenceNumber" in s["SequenceNumberRange"] for s in description["Shards"])
    assert events(all_records(streams, arn)) == [("INSERT", "a")]
    clock.advance(0.002)
    ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
    second = ddb.describe_table(TableName=name)["Table"]["LatestStreamArn"]
    assert second != arn
    listed = streams.list_streams(TableName=name)["Streams"]
    assert [entry["StreamArn"] for entry in listed] == [arn, second]
    clock.advance(24 * 3600 + 1)
    assert error_of(streams.describe_stream, StreamArn=arn)[0] == "ResourceNotFoundException"
    assert [entry["StreamArn"] for entry in streams.list_streams(TableName=name)["Streams"]] == [second]
    ddb.delete_table(TableName=name)  # a deleted table's stream is disabled, still readable
    assert streams.describe_stream(StreamArn=second)["StreamDescription"]["StreamStatus"] == "DISABLED"


def test_ttl_deletions_carry_the_service_identity(db, ddb, streams):
    name, arn = new_table(ddb)
    ddb.update_time_to_live(TableName=name, TimeToLiveSpecification={"Enabled": True, "AttributeName": "exp"})
    expired = {"pk": {"S": "gone"}, "exp": {"N": str(int(db.engine.epoch()) - 10)}}
    ddb.put_item(TableName=name, Item=expired)
    ddb.put_item(TableName=name, Item={"pk": {"S": "mine"}})
    ddb.delete_item(TableName=name, Key={"pk": {"S": "mine"}})
    while ttl.sweep(db.engine):
        pass
    found = all_records(streams, arn)
    assert events(found) == [("INSERT", "gone"), ("INSERT", "mine"), ("REMOVE", "mine"), ("REMOVE", "gone")]
    assert "userIdentity" not in found[2]
    assert found[3]["userIdentity"] == SERVICE
    assert found[3]["dynamodb"]["OldImage"] == expired


# ------------------------------------------------------------------ errors

GOOD_ARN = "arn:aws:dynamodb:us-east-1:123456789012:table/Nope/stream/2020-01-01T00:00:00.000"
BAD_SHARD = "shardId-00000000000000000999-00000000"


def _errors(arn: str, shard_id: str):
    """(what, operation, request, error code, message or None when only the code is pinned)."""
    return [
        ("list limit 0", "list_streams", {"Limit": 0}, "ValidationException",
         "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
         "Member must have value greater than or equal to 1"),
        ("list limit 101", "list_streams", {"Limit": 101}, "ValidationException", None),
        ("list unknown table", "list_streams", {"TableName": "Nope"}, "ResourceNotFoundException",
         "Requested resource not found: Table: Nope not found"),
        ("describe malformed arn", "describe_stream", {"StreamArn": "x" * 40}, "ValidationException",
         "Invalid StreamArn"),
        ("describe unknown stream", "describe_stream", {"StreamArn": GOOD_ARN}, "ResourceNotFoundException",
         f"Requested resource not found: Stream: {GOOD_ARN} not found"),
        ("iterator unknown shard", "get_shard_iterator",
         {"StreamArn": arn, "ShardId": BAD_SHARD, "ShardIteratorType": "LATEST"}, "ResourceNotFoundException",
         "Requested resource not found: Shard does not exist"),
        ("AT without a number", "get_shard_iterator",
         {"StreamArn": arn, "ShardId": shard_id, "ShardIteratorType": "AT_SEQUENCE_NUMBER"},
         "ValidationException", None),
        ("TRIM_HORIZON with a number", "get_shard_iterator",
         {"StreamArn": arn, "ShardId": shard_id, "ShardIteratorType": "TRIM_HORIZON",
          "SequenceNumber": "1" * 21}, "ValidationException", None),
        ("a number not a number", "get_shard_iterator",
         {"StreamArn": arn, "ShardId": shard_id, "ShardIteratorType": "AFTER_SEQUENCE_NUMBER",
          "SequenceNumber": "x" * 21}, "ValidationException", None),
        ("a number beyond the shard", "get_shard_iterator",
         {"StreamArn": arn, "ShardId": shard_id, "ShardIteratorType": "AT_SEQUENCE_NUMBER",
          "SequenceNumber": "9" * 30}, "ValidationException", None),
        ("records limit 1001", "get_records", {"ShardIterator": "abc", "Limit": 1001}, "ValidationException",
         "1 validation error detected: Value '1001' at 'limit' failed to satisfy constraint: "
         "Member must have value less than or equal to 1000"),
        ("garbage iterator", "get_records", {"ShardIterator": "garbage"}, "ValidationException",
         "Invalid ShardIterator"),
    ]


def test_errors_are_dynamodb_streams_errors(ddb, streams):
    _, arn = new_table(ddb)
    (shard,) = shards(streams, arn)
    for what, operation, request, code, message in _errors(arn, shard["ShardId"]):
        found = error_of(getattr(streams, operation), **request)
        assert found[0] == code, what
        if message is not None:
            assert found[1] == message, what


def test_list_streams_pages_and_filters(ddb, streams):
    made = [new_table(ddb)[1] for _ in range(3)]
    every, start = [], {}
    while True:
        page = streams.list_streams(Limit=2, **start)
        every += [entry["StreamArn"] for entry in page["Streams"]]
        if "LastEvaluatedStreamArn" not in page:
            break
        start = {"ExclusiveStartStreamArn": page["LastEvaluatedStreamArn"]}
    assert every == [entry["StreamArn"] for entry in streams.list_streams()["Streams"]]
    assert every[-3:] == made
    table = made[1].split("/")[1]
    assert streams.list_streams(TableName=table)["Streams"] == [
        {"StreamArn": made[1], "TableName": table, "StreamLabel": made[1].split("/")[-1]}]


# ------------------------------------------------------------------ threads

def test_readers_see_every_write_once_in_order_while_writers_write(server, ddb, streams):
    name, arn = new_table(ddb, "KEYS_ONLY")
    (shard,) = shards(streams, arn)
    writers, per_writer, readers = 4, 40, 3
    start = threading.Barrier(writers + readers)
    seen: dict = {}
    failures: list = []

    def write(number: int) -> None:
        client = clients(server.url)[0]
        start.wait()
        for n in range(per_writer):
            client.put_item(TableName=name, Item={"pk": {"S": f"w{number}-{n}"}})

    def read(number: int) -> None:
        client = clients(server.url)[1]
        position = iterator(client, arn, shard["ShardId"])
        found = seen[number] = []
        start.wait()
        try:
            for _ in range(10_000):
                if len(found) >= writers * per_writer:
                    return
                page = client.get_records(ShardIterator=position, Limit=7)
                found += page["Records"]
                position = page["NextShardIterator"]
        except Exception as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(writers)]
    threads += [threading.Thread(target=read, args=(n,)) for n in range(readers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not failures
    expected = sorted(f"w{w}-{n}" for w in range(writers) for n in range(per_writer))
    for found in seen.values():
        numbers = [int(record["dynamodb"]["SequenceNumber"]) for record in found]
        assert numbers == sorted(set(numbers))  # in order, each once
        assert sorted(key for _, key in events(found)) == expected
        for w in range(writers):  # one writer's items in its order
            mine = [key for _, key in events(found) if key.startswith(f"w{w}-")]
            assert mine == [f"w{w}-{n}" for n in range(per_writer)]


# ------------------------------------------------------------------ restart

def test_a_file_database_keeps_its_records_and_numbers_across_a_restart(tmp_path):
    path = tmp_path / "streams.db"
    with partiql.connect(path) as db, Server(db, port=0) as running:
        ddb, streams = clients(running.url)
        name, arn = new_table(ddb, "NEW_AND_OLD_IMAGES")
        ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "n": {"N": "1"}})
        ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "n": {"N": "2"}})
        ddb.delete_item(TableName=name, Key={"pk": {"S": "a"}})
        before = all_records(streams, arn)
        shards_before = shards(streams, arn)
    with partiql.connect(path) as db, Server(db, port=0) as running:
        ddb, streams = clients(running.url)
        assert ddb.describe_table(TableName=name)["Table"]["LatestStreamArn"] == arn
        assert shards(streams, arn) == shards_before
        assert all_records(streams, arn) == before
        ddb.put_item(TableName=name, Item={"pk": {"S": "b"}})
        after = all_records(streams, arn)
        assert int(after[-1]["dynamodb"]["SequenceNumber"]) > int(before[-1]["dynamodb"]["SequenceNumber"])


# ------------------------------------------------------------------ fuzz

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def fuzzed():
    """A handler over a table with a stream and a few records; seeds of valid Streams requests."""
    db = partiql.connect()
    handler = Handler(db, address="localhost:1")
    db.engine.create_table(TableName="Fuzzed", **KEY, **ONE_PARTITION,
                           StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
    for n in range(5):
        db.engine.put_item(TableName="Fuzzed", Item={"pk": f"k{n}"})
    stream = db.engine.tables["Fuzzed"].stream
    arn, shard_id = stream.arn, stream.shards[0].shard_id
    body = json.dumps({"StreamArn": arn, "ShardId": shard_id, "ShardIteratorType": "TRIM_HORIZON"}).encode()
    shard_iterator = json.loads(handler.handle("DynamoDBStreams_20120810.GetShardIterator", HEADERS,
                                               body)[2])["ShardIterator"]
    seeds = {
        "ListStreams": lambda rng: {"TableName": rng.choice(["Fuzzed", "Nope", None]), "Limit": rng.randrange(0, 3)},
        "DescribeStream": lambda rng: {"StreamArn": arn, "Limit": rng.randrange(1, 3),
                                       "ExclusiveStartShardId": rng.choice([None, shard_id]),
                                       "ShardFilter": rng.choice([None, {"Type": "CHILD_SHARDS",
                                                                         "ShardId": shard_id}])},
        "GetShardIterator": lambda rng: {"StreamArn": arn, "ShardId": shard_id,
                                         "ShardIteratorType": rng.choice(["TRIM_HORIZON", "LATEST",
                                                                          "AT_SEQUENCE_NUMBER",
                                                                          "AFTER_SEQUENCE_NUMBER"]),
                                         "SequenceNumber": rng.choice([None, f"{rng.randrange(9):021d}"])},
        "GetRecords": lambda rng: {"ShardIterator": rng.choice([shard_iterator, shard_iterator[:-4] + "AAAA"]),
                                   "Limit": rng.choice([1, 2, 1000, None])},
    }
    yield handler, seeds
    db.close()


HEADERS = {"content-type": "application/x-amz-json-1.0"}


@FUZZ
@given(rng=st.randoms(use_true_random=False))
def test_generated_and_mangled_streams_requests_never_get_a_500(fuzzed, rng):
    handler, seeds = fuzzed
    operation = rng.choice(sorted(seeds))
    body = fuzzing.mangled(seeds[operation](rng), rng)
    status, _, out = handler.handle(f"DynamoDBStreams_20120810.{operation}", HEADERS, body)
    found = json.loads(out)
    assert status in (200, 400), (operation, body[:300], found)
    if status == 400:
        assert found["__type"].startswith(("com.amazonaws.dynamodb.v20120810#", "com.amazon.coral.")), found
