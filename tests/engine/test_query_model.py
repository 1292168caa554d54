"""Query against a reference model (issue 30, first step): a sorted list filtered in Python.

Tables keyed (pk S, sk S|N|B) take generated items; every Query — each key-condition operator, both
directions, a Limit or none, a filter or none, Select COUNT or items — is paged through ExclusiveStartKey
to the end, and every page is compared with the model: its items in order, Count, ScannedCount,
LastEvaluatedKey (the last item read, present exactly when the Limit stopped the page) and its read
units (the scanned items' sizes summed, rounded up to 4 KB, halved when eventually consistent). The
model orders S by UTF-8 bytes, N by value and B by bytes, as DynamoDB does. The same reads go through
PartiQL (``ORDER BY sk DESC``). It failed on the code before the fix of A1 (``begins_with`` read
backwards returned nothing).
"""

from __future__ import annotations

import math
import os
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import partiql
from partiql.engine.types import item_size

TABLE = "Model"
TEXT = st.text(alphabet=st.sampled_from("ab#é\U0001f600\x00~"), min_size=1, max_size=4)
SORT_VALUES = {
    "S": TEXT,
    "N": st.decimals(min_value=-1000, max_value=1000, places=1, allow_nan=False, allow_infinity=False).map(
        lambda d: d.normalize() if d else Decimal(0)),
    "B": st.binary(min_size=1, max_size=3),
}
OPERATORS = ("=", "<", "<=", ">", ">=", "BETWEEN", "begins_with")


def _order(kind: str, value):
    """DynamoDB's sort order of a value of ``kind``: S by UTF-8 bytes, N by value, B by bytes."""
    return value.encode("utf-8") if kind == "S" else value


def _matches(kind: str, value, operator: str, a, b) -> bool:
    key, low = _order(kind, value), _order(kind, a)
    if operator == "begins_with":
        return key[:len(low)] == low
    if operator == "BETWEEN":
        return low <= key <= _order(kind, b)
    return {"=": key == low, "<": key < low, "<=": key <= low, ">": key > low, ">=": key >= low}[operator]


def _table(kind: str) -> partiql.Connection:
    db = partiql.connect()
    db.engine.create_table(
        TableName=TABLE, BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": kind}])
    return db


@st.composite
def cases(draw):
    kind = draw(st.sampled_from("SNB"))
    values = draw(st.lists(SORT_VALUES[kind], min_size=0, max_size=25, unique_by=lambda v: _order(kind, v)))
    operator = draw(st.sampled_from([o for o in OPERATORS if kind != "N" or o != "begins_with"]))
    a = draw(st.sampled_from(values) | SORT_VALUES[kind]) if values else draw(SORT_VALUES[kind])
    b = draw(SORT_VALUES[kind]) if operator == "BETWEEN" else None
    if b is not None and _order(kind, b) < _order(kind, a):
        a, b = b, a
    return (kind, values, operator, a, b, draw(st.booleans()), draw(st.none() | st.integers(1, 6)),
            draw(st.booleans()), draw(st.booleans()), draw(st.booleans()))


def _condition(operator: str) -> str:
    if operator == "begins_with":
        return "pk = :p AND begins_with(sk, :a)"
    if operator == "BETWEEN":
        return "pk = :p AND sk BETWEEN :a AND :b"
    return f"pk = :p AND sk {operator} :a"


@settings(max_examples=int(os.environ.get("PARTIQL_MODEL_EXAMPLES", 400)), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_every_query_page_is_the_model_s(case):
    kind, values, operator, a, b, forward, limit, filtered, counting, consistent = case
    db = _table(kind)
    items = [{"pk": "p", "sk": value, "odd": Decimal(n % 2), "pad": "x" * (n * 37 % 300)} for n, value in enumerate(values)]
    for item in items:
        db.engine.put_item(TableName=TABLE, Item=item)
    db.engine.put_item(TableName=TABLE, Item={"pk": "other", "sk": values[0] if values else SORT_VALUES_SAMPLE[kind]})
    model = sorted((item for item in items if _matches(kind, item["sk"], operator, a, b)),
                   key=lambda item: _order(kind, item["sk"]), reverse=not forward)
    request = {"TableName": TABLE, "KeyConditionExpression": _condition(operator), "ScanIndexForward": forward,
               "ExpressionAttributeValues": {":p": "p", ":a": a, **({":b": b} if b is not None else {})},
               "ConsistentRead": consistent, "ReturnConsumedCapacity": "TOTAL"}
    if limit:
        request["Limit"] = limit
    if filtered:
        request["FilterExpression"] = "odd = :one"
        request["ExpressionAttributeValues"][":one"] = 1
    if counting:
        request["Select"] = "COUNT"
    position, pages = 0, 0
    while True:
        page = db.engine.query(**request)
        scanned = model[position:position + limit] if limit else model[position:]
        kept = [item for item in scanned if not filtered or item["odd"] == 1]
        assert page["ScannedCount"] == len(scanned) and page["Count"] == len(kept)
        assert ("Items" not in page) if counting else (page["Items"] == kept)
        units = max(1, math.ceil(sum(item_size(item) for item in scanned) / 4096))
        assert page["ConsumedCapacity"]["CapacityUnits"] == (units if consistent else units / 2)
        position += len(scanned)
        # a Query of one whole key (= on the sort key) reads one row at most and is never resumed (B9)
        stopped = bool(limit) and len(scanned) == limit and operator != "="
        if not stopped:
            assert "LastEvaluatedKey" not in page
            break
        assert page["LastEvaluatedKey"] == {"pk": "p", "sk": scanned[-1]["sk"]}
        request["ExclusiveStartKey"] = page["LastEvaluatedKey"]
        pages += 1
        assert pages <= len(model) + 1
    assert position == len(model)


SORT_VALUES_SAMPLE = {"S": "a", "N": Decimal(1), "B": b"a"}

# A1 of recorded-2026-11.md: DynamoDB's answer to the recorded case
TIMELINE = [{"pk": "u#2", "sk": f"p#{n:03}"} for n in range(25)]
A1 = {  # ScanIndexForward, Limit -> DynamoDB's items, its LastEvaluatedKey
    "backwards": (False, None, [f"p#{n:03}" for n in range(19, 9, -1)], None),
    "backwards, Limit 3": (False, 3, ["p#019", "p#018", "p#017"], {"pk": "u#2", "sk": "p#017"}),
    "forwards": (True, None, [f"p#{n:03}" for n in range(10, 20)], None),
}


@pytest.mark.parametrize("forward, limit, expected, last", A1.values(), ids=A1)
def test_a1_begins_with_read_backwards(forward, limit, expected, last):
    db = _table("S")
    for item in TIMELINE:
        db.engine.put_item(TableName=TABLE, Item=item)
    page = db.engine.query(TableName=TABLE, KeyConditionExpression="pk = :p AND begins_with(sk, :b)",
                           ExpressionAttributeValues={":p": "u#2", ":b": "p#01"}, ScanIndexForward=forward,
                           **({"Limit": limit} if limit else {}))
    assert [item["sk"] for item in page["Items"]] == expected and page.get("LastEvaluatedKey") == last
    found = db.execute(f"SELECT sk FROM {TABLE} WHERE pk = 'u#2' AND begins_with(sk, 'p#01') ORDER BY sk "
                       + ("ASC" if forward else "DESC"), limit=limit)
    assert [item["sk"] for item in found.items] == expected


@pytest.mark.parametrize("prefix, kind", [("\U0010ffff", "S"), ("a\U0010ffff", "S"), (b"\xff", "B"),
                                          (b"a\xff\xff", "B")], ids=["greatest character", "ends with it",
                                                                     "greatest byte", "ends with two"])
def test_begins_with_a_prefix_of_greatest_units_read_backwards(prefix, kind):
    db = _table(kind)
    base = prefix[:-1]
    values = [prefix, prefix + prefix[-1:], base + (b"\x00" if kind == "B" else "\x00") if base else None,
              prefix + (b"z" if kind == "B" else "z")]
    for value in filter(None, values):
        db.engine.put_item(TableName=TABLE, Item={"pk": "p", "sk": value})
    expected = sorted((v for v in filter(None, values) if v[:len(prefix)] == prefix), key=lambda v: _order(kind, v),
                      reverse=True)
    page = db.engine.query(TableName=TABLE, KeyConditionExpression="pk = :p AND begins_with(sk, :b)",
                           ExpressionAttributeValues={":p": "p", ":b": prefix}, ScanIndexForward=False)
    assert [item["sk"] for item in page["Items"]] == expected
