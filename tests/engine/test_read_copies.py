"""Every item a response hands out is the caller's own: changing it, or the maps and
lists inside it, never reaches the stored item (DynamoDB returns fresh data).

One row per way an item leaves the engine with the item still stored (so DeleteItem's
ALL_OLD, whose item is gone, has none), for stored items whose lists and maps hold
scalars only (copied one level deep) and ones that nest in a list, in a map or both
(copied recursively); each returned item is changed at every level, then the table is
read again.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from partiql.engine import Engine
from partiql.engine.errors import ConditionalCheckFailedException, TransactionCanceledException

from ..mutations import vandalise
from .helpers import create, key_schema, snapshot

KEY = {"pk": "a", "sk": "1"}
STORED_ITEMS = {
    "nested": {**KEY, "lsk": "x", "g": "y", "n": Decimal(1), "tags": ["t1", ["deep"]], "doc": {"m": {"k": "v"}}},
    "nested in a list": {**KEY, "lsk": "x", "g": "y", "n": Decimal(1), "tags": ["t1", {"k": "v"}], "doc": {"k": "v"}},
    "nested in a map": {**KEY, "lsk": "x", "g": "y", "n": Decimal(1), "tags": ["t1"], "doc": {"l": ["x"]}},
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
    # why ALL_OLD of an update: the new item shares the containers the update did not write
    ("UpdateItem ALL_OLD", lambda db: [_update(db, "SET n = :n", "ALL_OLD")]),
    ("UpdateItem ALL_NEW", lambda db: [_update(db, "SET n = :n", "ALL_NEW")]),
    ("UpdateItem UPDATED_NEW", lambda db: [_update(db, "SET tags = tags, doc = doc", "UPDATED_NEW")]),
    ("failed condition's item", lambda db: [_raised(ConditionalCheckFailedException, lambda: db.put_item(
        TableName="Tbl", Item={**KEY}, ConditionExpression="n = :z", ExpressionAttributeValues={":z": 0},
        ReturnValuesOnConditionCheckFailure="ALL_OLD")).item]),
    ("cancelled transaction's item", lambda db: [_raised(TransactionCanceledException, lambda: db.transact_write_items(
        TransactItems=[{"ConditionCheck": {"TableName": "Tbl", "Key": KEY, "ConditionExpression": "n = :z",
                                           "ExpressionAttributeValues": {":z": 0},
                                           "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}}])).reasons[0].item]),
]


def _update(db, expression: str, return_values: str) -> dict:
    values = {":n": 1} if ":n" in expression else {}
    return db.update_item(TableName="Tbl", Key=KEY, UpdateExpression=expression, ReturnValues=return_values,
                          **({"ExpressionAttributeValues": values} if values else {}))["Attributes"]


def _raised(kind, call) -> Exception:
    with pytest.raises(kind) as failure:
        call()
    return failure.value


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


CORE_READS = [
    ("Engine.get", lambda db: [db.get("Tbl", ("a", "1"))[0]]),
    ("Engine.query_page", lambda db: db.query_page("Tbl", None, "a").records),
    ("Engine.query_page on an LSI", lambda db: db.query_page("Tbl", "lsi", "a").records),
    ("Engine.scan_page", lambda db: db.scan_page("Tbl").records),
    ("Engine.scan_page on a GSI", lambda db: db.scan_page("Tbl", "gsi").records),
]


@pytest.mark.parametrize("read", [row[1] for row in CORE_READS], ids=[row[0] for row in CORE_READS])
def test_records_the_core_hands_out_keep_their_version(db, stored, read):
    """An overwrite changes the stored record in place (partition.Space.put), so the
    records the typed core returns are snapshots: a later write leaves them as read."""
    records = read(db)
    assert records
    replacement = {**KEY, "lsk": "x", "g": "y", "n": Decimal(2), "tags": {"now": ["a map"]}}
    db.put_item(TableName="Tbl", Item=replacement)
    for record in records:
        assert record.item == stored
        assert record.copy() == stored


def test_only_a_caller_converting_at_once_shares_the_stored_items_and_only_in_its_own_thread():
    """The wire layer converts each response to wire JSON at once (``converted_at_once``): its reads may
    hand out the stored items themselves; a library caller in another thread meanwhile still gets copies."""
    import threading

    from partiql.engine.requests.common import converted_at_once
    from partiql.engine.requests.wire import wire_call

    engine = Engine()
    create(engine, "Tab")
    engine.put_item(TableName="Tab", Item={"pk": "a", "tags": ["x"]})
    stored = engine.table("Tab").lookup(engine.table("Tab").locate("a")).item
    inside, outside = threading.Event(), threading.Event()
    seen = {}

    def wire_reader():
        with converted_at_once():
            seen["wire"] = engine.get_item(TableName="Tab", Key={"pk": "a"})["Item"]
            inside.set()
            outside.wait(5)

    thread = threading.Thread(target=wire_reader)
    thread.start()
    inside.wait(5)
    seen["library"] = engine.get_item(TableName="Tab", Key={"pk": "a"})["Item"]
    outside.set()
    thread.join()
    assert seen["wire"] is stored
    assert seen["library"] == stored and seen["library"] is not stored and seen["library"]["tags"] is not stored["tags"]
    assert wire_call(engine, "GetItem", {"TableName": "Tab", "Key": {"pk": {"S": "a"}}}) == {
        "Item": {"pk": {"S": "a"}, "tags": {"L": [{"S": "x"}]}}}
    assert engine.get_item(TableName="Tab", Key={"pk": "a"})["Item"] is not stored  # (the block has ended)
