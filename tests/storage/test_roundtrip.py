"""A file database keeps tables, indexes, items, partitions and settings across close and reopen."""

from __future__ import annotations

import json
import sqlite3
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import partiql
from partiql.engine import Engine, limits
from partiql.engine.errors import ValidationException
from partiql.engine.storage.sqlite import SqliteStorage
from partiql.engine.storage import MemoryStorage, StorageError
from partiql.engine.storage.codec import decode_item, decode_spec, encode_item
from partiql.engine.types import parse_number
from partiql.engine.wire_values import item_to_wire

from .helpers import attribute_types, create_simple, file_rows, key_schema, snapshot

VALUES = {"s": "text é ✓", "n": 12.5, "neg": -0.001, "big": 10 ** 37, "b": b"\x00\xffbytes", "t": True,
          "f": False, "null": None, "l": [1, "two", [3], {"four": 4}], "m": {"a": {"b": [None, b"x"]}},
          "ss": {"x", "y"}, "ns": {1, 2.5, -3}, "bs": {b"a", b"b"}}


def _python(values: dict) -> dict:
    """VALUES with floats as Decimals (the engine refuses floats, as boto3 does)."""
    def convert(value):
        if isinstance(value, float):
            return Decimal(str(value))
        if isinstance(value, dict):
            return {name: convert(member) for name, member in value.items()}
        if isinstance(value, list):
            return [convert(member) for member in value]
        if isinstance(value, set):
            return {convert(member) for member in value}
        return value
    return convert(values)


def _music(engine: Engine) -> None:
    """A provisioned table with an LSI, two GSIs (ALL and INCLUDE), a stream and deletion protection."""
    engine.create_table(
        TableName="Music", KeySchema=key_schema("Artist", "Song"),
        AttributeDefinitions=attribute_types(Artist="S", Song="S", Year="N", Genre="S"),
        ProvisionedThroughput={"ReadCapacityUnits": 4000, "WriteCapacityUnits": 1500},
        LocalSecondaryIndexes=[{"IndexName": "ByYear", "KeySchema": key_schema("Artist", "Year"),
                                "Projection": {"ProjectionType": "KEYS_ONLY"}}],
        GlobalSecondaryIndexes=[
            {"IndexName": "ByGenre", "KeySchema": key_schema("Genre", "Year"),
             "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["s"]},
             "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}},
            {"IndexName": "AllByYear", "KeySchema": key_schema("Year"), "Projection": {"ProjectionType": "ALL"},
             "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}}],
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
        DeletionProtectionEnabled=True)


def _fill(engine: Engine) -> None:
    for number in range(40):
        item = {"Artist": f"artist {number % 7}", "Song": f"song {number}", **_python(VALUES)}
        if number % 3:
            item.update(Year=1990 + number % 11, Genre=("rock", "jazz")[number % 2])
        engine.put_item(TableName="Music", Item=item)
    engine.update_item(TableName="Music", Key={"Artist": "artist 1", "Song": "song 1"},
                       UpdateExpression="SET Genre = :g ADD n :one REMOVE l",
                       ExpressionAttributeValues={":g": "pop", ":one": 1})
    engine.delete_item(TableName="Music", Key={"Artist": "artist 2", "Song": "song 2"})
    engine.transact_write_items(TransactItems=[
        {"Put": {"TableName": "Music", "Item": {"Artist": "tx", "Song": "a", "Year": 2000, "Genre": "rock"}}},
        {"Delete": {"TableName": "Music", "Key": {"Artist": "artist 3", "Song": "song 3"}}}])
    engine.batch_write_item(RequestItems={"Music": [
        {"PutRequest": {"Item": {"Artist": "batch", "Song": str(n), "Year": n}}} for n in range(5)]})


def test_tables_indexes_and_items_survive_a_reopen(path):
    engine = Engine(storage=SqliteStorage(path))
    _music(engine)
    create_simple(engine, "Other")
    _fill(engine)
    before = snapshot(engine)
    engine.storage.close()
    reopened = Engine(storage=SqliteStorage(path))
    assert snapshot(reopened) == before
    found = reopened.query(TableName="Music", IndexName="ByGenre", KeyConditionExpression="Genre = :g",
                           ExpressionAttributeValues={":g": "rock"})
    assert found["Count"] > 0 and all(set(item) <= {"Artist", "Song", "Genre", "Year", "s"}
                                      for item in found["Items"])
    reopened.storage.close()


def test_values_of_every_type_come_back_identical(path):
    with partiql.connect(path) as db:
        create_simple(db.engine, "Values")
        db.engine.put_item(TableName="Values", Item={"pk": "k", "sk": 1, **_python(VALUES)})
    with partiql.connect(path) as db:
        item = db.execute("SELECT * FROM \"Values\" WHERE pk = 'k' AND sk = 1").items[0]
    assert item == {"pk": "k", "sk": Decimal(1), **_python(VALUES)}
    assert type(item["ss"]) is frozenset


_NAMES = st.text(max_size=6)
_SCALARS = st.one_of(st.text(max_size=12), st.binary(max_size=6), st.booleans(), st.none(),
                     st.decimals(allow_nan=False, allow_infinity=False, places=8, min_value=-10 ** 28,
                                 max_value=10 ** 28).map(lambda d: parse_number(format(d, "f"))),
                     st.frozensets(st.text(max_size=4), min_size=1, max_size=3))
_VALUES = st.recursive(_SCALARS, lambda children: st.lists(children, max_size=3)
                       | st.dictionaries(_NAMES, children, max_size=3), max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(_NAMES, _VALUES, max_size=6))
def test_a_row_is_the_compact_wire_json_of_its_item_and_decodes_back(item):
    """``encode_item`` writes strings and numbers by hand: the text must be the JSON encoder's own."""
    text = encode_item(item)
    assert text == json.dumps(item_to_wire(item), separators=(",", ":"))
    assert decode_item(text) == item


@settings(max_examples=200, deadline=None)
@given(st.decimals(allow_nan=False, allow_infinity=False, places=None, min_value=-10 ** 30, max_value=10 ** 30))
def test_numbers_decode_to_the_exact_engine_value(number):
    try:
        value = parse_number(str(number))
    except ValidationException:
        return  # beyond DynamoDB's 38 digits: never stored
    decoded = decode_item(encode_item({"n": value, "ns": frozenset({value})}))
    assert decoded["n"].as_tuple() == value.as_tuple()
    assert decoded["ns"] == frozenset({value})


def test_partition_splits_and_throughput_layouts_survive(path):
    small = limits.Limits(partition_bytes=20_000)
    engine = Engine(small, storage=SqliteStorage(path))
    create_simple(engine, "Split", BillingMode="PROVISIONED",
                  ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
    for number in range(60):
        engine.put_item(TableName="Split", Item={"pk": f"p{number}", "sk": 0, "pad": "x" * 1000})
    create_simple(engine, "Grown", BillingMode="PROVISIONED",
                  ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
    engine.update_table(TableName="Grown", ProvisionedThroughput={"ReadCapacityUnits": 1,
                                                                  "WriteCapacityUnits": 2500})
    before = snapshot(engine)
    assert len(before["Split"]["description"]["Partitions"]) > 2
    assert len(before["Grown"]["description"]["Partitions"]) == 3  # split at midpoints, not thirds
    engine.storage.close()
    reopened = Engine(small, storage=SqliteStorage(path))
    assert snapshot(reopened) == before
    reopened.storage.close()


def test_index_changes_and_dropped_tables_survive(path):
    engine = Engine(storage=SqliteStorage(path))
    create_simple(engine, "Keep")
    create_simple(engine, "Gone")
    for number in range(10):
        engine.put_item(TableName="Keep", Item={"pk": "p", "sk": number, "g": "even" if number % 2 == 0 else 7})
        engine.put_item(TableName="Gone", Item={"pk": "p", "sk": number})
    engine.update_table(TableName="Keep", AttributeDefinitions=attribute_types(g="S"),
                        GlobalSecondaryIndexUpdates=[{"Create": {
                            "IndexName": "ByG", "KeySchema": key_schema("g"),
                            "Projection": {"ProjectionType": "KEYS_ONLY"}}}])
    engine.delete_table(TableName="Gone")
    create_simple(engine, "Gone")  # the same name again starts empty
    before = snapshot(engine)
    assert before["Keep"]["indexes"]["ByG"] and len(before["Keep"]["indexes"]["ByG"]) == 5  # g = 7 is skipped
    engine.storage.close()
    reopened = Engine(storage=SqliteStorage(path))
    assert snapshot(reopened) == before
    assert reopened.scan(TableName="Gone")["Count"] == 0
    reopened.update_table(TableName="Keep", GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "ByG"}}])
    reopened.storage.close()
    again = Engine(storage=SqliteStorage(path))
    assert again.tables["Keep"].spec.gsis == () and again.tables["Keep"].gsi_stores == {}
    again.storage.close()


def test_the_scan_policy_is_the_connections_never_the_files(path):
    with partiql.connect(path) as db:
        assert db.scan_policy == "allow"
        db.scan_policy = "deny"
    with partiql.connect(path) as db:
        assert db.scan_policy == "allow" and db.path == str(path)
    with partiql.connect(path, scan_policy="warn") as db:
        assert db.scan_policy == "warn"
    assert partiql.connect().scan_policy == "allow" and partiql.connect().path is None
    with pytest.raises(ValueError, match="scan_policy must be one of allow, warn, deny, not 'never'"):
        partiql.connect(path, scan_policy="never")


def test_every_write_path_is_on_disk_when_the_call_returns(path):
    """A second SQLite connection sees each write the moment the call returns."""
    db = partiql.connect(path)
    create_simple(db.engine)
    steps = [
        (lambda: db.engine.put_item(TableName="Items", Item={"pk": "a", "sk": 1}), 1),
        (lambda: db.engine.update_item(TableName="Items", Key={"pk": "a", "sk": 2},
                                       UpdateExpression="SET v = :v", ExpressionAttributeValues={":v": 1}), 2),
        (lambda: db.engine.delete_item(TableName="Items", Key={"pk": "a", "sk": 2}), 1),
        (lambda: db.engine.batch_write_item(RequestItems={"Items": [
            {"PutRequest": {"Item": {"pk": "b", "sk": n}}} for n in range(3)]}), 4),
        (lambda: db.engine.transact_write_items(TransactItems=[
            {"Put": {"TableName": "Items", "Item": {"pk": "c", "sk": 1}}},
            {"Delete": {"TableName": "Items", "Key": {"pk": "b", "sk": 0}}}]), 4),
        (lambda: db.execute("INSERT INTO Items VALUE {'pk': 'd', 'sk': 1}"), 5),
        (lambda: db.execute("UPDATE Items SET v = 2 WHERE pk = 'd' AND sk = 1"), 5),
        (lambda: db.execute("DELETE FROM Items WHERE pk = 'd' AND sk = 1"), 4),
        (lambda: db.execute_transaction(["INSERT INTO Items VALUE {'pk': 'e', 'sk': 1}",
                                         "INSERT INTO Items VALUE {'pk': 'e', 'sk': 2}"]), 6),
        (lambda: db.execute_batch(["INSERT INTO Items VALUE {'pk': 'f', 'sk': 1}"]), 7),
    ]
    for number, (step, rows) in enumerate(steps):
        step()
        assert file_rows(path) == rows, f"step {number}"
    db.close()


class _FailingStorage(MemoryStorage):
    def persist(self, mutations, changes=None):
        raise StorageError("cannot write test.db: disk full")


def test_a_write_that_cannot_reach_the_storage_is_not_applied():
    engine = Engine(storage=_FailingStorage())
    create_simple(engine)
    with pytest.raises(StorageError):
        engine.put_item(TableName="Items", Item={"pk": "a", "sk": 1})
    with pytest.raises(StorageError):
        engine.transact_write_items(TransactItems=[
            {"Put": {"TableName": "Items", "Item": {"pk": "b", "sk": n}}} for n in range(3)])
    with pytest.raises(StorageError):
        engine.batch_write_item(RequestItems={"Items": [{"PutRequest": {"Item": {"pk": "c", "sk": 1}}}]})
    assert engine.scan(TableName="Items")["Count"] == 0 and engine.tables["Items"].item_count == 0


def test_a_closed_database_refuses_statements_and_releases_the_file(path):
    db = partiql.connect(path)
    create_simple(db.engine)
    db.close()
    db.close()  # twice is harmless
    with pytest.raises(ValueError, match="closed"):
        db.execute("SELECT * FROM Items")
    with pytest.raises(StorageError, match="closed"):
        db.engine.put_item(TableName="Items", Item={"pk": "a", "sk": 1})
    with partiql.connect(path) as again:
        assert again.table_names() == ["Items"]


def test_durability_setting_is_checked(path):
    with pytest.raises(ValueError, match="durability"):
        partiql.connect(path, durability="sometimes")
    with partiql.connect(path, durability="full") as db:
        create_simple(db.engine)
        db.engine.put_item(TableName="Items", Item={"pk": "a", "sk": 1})
    assert file_rows(path) == 1


def test_a_table_dropped_and_created_again_keeps_its_new_spec(path):
    small = limits.Limits(partition_bytes=5_000)
    engine = Engine(small, storage=SqliteStorage(path))
    create_simple(engine, "Again", BillingMode="PROVISIONED",
                  ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
    store = engine.tables["Again"].store
    for number in range(100):  # stop right after a split: the saved layout is stale when it is dropped
        count = len(store.partitions)
        engine.put_item(TableName="Again", Item={"pk": f"p{number}", "sk": 0, "pad": "x" * 1000})
        if number > 10 and len(store.partitions) > count:
            break
    engine.delete_table(TableName="Again")
    engine.create_table(TableName="Again", KeySchema=key_schema("id"), AttributeDefinitions=attribute_types(id="S"),
                        BillingMode="PAY_PER_REQUEST")
    engine.put_item(TableName="Again", Item={"id": "x"})
    on_disk = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    assert decode_spec(on_disk.execute("SELECT spec FROM tables").fetchone()[0]).key.hash_name == "id"
    on_disk.close()
    before = snapshot(engine)
    engine.storage.close()
    reopened = Engine(small, storage=SqliteStorage(path))
    assert snapshot(reopened) == before and reopened.tables["Again"].spec.key.hash_name == "id"
    reopened.storage.close()
