"""Capacity units on every operation (partiql-dynamodb.md §6), through the item API.

Rows: the worked examples of §6.6 (PartiQL statements written as the
equivalent GetItem / Query / Scan / PutItem / UpdateItem / DeleteItem /
Transact* calls), every row of the index-arm table §6.4, the TOTAL and
INDEXES shapes of §6.5, LSI reach-back, 1 MB pages, Limit counting evaluated
items and the empty Query minimum. Fixtures are §9.0's (``C`` → ``Cluster``,
``X`` → ``Indexes``, ``W`` → ``Writes``: names need 3 characters).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from partiql.engine import Engine
from partiql.engine.types import from_python, item_size

from .helpers import definitions, key_schema

HA = {"pk": "a", "n": 5, "s": "str", "ss": {"a", "b", "c"}, "m": {"sub": "x"}, "l": ["a", "b"],
      "nul": None, "flag": True}
HB = {"pk": "b", "n": 10, "s": "other"}
C_ITEMS = [{"pk": "p", "sk": "1", "n": 1, "tag": "x"}, {"pk": "p", "sk": "2", "n": 2, "tag": "y"},
           {"pk": "p", "sk": "3", "n": 3, "tag": "x"}, {"pk": "q", "sk": "1", "n": 4}]
BIG_ITEMS = [{"pk": "p", "sk": f"s{i:04d}", "tag": "one" if i == 0 else "many", "filler": "x" * 3000}
             for i in range(4)]
X_ITEMS = [
    {"pk": "p", "sk": "s1", "gsiPk": "x", "gsiPk2": "x2", "lsiSk": "l1", "lsiSk2": "m1", "projattr": "P1",
     "nonproj": "N1"},
    {"pk": "p", "sk": "s2", "gsiPk": "y", "gsiPk2": "y2", "lsiSk": "l2", "lsiSk2": "m2", "projattr": "P2",
     "nonproj": "N2"},
    {"pk": "p", "sk": "s3", "projattr": "P3", "nonproj": "N3"},
    {"pk": "p", "sk": "s4", "gsiPk": "x", "gsiPk2": "x2", "lsiSk": "l4", "lsiSk2": "m4", "projattr": "P4",
     "nonproj": "N4"},
]


def _s(*names):
    return definitions(**dict.fromkeys(names, "S"))


_key = key_schema


def _index(name, hash_name, range_name=None, projection="ALL", include=()):
    projected = {"ProjectionType": projection}
    if include:
        projected["NonKeyAttributes"] = list(include)
    return {"IndexName": name, "KeySchema": _key(hash_name, range_name), "Projection": projected}


TABLES = [
    dict(TableName="Hash", AttributeDefinitions=_s("pk"), KeySchema=_key("pk")),
    dict(TableName="Cluster", AttributeDefinitions=_s("pk", "sk"), KeySchema=_key("pk", "sk")),
    dict(TableName="BIG", AttributeDefinitions=_s("pk", "sk"), KeySchema=_key("pk", "sk")),
    dict(TableName="Indexes", AttributeDefinitions=_s("pk", "sk", "gsiPk", "gsiPk2", "lsiSk", "lsiSk2"),
         KeySchema=_key("pk", "sk"),
         GlobalSecondaryIndexes=[_index("gsi-all", "gsiPk"), _index("gsi-inc", "gsiPk2", None, "INCLUDE", ["projattr"]),
                                 _index("gsi-keys", "gsiPk2", None, "KEYS_ONLY")],
         LocalSecondaryIndexes=[_index("lsi-all", "pk", "lsiSk"), _index("lsi-keys", "pk", "lsiSk2", "KEYS_ONLY")]),
    dict(TableName="Writes", AttributeDefinitions=_s("pk", "sk", "gsiPk", "lsiSk"), KeySchema=_key("pk", "sk"),
         GlobalSecondaryIndexes=[_index("gsi-inc", "gsiPk", None, "INCLUDE", ["proj"])],
         LocalSecondaryIndexes=[_index("lsi-all", "pk", "lsiSk")]),
]
SEED = {"Hash": [HA, HB], "Cluster": C_ITEMS, "BIG": BIG_ITEMS, "Indexes": X_ITEMS}


@pytest.fixture(scope="module")
def seeded() -> Engine:
    """Read-only rows share one engine; write rows get their own (``fresh``)."""
    return _engine()


def _engine() -> Engine:
    db = Engine()
    for request in TABLES:
        db.create_table(BillingMode="PAY_PER_REQUEST", **request)
    for table, items in SEED.items():
        for item in items:
            db.put_item(TableName=table, Item=item)
    return db


def size(item) -> int:
    return item_size(from_python(item))


def test_fixture_sizes_are_the_specs():
    assert size(HA) == 41 and size(HB) == 12
    assert [size(item) for item in C_ITEMS] == [13, 13, 13, 9]
    assert [size(item) for item in BIG_ITEMS] == [3022, 3023, 3023, 3023]
    assert [size(item) for item in X_ITEMS] == [55, 55, 26, 55]


def total(units, table):
    return {"TableName": table, "CapacityUnits": units}


def indexes(units, table, table_units, gsi=None, lsi=None):
    out = {"TableName": table, "CapacityUnits": units, "Table": {"CapacityUnits": table_units}}
    if gsi:
        out["GlobalSecondaryIndexes"] = {name: {"CapacityUnits": value} for name, value in gsi.items()}
    if lsi:
        out["LocalSecondaryIndexes"] = {name: {"CapacityUnits": value} for name, value in lsi.items()}
    return out


def _q(table, pk, values=None, **extra):
    return ("query", dict(TableName=table, KeyConditionExpression="pk = :p",
                          ExpressionAttributeValues={":p": pk, **(values or {})}, **extra))


# ---------------------------------------------------------------- read rows
# (id, operation, request, expected ConsumedCapacity); ReturnConsumedCapacity is in the request.

READS = [
    ("6.6-1 eventual", "get_item", dict(TableName="Hash", Key={"pk": "a"}, ReturnConsumedCapacity="TOTAL"),
     total(0.5, "Hash")),
    ("6.6-1 strong", "get_item", dict(TableName="Hash", Key={"pk": "a"}, ConsistentRead=True,
                                      ReturnConsumedCapacity="TOTAL"), total(1.0, "Hash")),
    ("6.6-3 missing eventual", "get_item", dict(TableName="Hash", Key={"pk": "zzz"}, ReturnConsumedCapacity="TOTAL"),
     total(0.5, "Hash")),
    ("6.6-3 missing strong", "get_item", dict(TableName="Hash", Key={"pk": "zzz"}, ConsistentRead=True,
                                              ReturnConsumedCapacity="TOTAL"), total(1.0, "Hash")),
    ("6.6-3 missing transactional", "transact_get_items",
     dict(TransactItems=[{"Get": {"TableName": "Hash", "Key": {"pk": "zzz"}}}], ReturnConsumedCapacity="TOTAL"),
     [dict(total(2.0, "Hash"), ReadCapacityUnits=2.0)]),
    ("6.6-8 transaction of two reads", "transact_get_items",
     dict(TransactItems=[{"Get": {"TableName": "Hash", "Key": {"pk": "a"}}},
                         {"Get": {"TableName": "Hash", "Key": {"pk": "zzz"}}}], ReturnConsumedCapacity="INDEXES"),
     [{"TableName": "Hash", "CapacityUnits": 4.0, "ReadCapacityUnits": 4.0,
       "Table": {"CapacityUnits": 4.0, "ReadCapacityUnits": 4.0}}]),
    ("6.6-4 query", *_q("Cluster", "p", ReturnConsumedCapacity="TOTAL"), total(0.5, "Cluster")),
    ("6.6-4 query with filter", *_q("Cluster", "p", FilterExpression="tag = :t", values={":t": "x"},
                                    ReturnConsumedCapacity="TOTAL"),
     total(0.5, "Cluster")),
    ("6.6-5 scan eventual", "scan", dict(TableName="BIG", ReturnConsumedCapacity="TOTAL"), total(1.5, "BIG")),
    ("6.6-5 scan strong", "scan", dict(TableName="BIG", ConsistentRead=True, ReturnConsumedCapacity="TOTAL"),
     total(3.0, "BIG")),
    ("6.6-5 scan filter one", "scan", dict(TableName="BIG", FilterExpression="tag = :t",
                                           ExpressionAttributeValues={":t": "one"}, ReturnConsumedCapacity="TOTAL"),
     total(1.5, "BIG")),
    ("6.6-5 scan filter absent", "scan", dict(TableName="BIG", FilterExpression="tag = :t",
                                              ExpressionAttributeValues={":t": "absent"},
                                              ReturnConsumedCapacity="TOTAL"), total(1.5, "BIG")),
    ("6.6-5 scan projection", "scan", dict(TableName="BIG", ProjectionExpression="sk",
                                           ReturnConsumedCapacity="TOTAL"), total(1.5, "BIG")),
    ("6.6-5 keyed", "get_item", dict(TableName="BIG", Key={"pk": "p", "sk": "s0000"}, ReturnConsumedCapacity="TOTAL"),
     total(0.5, "BIG")),
    ("6.6-5 scan limit 1", "scan", dict(TableName="BIG", FilterExpression="tag = :t",
                                        ExpressionAttributeValues={":t": "absent"}, Limit=1,
                                        ReturnConsumedCapacity="TOTAL"), total(0.5, "BIG")),
    ("6.5 NONE", "get_item", dict(TableName="Hash", Key={"pk": "a"}, ReturnConsumedCapacity="NONE"), None),
    ("6.5 absent", "get_item", dict(TableName="Hash", Key={"pk": "a"}), None),
    ("6.5 INDEXES table read", "get_item", dict(TableName="Hash", Key={"pk": "a"}, ReturnConsumedCapacity="INDEXES"),
     indexes(0.5, "Hash", 0.5)),
    ("C-171 GSI query", "query", dict(TableName="Indexes", IndexName="gsi-all", KeyConditionExpression="gsiPk = :g",
                                      ExpressionAttributeValues={":g": "x"}, ReturnConsumedCapacity="INDEXES"),
     indexes(0.5, "Indexes", 0.0, gsi={"gsi-all": 0.5})),
    ("C-179 LSI query strong", *_q("Indexes", "p", IndexName="lsi-all", ConsistentRead=True,
                                   ReturnConsumedCapacity="INDEXES"),
     indexes(1.0, "Indexes", 0.0, lsi={"lsi-all": 1.0})),
    ("6.6-13 LSI reach-back", *_q("Indexes", "p", IndexName="lsi-keys", ProjectionExpression="projattr",
                                  ReturnConsumedCapacity="INDEXES"),
     indexes(2.0, "Indexes", 1.5, lsi={"lsi-keys": 0.5})),
    ("6.6-13 LSI reach-back TOTAL", *_q("Indexes", "p", IndexName="lsi-keys", ProjectionExpression="projattr",
                                        ReturnConsumedCapacity="TOTAL"), total(2.0, "Indexes")),
    ("LSI reach-back for a filter", *_q("Indexes", "p", IndexName="lsi-keys", FilterExpression="nonproj = :n",
                                        values={":n": "N1"},
                                        ReturnConsumedCapacity="INDEXES"),
     indexes(2.0, "Indexes", 1.5, lsi={"lsi-keys": 0.5})),
    ("LSI ALL_ATTRIBUTES reaches back", *_q("Indexes", "p", IndexName="lsi-keys", Select="ALL_ATTRIBUTES",
                                            ReturnConsumedCapacity="INDEXES"),
     indexes(2.0, "Indexes", 1.5, lsi={"lsi-keys": 0.5})),
    ("GSI scan", "scan", dict(TableName="Indexes", IndexName="gsi-keys", ReturnConsumedCapacity="INDEXES"),
     indexes(0.5, "Indexes", 0.0, gsi={"gsi-keys": 0.5})),
    ("empty query eventual", *_q("Cluster", "nobody", ReturnConsumedCapacity="TOTAL"), total(0.5, "Cluster")),
    ("empty query strong", *_q("Cluster", "nobody", ConsistentRead=True, ReturnConsumedCapacity="TOTAL"),
     total(1.0, "Cluster")),
    ("empty scan", "scan", dict(TableName="Writes", ReturnConsumedCapacity="TOTAL"), total(0.5, "Writes")),
    ("6.6-7 batch get per-item rounding", "batch_get_item",
     dict(RequestItems={"BIG": {"Keys": [{"pk": "p", "sk": "s0000"}, {"pk": "p", "sk": "s0001"}],
                                "ConsistentRead": True},
                        "Hash": {"Keys": [{"pk": "a"}, {"pk": "zzz"}]}}, ReturnConsumedCapacity="TOTAL"),
     [total(2.0, "BIG"), total(1.0, "Hash")]),
]


@pytest.mark.parametrize("operation,request_,expected", [row[1:] for row in READS], ids=[row[0] for row in READS])
def test_read_capacity(seeded, operation, request_, expected):
    response = getattr(seeded, operation)(**request_)
    assert response.get("ConsumedCapacity") == expected


def test_6_6_2_ten_kilobyte_item():
    db = _engine()
    item = {"pk": "big", "d": "x" * 10234}
    assert size(item) == 10240
    db.put_item(TableName="Hash", Item=item)
    for consistent, units in ((True, 3.0), (False, 1.5)):
        response = db.get_item(TableName="Hash", Key={"pk": "big"}, ConsistentRead=consistent,
                               ReturnConsumedCapacity="TOTAL")
        assert response["ConsumedCapacity"] == total(units, "Hash")


def test_6_6_7_batch_of_point_reads():
    db = _engine()
    db.put_item(TableName="Hash", Item={"pk": "k1", "d": "x" * (1536 - 5)})  # 1.5 KB
    db.put_item(TableName="Hash", Item={"pk": "k2", "d": "x" * (6656 - 5)})  # 6.5 KB
    response = db.batch_get_item(RequestItems={"Hash": {"Keys": [{"pk": "k1"}, {"pk": "k2"}],
                                                        "ConsistentRead": True}}, ReturnConsumedCapacity="TOTAL")
    assert response["ConsumedCapacity"] == [total(3.0, "Hash")]  # 4 KB + 8 KB, not 2


def _fill(db, table, count, each, pk=None):
    for i in range(count):
        item = {"pk": pk or f"k{i:03d}", **({"sk": f"{i:04d}"} if pk else {})}
        item["d"] = "x" * (each - size(item) - 1)
        assert size(item) == each
        db.put_item(TableName=table, Item=item)


@pytest.mark.parametrize("consistent,units", [(True, 11.0), (False, 5.5)])
def test_6_6_6_query_of_40_8_kilobytes(consistent, units):
    db = _engine()
    _fill(db, "Cluster", 10, 4178, pk="dg")  # 41,780 B ≈ 40.8 KB → 44 KB
    response = db.query(TableName="Cluster", KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": "dg"},
                        ConsistentRead=consistent, ReturnConsumedCapacity="TOTAL")
    assert response["Count"] == 10 and response["ConsumedCapacity"] == total(units, "Cluster")


def test_6_6_6_query_of_1500_small_items():
    db = _engine()
    _fill(db, "Cluster", 1500, 64, pk="many")
    for consistent, units in ((True, 24.0), (False, 12.0)):
        response = db.query(TableName="Cluster", KeyConditionExpression="pk = :p",
                            ExpressionAttributeValues={":p": "many"}, ConsistentRead=consistent,
                            ReturnConsumedCapacity="TOTAL")
        assert response["Count"] == 1500 and response["ConsumedCapacity"] == total(units, "Cluster")


# --------------------------------------------------------------- write rows
# (id, setup items for Writes / Hash, operation, request, expected); each row on a fresh engine.

W1 = {"pk": "c1", "sk": "1", "gsiPk": "g1", "lsiSk": "L1", "proj": "p", "other": "o"}
W5 = {"pk": "c5", "sk": "1", "gsiPk": "g1", "proj": "x" * 3000}
KEY_W1 = {"pk": "c1", "sk": "1"}
BIG_ENTRY = {"pk": "i", "sk": "1", "gsiPk": "g", "proj": "x" * 1500}  # GSI entry 1,516 B: W = 2
KEY_BIG = {"pk": "i", "sk": "1"}


def _put(table, item, mode="INDEXES"):
    return "put_item", dict(TableName=table, Item=item, ReturnConsumedCapacity=mode)


def _update(table, key, expression, values=None, mode="INDEXES"):
    request = dict(TableName=table, Key=key, UpdateExpression=expression, ReturnConsumedCapacity=mode)
    if values:
        request["ExpressionAttributeValues"] = values
    return "update_item", request


def _delete(table, key, mode="INDEXES"):
    return "delete_item", dict(TableName=table, Key=key, ReturnConsumedCapacity=mode)


def _transact_put(table, item, mode="INDEXES"):
    return "transact_write_items", dict(TransactItems=[{"Put": {"TableName": table, "Item": item}}],
                                        ReturnConsumedCapacity=mode)


def tx(units, table, table_units, gsi=None, lsi=None):
    """A transaction's INDEXES entry: WriteCapacityUnits mirrored into every level (§6.5)."""
    out = {"TableName": table, "CapacityUnits": units, "WriteCapacityUnits": units,
           "Table": {"CapacityUnits": table_units, "WriteCapacityUnits": table_units}}
    for member, arms in (("GlobalSecondaryIndexes", gsi), ("LocalSecondaryIndexes", lsi)):
        if arms:
            out[member] = {name: {"CapacityUnits": value, "WriteCapacityUnits": value} for name, value in arms.items()}
    return [out]


WRITES = [
    ("6.6-9 put 3,008 B", [], *_put("Hash", {"pk": "w2", "data": "x" * 3000}, "TOTAL"), total(3.0, "Hash")),
    ("6.6-10 shrinking update", [("Hash", {"pk": "u1", "data": "x" * 3010})],
     *_update("Hash", {"pk": "u1"}, "SET #d = :v", {":v": "x" * 11}, "TOTAL"), total(3.0, "Hash")),
    ("6.6-11 delete absent", [], *_delete("Hash", {"pk": "nobody"}, "TOTAL"), total(1.0, "Hash")),
    ("6.6-11 delete 32 B", [("Hash", {"pk": "d1", "data": "x" * 24})], *_delete("Hash", {"pk": "d1"}, "TOTAL"),
     total(1.0, "Hash")),
    ("C-183 insert in both indexes", [], *_put("Writes", W1),
     indexes(3.0, "Writes", 1.0, gsi={"gsi-inc": 1.0}, lsi={"lsi-all": 1.0})),
    ("C-191 the same with TOTAL", [], *_put("Writes", W1, "TOTAL"), total(3.0, "Writes")),
    ("C-184 unprojected attribute", [("Writes", W1)], *_update("Writes", KEY_W1, "SET #o = :o", {":o": "o2"}),
     indexes(2.0, "Writes", 1.0, lsi={"lsi-all": 1.0})),
    ("C-185 GSI key moves", [("Writes", W1)], *_update("Writes", KEY_W1, "SET gsiPk = :g", {":g": "g2"}),
     indexes(4.0, "Writes", 1.0, gsi={"gsi-inc": 2.0}, lsi={"lsi-all": 1.0})),
    ("C-186 delete from both", [("Writes", W1)], *_delete("Writes", KEY_W1),
     indexes(3.0, "Writes", 1.0, gsi={"gsi-inc": 1.0}, lsi={"lsi-all": 1.0})),
    ("C-187 insert 3,018 B", [], *_put("Writes", W5), indexes(6.0, "Writes", 3.0, gsi={"gsi-inc": 3.0})),
    ("C-188 shrink projected", [("Writes", W5)], *_update("Writes", {"pk": "c5", "sk": "1"}, "SET proj = :p",
                                                          {":p": "p"}),
     indexes(6.0, "Writes", 3.0, gsi={"gsi-inc": 3.0})),
    ("C-189 delete absent", [], *_delete("Writes", {"pk": "zz", "sk": "1"}), indexes(1.0, "Writes", 1.0)),
    ("C-190 insert in no index", [], *_put("Writes", {"pk": "m3", "sk": "1", "other": "o"}),
     indexes(1.0, "Writes", 1.0)),
    ("6.6-12 D2 transactional insert", [], *_transact_put("Writes", W5),
     tx(9.0, "Writes", 6.0, gsi={"gsi-inc": 3.0})),
    ("6.6-12 D1 small transactional insert", [], *_transact_put("Writes", W1),
     tx(4.0, "Writes", 2.0, gsi={"gsi-inc": 1.0}, lsi={"lsi-all": 1.0})),
    ("6.6-12 D1 TOTAL", [], *_transact_put("Writes", W1, "TOTAL"),
     [{"TableName": "Writes", "CapacityUnits": 4.0, "WriteCapacityUnits": 4.0}]),
    ("6.6-14 batch write 500 B + 3.5 KB", [], "batch_write_item", dict(RequestItems={"Hash": [
        {"PutRequest": {"Item": {"pk": "b1", "d": "x" * 495}}},
        {"PutRequest": {"Item": {"pk": "b2", "d": "x" * 3579}}}]}, ReturnConsumedCapacity="TOTAL"),
     [total(5.0, "Hash")]),
    ("batch write: one entry per table, in order", [], "batch_write_item", dict(RequestItems={
        "Writes": [{"PutRequest": {"Item": W1}}], "Hash": [{"DeleteRequest": {"Key": {"pk": "nobody"}}}]},
        ReturnConsumedCapacity="INDEXES"),
     [indexes(3.0, "Writes", 1.0, gsi={"gsi-inc": 1.0}, lsi={"lsi-all": 1.0}), indexes(1.0, "Hash", 1.0)]),
    ("condition check in a transaction", [("Hash", {"pk": "cc"})], "transact_write_items", dict(TransactItems=[
        {"ConditionCheck": {"TableName": "Hash", "Key": {"pk": "cc"}, "ConditionExpression": "attribute_exists(pk)"}},
        {"Put": {"TableName": "Writes", "Item": {"pk": "t", "sk": "1"}}}], ReturnConsumedCapacity="TOTAL"),
     [{"TableName": "Hash", "CapacityUnits": 2.0, "ReadCapacityUnits": 2.0},
      {"TableName": "Writes", "CapacityUnits": 2.0, "WriteCapacityUnits": 2.0}]),
    # §6.4, every row of the table, on the INCLUDE GSI (entry of BIG_ENTRY: 1,516 B → W 2)
    ("6.4 absent → absent", [], *_put("Writes", {"pk": "i", "sk": "1", "other": "o"}), indexes(1.0, "Writes", 1.0)),
    ("6.4 absent → present", [], *_put("Writes", BIG_ENTRY), indexes(4.0, "Writes", 2.0, gsi={"gsi-inc": 2.0})),
    ("6.4 present → absent", [("Writes", BIG_ENTRY)], *_update("Writes", KEY_BIG, "REMOVE gsiPk"),
     indexes(4.0, "Writes", 2.0, gsi={"gsi-inc": 2.0})),
    ("6.4 same key, same projection", [("Writes", BIG_ENTRY)], *_update("Writes", KEY_BIG, "SET #o = :o", {":o": "o"}),
     indexes(2.0, "Writes", 2.0)),
    ("6.4 same key, same projection (rewritten equal)", [("Writes", {**BIG_ENTRY, "ns": {1, 2, 3}})],
     *_put("Writes", {**BIG_ENTRY, "ns": {3, 2, 1}}), indexes(2.0, "Writes", 2.0)),
    ("6.4 same key, projection differs", [("Writes", BIG_ENTRY)],
     *_update("Writes", KEY_BIG, "SET proj = :p", {":p": "y" * 10}), indexes(4.0, "Writes", 2.0, gsi={"gsi-inc": 2.0})),
    ("6.4 key changed", [("Writes", BIG_ENTRY)], *_update("Writes", KEY_BIG, "SET gsiPk = :g", {":g": "h"}),
     indexes(6.0, "Writes", 2.0, gsi={"gsi-inc": 4.0})),
    ("6.4 LSI key changed", [("Writes", {**KEY_BIG, "lsiSk": "a"})],
     *_update("Writes", KEY_BIG, "SET lsiSk = :l", {":l": "b"}), indexes(3.0, "Writes", 1.0, lsi={"lsi-all": 2.0})),
]


@pytest.mark.parametrize("setup,operation,request_,expected", [row[1:] for row in WRITES], ids=[row[0] for row in WRITES])
def test_write_capacity(setup, operation, request_, expected):
    db = _engine()
    for table, item in setup:
        db.put_item(TableName=table, Item=item)
    names = {name: word for name, word in (("#d", "data"), ("#o", "other"))  # reserved words
             if name in request_.get("UpdateExpression", "")}
    if names:
        request_ = dict(request_, ExpressionAttributeNames=names)
    response = getattr(db, operation)(**request_)
    assert response.get("ConsumedCapacity") == expected


def test_6_6_10_sizes():
    assert size({"pk": "u1", "data": "x" * 3010}) == 3018
    assert size({"pk": "u1", "data": "x" * 11}) == 19
    assert size({"pk": "w2", "data": "x" * 3000}) == 3008
    assert size({"pk": "d1", "data": "x" * 24}) == 32
    assert size(W5) == 3018
    assert size({"pk": "b1", "d": "x" * 495}) == 500
    assert size({"pk": "b2", "d": "x" * 3579}) == 3584


def test_failed_condition_reports_nothing_and_writes_nothing():
    db = _engine()
    db.put_item(TableName="Hash", Item={"pk": "f"})
    with pytest.raises(Exception) as caught:
        db.put_item(TableName="Hash", Item={"pk": "f", "x": 1}, ConditionExpression="attribute_not_exists(pk)",
                    ReturnConsumedCapacity="TOTAL")
    assert caught.value.code == "ConditionalCheckFailedException"
    assert db.get_item(TableName="Hash", Key={"pk": "f"})["Item"] == {"pk": "f"}


# ------------------------------------------------------------------ pages

def test_one_megabyte_pages():
    """C-197-like: 300 items of 4,000 B; a page stops after the item that crosses 1,048,576 bytes."""
    db = _engine()
    db.delete_table(TableName="Hash")  # a clean hash-only table for the scan
    db.create_table(**TABLES[0], BillingMode="PAY_PER_REQUEST")
    _fill(db, "Hash", 300, 4000)
    first = db.scan(TableName="Hash", ProjectionExpression="pk", ReturnConsumedCapacity="TOTAL")
    assert first["Count"] == first["ScannedCount"] == 263  # 262 × 4,000 < 1 MB ≤ 263 × 4,000
    assert set(first["Items"][0]) == {"pk"}  # projection does not change what is evaluated
    assert first["LastEvaluatedKey"] == {"pk": first["Items"][-1]["pk"]}
    assert first["ConsumedCapacity"] == total(128.5, "Hash")  # R(1,052,000) = 257
    rest = db.scan(TableName="Hash", ExclusiveStartKey=first["LastEvaluatedKey"], ReturnConsumedCapacity="TOTAL")
    assert rest["Count"] == 37 and "LastEvaluatedKey" not in rest
    assert rest["ConsumedCapacity"] == total(18.5, "Hash")  # R(148,000) = 37
    seen = [item["pk"] for item in first["Items"]] + [item["pk"] for item in rest["Items"]]
    assert sorted(seen) == sorted(f"k{i:03d}" for i in range(300))


def test_one_megabyte_query_pages_in_sort_order():
    db = _engine()
    _fill(db, "Cluster", 300, 4000, pk="pg")
    request = dict(TableName="Cluster", KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": "pg"},
                   FilterExpression="attribute_not_exists(nothing)", ReturnConsumedCapacity="TOTAL")
    first = db.query(**request)
    assert [item["sk"] for item in first["Items"]] == [f"{i:04d}" for i in range(263)]
    assert first["LastEvaluatedKey"] == {"pk": "pg", "sk": "0262"}
    rest = db.query(**request, ExclusiveStartKey=first["LastEvaluatedKey"])
    assert [item["sk"] for item in rest["Items"]] == [f"{i:04d}" for i in range(263, 300)]


def test_limit_counts_evaluated_items():
    db = _engine()
    response = db.query(TableName="Cluster", KeyConditionExpression="pk = :p", FilterExpression="tag = :t",
                        ExpressionAttributeValues={":p": "p", ":t": "nothing"}, Limit=2, ReturnConsumedCapacity="TOTAL")
    assert (response["Count"], response["ScannedCount"], response["Items"]) == (0, 2, [])
    assert response["LastEvaluatedKey"] == {"pk": "p", "sk": "2"}
    assert response["ConsumedCapacity"] == total(0.5, "Cluster")
    big = db.scan(TableName="BIG", Limit=3, ConsistentRead=True, ReturnConsumedCapacity="TOTAL")
    assert big["ScannedCount"] == 3 and big["ConsumedCapacity"] == total(3.0, "BIG")  # R(9,068) = 3


def test_select_count_costs_the_same():
    db = _engine()
    response = db.scan(TableName="BIG", Select="COUNT", ReturnConsumedCapacity="TOTAL")
    assert response == {"Count": 4, "ScannedCount": 4, "ConsumedCapacity": total(1.5, "BIG")}


def test_numbers_come_back_as_decimal():
    db = _engine()
    assert db.get_item(TableName="Hash", Key={"pk": "a"})["Item"]["n"] == Decimal(5)
