"""No expression may reach inside a key attribute (item-api §3.9): ``pk.x`` or ``pk[0]`` in any
expression of any operation is refused with "Key attributes must be scalars…", naming a table
key (``Key:``) or an index key (``IndexKey:``); a nested UpdateExpression target on a table key
keeps its own "Cannot update attribute" text (§3.10). Nothing is read or written.
"""

from __future__ import annotations

import pytest

from partiql.engine import Engine
from partiql.engine.errors import ValidationException

from .helpers import create, key_schema, snapshot

SCALARS = "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: {}"
KEY = {"pk": "p", "sk": "s"}
V = {":v": "x"}


@pytest.fixture
def db() -> Engine:
    engine = Engine()
    create(engine, "Tbl", range_name="sk", types={"pk": "S", "sk": "S", "gk": "S", "lk": "S"},
           LocalSecondaryIndexes=[{"IndexName": "lsi", "KeySchema": key_schema("pk", "lk"),
                                   "Projection": {"ProjectionType": "ALL"}}],
           GlobalSecondaryIndexes=[{"IndexName": "gsi", "KeySchema": key_schema("gk"),
                                    "Projection": {"ProjectionType": "ALL"}}])
    engine.put_item(TableName="Tbl", Item={**KEY, "gk": "g", "lk": "l", "doc": {"x": "x"}})
    return engine


def _update(expression, values=None, **extra):
    return "update_item", dict(TableName="Tbl", Key=KEY, UpdateExpression=expression,
                               **({"ExpressionAttributeValues": values} if values else {}), **extra)


QUERY = dict(TableName="Tbl", KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": "p"})

# (id, operation, request, message)
CASES = [
    ("Scan filter, map lookup", "scan", dict(TableName="Tbl", FilterExpression="pk.x = :v",
                                             ExpressionAttributeValues=V), SCALARS.format("Key: pk")),
    ("Scan projection, list index", "scan", dict(TableName="Tbl", ProjectionExpression="doc, sk[0]"),
     SCALARS.format("Key: sk")),
    ("GetItem projection", "get_item", dict(TableName="Tbl", Key=KEY, ProjectionExpression="pk.a"),
     SCALARS.format("Key: pk")),
    ("PutItem condition", "put_item", dict(TableName="Tbl", Item={**KEY, "n": 1},
                                           ConditionExpression="attribute_not_exists(pk.x)"),
     SCALARS.format("Key: pk")),
    ("DeleteItem condition", "delete_item", dict(TableName="Tbl", Key=KEY, ConditionExpression="size(sk[1]) > :n",
                                                 ExpressionAttributeValues={":n": 0}), SCALARS.format("Key: sk")),
    ("UpdateItem value operand", *_update("SET a = pk.x"), SCALARS.format("Key: pk")),
    ("UpdateItem condition", *_update("SET a = :v", V, ConditionExpression="attribute_exists(sk.b)"),
     SCALARS.format("Key: sk")),
    ("UpdateItem target inside a GSI key", *_update("SET gk.x = :v", V), SCALARS.format("IndexKey: gk")),
    ("UpdateItem target inside an LSI key", *_update("REMOVE lk[0]"), SCALARS.format("IndexKey: lk")),
    ("UpdateItem target inside a table key", *_update("SET pk.x = :v", V),
     "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key"),
    ("Query filter on a GSI key", "query", dict(QUERY, FilterExpression="gk.y = :v",
                                                ExpressionAttributeValues={":p": "p", ":v": "x"}),
     SCALARS.format("IndexKey: gk")),
    ("Query projection on an LSI key", "query", dict(QUERY, ProjectionExpression="lk.z"),
     SCALARS.format("IndexKey: lk")),
    ("a table key is named before an index key", "scan", dict(TableName="Tbl", ProjectionExpression="gk.a, sk.a"),
     SCALARS.format("Key: sk")),
    ("BatchGetItem projection", "batch_get_item",
     dict(RequestItems={"Tbl": {"Keys": [KEY], "ProjectionExpression": "pk.x"}}), SCALARS.format("Key: pk")),
    ("TransactGetItems projection", "transact_get_items",
     dict(TransactItems=[{"Get": {"TableName": "Tbl", "Key": KEY, "ProjectionExpression": "gk[0]"}}]),
     SCALARS.format("IndexKey: gk")),
    ("TransactWriteItems condition (the whole request)", "transact_write_items",
     dict(TransactItems=[{"Put": {"TableName": "Tbl", "Item": {"pk": "n", "sk": "n"}}},
                         {"ConditionCheck": {"TableName": "Tbl", "Key": KEY, "ConditionExpression": "pk.a = :v",
                                             "ExpressionAttributeValues": V}}]), SCALARS.format("Key: pk")),
]


@pytest.mark.parametrize("operation,request_,message", [row[1:] for row in CASES], ids=[row[0] for row in CASES])
def test_a_path_inside_a_key_attribute_is_refused(db, operation, request_, message):
    before = snapshot(db)
    with pytest.raises(ValidationException) as caught:
        getattr(db, operation)(**request_)
    assert caught.value.message == message
    assert snapshot(db) == before


def test_paths_inside_other_attributes_and_whole_keys_are_fine(db):
    page = db.scan(TableName="Tbl", FilterExpression="doc.x = :v AND pk = :p", ProjectionExpression="pk, doc.x",
                   ExpressionAttributeValues={":v": "x", ":p": "p"})
    assert page["Items"] == [{"pk": "p", "doc": {"x": "x"}}]
