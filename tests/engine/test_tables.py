"""Tables, partitions and indexes through the public API (issue 2, points 3 and 5).

DescribeTable reports the partitions (count, key-hash ranges, items, bytes);
they follow the published formula, split past the (lowered) size limit and
when throughput grows; GSIs backfill on creation and vanish on deletion;
index membership is sparse and projections hold exactly what they project.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from partiql.engine import Engine, limits
from partiql.engine.errors import ValidationException
from partiql.engine.types import from_python, item_size

from .helpers import create, definitions, key_schema

HASH_SPACE = 1 << 64


_defs, _key = definitions, key_schema


def _table(db, name="Tab", range_name=None, types=None, **extra):
    return create(db, name, "pk", range_name, types, **extra)


def _provisioned(read, write):
    return {"BillingMode": "PROVISIONED", "ProvisionedThroughput": {"ReadCapacityUnits": read,
                                                                    "WriteCapacityUnits": write}}


def _partitions(db, name="Tab"):
    return db.describe_table(TableName=name)["Table"]["Partitions"]


def _check_cover(partitions):
    """The partitions tile the hash space in order, numbered from 0."""
    assert [p["Partition"] for p in partitions] == list(range(len(partitions)))
    assert partitions[0]["KeyHashRange"][0] == 0 and partitions[-1]["KeyHashRange"][1] == HASH_SPACE
    for left, right in zip(partitions, partitions[1:]):
        assert left["KeyHashRange"][1] == right["KeyHashRange"][0]


# ------------------------------------------------------------------ partition count

PARTITION_COUNTS = [
    ("5,000 RCU + 500 WCU", _provisioned(5000, 500), 3),  # data-modeling.md's example
    ("1 RCU + 1 WCU", _provisioned(1, 1), 1),
    ("3,000 RCU", _provisioned(3000, 1), 2),  # 1 + 0.001 → 2
    ("2,999 RCU + 1 WCU", _provisioned(2999, 1), 2),  # 0.99967 + 0.001 > 1
    ("2,000 RCU + 300 WCU", _provisioned(2000, 300), 1),  # 0.667 + 0.3 < 1
    ("10,000 WCU", _provisioned(1, 10_000), 11),
    ("on demand: 12,000 RRU + 4,000 WRU", {"BillingMode": "PAY_PER_REQUEST"}, 8),
]


@pytest.mark.parametrize("billing,expected", [row[1:] for row in PARTITION_COUNTS], ids=[r[0] for r in PARTITION_COUNTS])
def test_initial_partitions_follow_the_formula(billing, expected):
    db = Engine()
    description = _table(db, **billing)
    assert len(description["Partitions"]) == expected
    _check_cover(description["Partitions"])
    assert all(p["ItemCount"] == 0 and p["SizeBytes"] == 0 for p in description["Partitions"])


def test_partitions_count_items_and_bytes():
    db = Engine()
    _table(db, **_provisioned(5000, 500))
    items = [{"pk": f"k{i}", "v": "x" * i} for i in range(50)]
    for item in items:
        db.put_item(TableName="Tab", Item=item)
    partitions = _partitions(db)
    assert sum(p["ItemCount"] for p in partitions) == 50
    assert sum(p["SizeBytes"] for p in partitions) == sum(item_size(from_python(i)) for i in items)
    assert all(p["ItemCount"] for p in partitions)  # 50 keys hash over all three
    table = db.describe_table(TableName="Tab")["Table"]
    assert table["ItemCount"] == 50 and table["TableSizeBytes"] == sum(p["SizeBytes"] for p in partitions)


# ------------------------------------------------------------------ splits

def test_a_partition_past_its_size_limit_splits():
    db = Engine(limits.Limits(partition_bytes=2_000))
    _table(db, range_name="sk")
    assert len(_partitions(db)) == 8
    items = [{"pk": f"user{i % 40}", "sk": f"{i:03d}", "d": "x" * 90} for i in range(400)]
    for item in items:
        db.put_item(TableName="Tab", Item=item)
    partitions = _partitions(db)
    _check_cover(partitions)
    assert len(partitions) > 8
    collection = max(item_size(from_python(i)) for i in items) * 10  # one key's items never split
    assert all(p["SizeBytes"] <= 2_000 + collection for p in partitions)
    assert sum(p["ItemCount"] for p in partitions) == 400
    # every item is still where reads find it, in sort order
    for n in range(40):
        page = db.query(TableName="Tab", KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": f"user{n}"})
        assert [item["sk"] for item in page["Items"]] == sorted(f"{i:03d}" for i in range(n, 400, 40))
    assert db.scan(TableName="Tab")["Count"] == 400
    assert db.get_item(TableName="Tab", Key={"pk": "user7", "sk": "007"})["Item"]["d"] == "x" * 90


def test_scan_pages_survive_splits_between_pages():
    db = Engine(limits.Limits(partition_bytes=3_000))
    _table(db)
    for i in range(60):
        db.put_item(TableName="Tab", Item={"pk": f"k{i}", "d": "x" * 40})
    first = db.scan(TableName="Tab", Limit=25)
    for i in range(60, 200):  # splits happen while the client pages
        db.put_item(TableName="Tab", Item={"pk": f"k{i}", "d": "x" * 40})
    seen = [item["pk"] for item in first["Items"]]
    start = first["LastEvaluatedKey"]
    while start:
        page = db.scan(TableName="Tab", ExclusiveStartKey=start, Limit=25)
        seen += [item["pk"] for item in page["Items"]]
        start = page.get("LastEvaluatedKey")
    assert len(seen) == len(set(seen))
    assert {f"k{i}" for i in range(60)} <= set(seen)


def test_throughput_increase_adds_partitions_and_decrease_keeps_them():
    db = Engine()
    _table(db, **_provisioned(1000, 100))
    for i in range(30):
        db.put_item(TableName="Tab", Item={"pk": f"k{i}"})
    assert len(_partitions(db)) == 1
    db.update_table(TableName="Tab", ProvisionedThroughput={"ReadCapacityUnits": 6000, "WriteCapacityUnits": 1000})
    grown = _partitions(db)
    assert len(grown) == 3  # 6000/3000 + 1000/1000
    _check_cover(grown)
    assert sum(p["ItemCount"] for p in grown) == 30
    db.update_table(TableName="Tab", ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5})
    assert len(_partitions(db)) == 3  # partitions never merge
    assert db.scan(TableName="Tab")["Count"] == 30


# ------------------------------------------------------------------ key order

def test_items_sort_by_sort_key_in_dynamodb_order():
    db = Engine()
    _table(db, "Num", "sk", {"pk": "S", "sk": "N"})
    _table(db, "Str", "sk", {"pk": "S", "sk": "S"})
    _table(db, "Bin", "sk", {"pk": "S", "sk": "B"})
    values = {"Num": [10, -5, Decimal("2.5"), 0, 100, Decimal("-0.001")],
              "Str": ["b", "a", "B", "é", "aa", "z", "\U0001F600", "\uffff"],
              "Bin": [b"\x80", b"\x00", b"\x7f", b"\xff", b"\x00\x01"]}
    for table, sort_values in values.items():
        for value in sort_values:
            db.put_item(TableName=table, Item={"pk": "p", "sk": value})
        page = db.query(TableName=table, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": "p"})
        got = [item["sk"] for item in page["Items"]]
        if table == "Str":
            expected = sorted(sort_values, key=lambda s: s.encode("utf-8"))
        elif table == "Num":
            expected = sorted(Decimal(v) for v in sort_values)
        else:
            expected = sorted(sort_values)
        assert got == expected


# ------------------------------------------------------------------ indexes

def _indexed(db):
    db.create_table(
        TableName="Idx", BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=_defs(pk="S", sk="S", gk="S", lk="S"), KeySchema=_key("pk", "sk"),
        GlobalSecondaryIndexes=[
            {"IndexName": "keys", "KeySchema": _key("gk"), "Projection": {"ProjectionType": "KEYS_ONLY"}},
            {"IndexName": "include", "KeySchema": _key("gk", "sk"),
             "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["a"]}},
            {"IndexName": "all", "KeySchema": _key("gk"), "Projection": {"ProjectionType": "ALL"}}],
        LocalSecondaryIndexes=[
            {"IndexName": "lsi-keys", "KeySchema": _key("pk", "lk"), "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    items = [{"pk": "p", "sk": "1", "gk": "g", "lk": "l3", "a": "A1", "b": "B1"},
             {"pk": "p", "sk": "2", "gk": "g", "lk": "l1", "a": "A2", "b": "B2"},
             {"pk": "p", "sk": "3", "a": "A3", "b": "B3"},  # no gk, no lk: in no index
             {"pk": "q", "sk": "1", "gk": "h", "b": "B4"}]
    for item in items:
        db.put_item(TableName="Idx", Item=item)
    return items


PROJECTIONS = [
    ("keys", {"pk", "sk", "gk"}),
    ("include", {"pk", "sk", "gk", "a"}),
    ("all", {"pk", "sk", "gk", "lk", "a", "b"}),
]


@pytest.mark.parametrize("index,names", PROJECTIONS, ids=[p[0] for p in PROJECTIONS])
def test_projections_hold_exactly_what_they_project(index, names):
    db = Engine()
    _indexed(db)
    page = db.scan(TableName="Idx", IndexName=index)
    assert page["Count"] == 3  # sparse: the item without gk is absent
    assert sorted((item["pk"], item["sk"]) for item in page["Items"]) == [("p", "1"), ("p", "2"), ("q", "1")]
    first = next(item for item in page["Items"] if item["sk"] == "1" and item["pk"] == "p")
    assert set(first) == names


def test_gsi_query_returns_projected_attributes_in_index_order():
    db = Engine()
    _indexed(db)
    page = db.query(TableName="Idx", IndexName="include", KeyConditionExpression="gk = :g",
                    ExpressionAttributeValues={":g": "g"}, ScanIndexForward=False)
    assert page["Items"] == [{"pk": "p", "sk": "2", "gk": "g", "a": "A2"}, {"pk": "p", "sk": "1", "gk": "g", "a": "A1"}]
    assert page["ScannedCount"] == 2


def test_lsi_reach_back_fetches_unprojected_attributes():
    db = Engine()
    _indexed(db)
    request = dict(TableName="Idx", IndexName="lsi-keys", KeyConditionExpression="pk = :p",
                   ExpressionAttributeValues={":p": "p"})
    assert db.query(**request)["Items"] == [{"pk": "p", "sk": "2", "lk": "l1"}, {"pk": "p", "sk": "1", "lk": "l3"}]
    assert db.query(**request, ProjectionExpression="b")["Items"] == [{"b": "B2"}, {"b": "B1"}]
    assert db.query(**request, Select="ALL_ATTRIBUTES")["Items"][0] == {
        "pk": "p", "sk": "2", "gk": "g", "lk": "l1", "a": "A2", "b": "B2"}


def test_index_moves_with_its_key_and_leaves_on_removal():
    db = Engine()
    _indexed(db)
    key = {"pk": "p", "sk": "1"}
    db.update_item(TableName="Idx", Key=key, UpdateExpression="SET gk = :h", ExpressionAttributeValues={":h": "h"})
    by_gk = lambda g: [(i["pk"], i["sk"]) for i in db.query(  # noqa: E731
        TableName="Idx", IndexName="keys", KeyConditionExpression="gk = :g", ExpressionAttributeValues={":g": g})["Items"]]
    assert by_gk("g") == [("p", "2")]
    assert sorted(by_gk("h")) == [("p", "1"), ("q", "1")]
    db.update_item(TableName="Idx", Key=key, UpdateExpression="REMOVE gk")
    assert by_gk("h") == [("q", "1")]
    db.delete_item(TableName="Idx", Key={"pk": "q", "sk": "1"})
    assert by_gk("h") == []
    description = db.describe_table(TableName="Idx")["Table"]
    counts = {index["IndexName"]: index["ItemCount"] for index in description["GlobalSecondaryIndexes"]}
    assert counts == {"keys": 1, "include": 1, "all": 1}


def test_index_key_of_the_wrong_type_is_refused():
    db = Engine()
    _indexed(db)
    with pytest.raises(ValidationException) as caught:
        db.put_item(TableName="Idx", Item={"pk": "r", "sk": "1", "gk": 5})
    assert caught.value.message == ("One or more parameter values were invalid: Type mismatch for Index Key gk "
                                    "Expected: S Actual: N IndexName: keys")
    with pytest.raises(ValidationException) as caught:
        db.put_item(TableName="Idx", Item={"pk": "r", "sk": "1", "gk": ""})
    assert caught.value.message == (
        "One or more parameter values are not valid. A value specified for a secondary index key is not "
        "supported. The AttributeValue for a key attribute cannot contain an empty string value. "
        "IndexName: keys, IndexKey: gk")
    assert "Item" not in db.get_item(TableName="Idx", Key={"pk": "r", "sk": "1"})


UPDATE_TYPE = "The update expression attempted to update the secondary index key to unsupported type"
UPDATE_EMPTY = ("One or more parameter values are not valid. The update expression attempted to update a secondary "
                "index key to a value that is not supported. The AttributeValue for a key attribute cannot contain "
                "an empty {} value.")
# (id, UpdateExpression, values, message): item-api §3.10 and §2.6 word an index key the
# request gave as a value like PutItem, one the update computed (or any empty one) otherwise
INDEX_KEY_UPDATES = [
    ("a value of the wrong type", "SET gk = :v", {":v": 5},
     "One or more parameter values were invalid: Type mismatch for Index Key gk Expected: S Actual: N "
     "IndexName: keys"),
    ("copied from an attribute", "SET gk = num", None, UPDATE_TYPE),
    ("computed by if_not_exists", "SET gk = if_not_exists(nothing, :v)", {":v": 5}, UPDATE_TYPE),
    ("the sort key of an LSI", "SET lk = num", None, UPDATE_TYPE),
    ("an empty string value", "SET gk = :e", {":e": ""}, UPDATE_EMPTY.format("string")),
    ("an empty string copied", "SET gk = blank", None, UPDATE_EMPTY.format("string")),
    ("a binary value onto an S key", "SET lk = :e", {":e": b""},
     "One or more parameter values were invalid: Type mismatch for Index Key lk Expected: S Actual: B "
     "IndexName: lsi-keys"),
]


@pytest.mark.parametrize("expression,values,message", [row[1:] for row in INDEX_KEY_UPDATES],
                         ids=[row[0] for row in INDEX_KEY_UPDATES])
def test_update_of_an_index_key_to_an_unsupported_value_is_refused(expression, values, message):
    db = Engine()
    _indexed(db)
    key = {"pk": "u", "sk": "1"}
    db.put_item(TableName="Idx", Item={**key, "num": 5, "blank": ""})
    with pytest.raises(ValidationException) as caught:
        db.update_item(TableName="Idx", Key=key, UpdateExpression=expression,
                       **({"ExpressionAttributeValues": values} if values else {}))
    assert caught.value.message == message
    assert db.get_item(TableName="Idx", Key=key)["Item"] == {**key, "num": 5, "blank": ""}


def _new_gsi(db, name="late", key="n", kind="N", projection="ALL"):
    return db.update_table(TableName="Idx", AttributeDefinitions=_defs(**{key: kind}), GlobalSecondaryIndexUpdates=[
        {"Create": {"IndexName": name, "KeySchema": _key(key), "Projection": {"ProjectionType": projection}}}])


def test_gsi_created_later_is_backfilled():
    db = Engine()
    _indexed(db)
    db.put_item(TableName="Idx", Item={"pk": "n", "sk": "1", "n": 7, "b": "seven"})
    db.put_item(TableName="Idx", Item={"pk": "n", "sk": "2", "n": "not a number"})  # skipped by the backfill
    description = _new_gsi(db)["TableDescription"]
    assert "late" in [index["IndexName"] for index in description["GlobalSecondaryIndexes"]]
    page = db.query(TableName="Idx", IndexName="late", KeyConditionExpression="n = :n",
                    ExpressionAttributeValues={":n": 7})
    assert page["Items"] == [{"pk": "n", "sk": "1", "n": Decimal(7), "b": "seven"}]
    assert db.scan(TableName="Idx", IndexName="late")["Count"] == 1
    with pytest.raises(ValidationException):  # afterwards a wrong-typed key is refused
        db.put_item(TableName="Idx", Item={"pk": "n", "sk": "3", "n": "text"})
    db.put_item(TableName="Idx", Item={"pk": "n", "sk": "3", "n": 8})
    assert db.scan(TableName="Idx", IndexName="late")["Count"] == 2


SKIPPED_KEYS = [True, "text", b"bytes"]  # an N-keyed GSI's backfill leaves these items out


def _skipped_by_backfill(value) -> tuple[Engine, dict]:
    """An engine whose GSI "late" (key n: N) was created over an item with n = value; that item's key."""
    db = Engine()
    _indexed(db)
    key = {"pk": "s", "sk": "1"}
    db.put_item(TableName="Idx", Item={**key, "n": value})
    _new_gsi(db)
    return db, key


@pytest.mark.parametrize("value", SKIPPED_KEYS, ids=["BOOL", "S", "B"])
def test_an_item_the_backfill_skipped_joins_the_gsi_once_a_write_fixes_its_key(value):
    db, key = _skipped_by_backfill(value)
    with pytest.raises(ValidationException):  # a write that keeps the wrong-typed key is refused
        db.update_item(TableName="Idx", Key=key, UpdateExpression="SET b = :b", ExpressionAttributeValues={":b": "x"})
    assert db.scan(TableName="Idx", IndexName="late")["Count"] == 0
    fixed = db.update_item(TableName="Idx", Key=key, UpdateExpression="SET n = :n, b = :b",
                           ExpressionAttributeValues={":n": 1, ":b": "x"}, ReturnConsumedCapacity="INDEXES")
    assert fixed["ConsumedCapacity"]["GlobalSecondaryIndexes"]["late"] == {"CapacityUnits": 1.0}  # a put, no delete
    assert db.scan(TableName="Idx", IndexName="late")["Items"] == [{**key, "n": Decimal(1), "b": "x"}]


@pytest.mark.parametrize("value", SKIPPED_KEYS, ids=["BOOL", "S", "B"])
def test_an_item_the_backfill_skipped_can_be_deleted(value):
    db, key = _skipped_by_backfill(value)
    deleted = db.delete_item(TableName="Idx", Key=key, ReturnConsumedCapacity="INDEXES")
    assert "late" not in deleted["ConsumedCapacity"].get("GlobalSecondaryIndexes", {})
    assert "Item" not in db.get_item(TableName="Idx", Key=key)


def test_gsi_deleted_is_gone():
    db = Engine()
    _indexed(db)
    db.update_table(TableName="Idx", GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "all"}}])
    with pytest.raises(ValidationException) as caught:
        db.scan(TableName="Idx", IndexName="all")
    assert caught.value.message == "The table does not have the specified index: all"
    names = [index["IndexName"] for index in db.describe_table(TableName="Idx")["Table"]["GlobalSecondaryIndexes"]]
    assert names == ["keys", "include"]
    db.put_item(TableName="Idx", Item={"pk": "z", "sk": "1", "gk": "g"})  # writes no longer touch it
    assert db.scan(TableName="Idx", IndexName="keys")["Count"] == 4


def test_lsi_entries_are_not_table_bytes():
    db = Engine()
    items = _indexed(db)
    table = db.describe_table(TableName="Idx")["Table"]
    assert table["TableSizeBytes"] == sum(item_size(from_python(item)) for item in items)
    lsi = table["LocalSecondaryIndexes"][0]
    assert lsi["ItemCount"] == 2
    assert lsi["IndexSizeBytes"] == sum(item_size(from_python({k: i[k] for k in ("pk", "sk", "lk")}))
                                        for i in items if "lk" in i)


def test_item_collection_metrics_on_tables_with_lsis():
    db = Engine()
    _indexed(db)
    response = db.put_item(TableName="Idx", Item={"pk": "p", "sk": "9", "lk": "l9"}, ReturnItemCollectionMetrics="SIZE")
    assert response == {"ItemCollectionMetrics": {"ItemCollectionKey": {"pk": "p"}, "SizeEstimateRangeGB": [0.0, 1.0]}}
    assert db.put_item(TableName="Idx", Item={"pk": "p", "sk": "9"}) == {}
    batch = db.batch_write_item(RequestItems={"Idx": [{"DeleteRequest": {"Key": {"pk": "q", "sk": "1"}}}]},
                                ReturnItemCollectionMetrics="SIZE")
    assert batch["ItemCollectionMetrics"] == {"Idx": [{"ItemCollectionKey": {"pk": "q"},
                                                       "SizeEstimateRangeGB": [0.0, 1.0]}]}
    plain = Engine()
    _table(plain)
    assert plain.put_item(TableName="Tab", Item={"pk": "a"}, ReturnItemCollectionMetrics="SIZE") == {}


def test_item_collection_limit_with_lsis():
    db = Engine(limits.Limits(lsi_collection_bytes=500))
    _indexed(db)
    db.put_item(TableName="Idx", Item={"pk": "c", "sk": "1", "d": "x" * 300})
    with pytest.raises(Exception) as caught:
        db.put_item(TableName="Idx", Item={"pk": "c", "sk": "2", "d": "x" * 300})
    assert caught.value.code == "ItemCollectionSizeLimitExceededException"
    assert "Item" not in db.get_item(TableName="Idx", Key={"pk": "c", "sk": "2"})
    db.put_item(TableName="Idx", Item={"pk": "other", "sk": "2", "d": "x" * 300})  # another collection


def test_table_arn_names_the_table():
    db = Engine()
    _table(db)
    arn = db.describe_table(TableName="Tab")["Table"]["TableArn"]
    db.put_item(TableName=arn, Item={"pk": "a"})
    assert db.get_item(TableName=arn, Key={"pk": "a"}) == {"Item": {"pk": "a"}}
