"""Every item a response hands out is the caller's own: changing it, or the maps and
lists inside it, never reaches the stored item (DynamoDB returns fresh data).

One row per way an item leaves the engine, for a stored item whose lists and maps
nest (copied recursively) and one whose lists and maps hold scalars only (copied one
level deep); each returned item is changed at every level, then the table is read again.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from partiql.engine import Engine

from ..mutations import vandalise
from .helpers import create, key_schema, snapshot

KEY = {"pk": "a", "sk": "1"}
STORED_ITEMS = {
    "nested": {**KEY, "lsk": "x", "g": "y", "n": Decimal(1), "tags": ["t1", ["deep"]], "doc": {"m": {"k": "v"}}},
    "shallow": {**KEY, "lsk": "x", "g": "y", "n": Decimal(1), "tags": ["t1", "t2"], "doc": {"k": "v"}},
}
ALL = {"ProjectionType": "ALL"}


@pytest.fixture(params=sorted(STORED_ITEMS))
def stored(request) -> dict:
    return STORED_ITEMS[request.param]


@pytest.fixture
def db(stored) -> Engine:
    engine = Engine()
    create(engine, "Tbl", range_name="sk", types={"pk": "S", "sk": "S", "lsk": "S", "g": "S"},
           LocalSecondaryIndexes=[
               {"IndexName": "lsi", "KeySchema": key_schema("pk", "lsk"), "Projection": ALL},
               {"IndexName": "lsikeys", "KeySchema": key_schema("pk", "lsk"),
                "Projection": {"ProjectionType": "KEYS_ONLY"}}],
           GlobalSecondaryIndexes=[{"IndexName": "gsi", "KeySchema": key_schema("g"), "Projection": ALL}])
    engine.put_item(TableName="Tbl", Item=stored)
    return engine


QUERY = dict(TableName="Tbl", KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": "a"})
READS = [
    ("GetItem", lambda db: [db.get_item(TableName="Tbl", Key=KEY)["Item"]]),
    ("GetItem projected", lambda db: [db.get_item(TableName="Tbl", Key=KEY, ProjectionExpression="tags, doc")["Item"]]),
    ("Query", lambda db: db.query(**QUERY)["Items"]),
    ("Query on an LSI", lambda db: db.query(IndexName="lsi", **QUERY)["Items"]),
    ("Query on a KEYS_ONLY LSI reaching back", lambda db: db.query(IndexName="lsikeys", Select="ALL_ATTRIBUTES",
                                                                   **QUERY)["Items"]),
    ("Query on a GSI", lambda db: db.query(TableName="Tbl", IndexName="gsi", KeyConditionExpression="g = :g",
                                           ExpressionAttributeValues={":g": "y"})["Items"]),
    ("Scan", lambda db: db.scan(TableName="Tbl")["Items"]),
    ("Scan filtered", lambda db: db.scan(TableName="Tbl", FilterExpression="n = :n",
                                         ExpressionAttributeValues={":n": 1})["Items"]),
    ("BatchGetItem", lambda db: db.batch_get_item(RequestItems={"Tbl": {"Keys": [KEY]}})["Responses"]["Tbl"]),
    ("TransactGetItems", lambda db: [db.transact_get_items(TransactItems=[{"Get": {"TableName": "Tbl", "Key": KEY}}])
                                     ["Responses"][0]["Item"]]),
    ("PutItem ALL_OLD", lambda db: [db.put_item(TableName="Tbl", Item=db.get_item(TableName="Tbl", Key=KEY)["Item"],
                                                ReturnValues="ALL_OLD")["Attributes"]]),
    ("UpdateItem ALL_NEW", lambda db: [db.update_item(TableName="Tbl", Key=KEY, UpdateExpression="SET n = :n",
                                                      ExpressionAttributeValues={":n": 1},
                                                      ReturnValues="ALL_NEW")["Attributes"]]),
]


@pytest.mark.parametrize("read", [row[1] for row in READS], ids=[row[0] for row in READS])
def test_returned_items_do_not_reach_the_store(db, stored, read):
    before = snapshot(db)
    items = read(db)
    assert items
    for item in items:
        vandalise(item)
    assert snapshot(db) == before
    assert db.get_item(TableName="Tbl", Key=KEY)["Item"] == stored


def test_a_flat_attribute_that_becomes_a_list_is_copied_too(db):
    db.update_item(TableName="Tbl", Key=KEY, UpdateExpression="SET n = :l", ExpressionAttributeValues={":l": ["x"]})
    db.query(**QUERY)["Items"][0]["n"].append("y")
    assert db.get_item(TableName="Tbl", Key=KEY)["Item"]["n"] == ["x"]
