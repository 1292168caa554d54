"""Every read path against the reference model (``read_model``; issue 30).

A table keyed (pk S|N|B, sk S|N) with an LSI (INCLUDE) and three GSIs (ALL; KEYS_ONLY hash-only; INCLUDE
with a number hash), sparse members, and items of varied sizes up to 390 KB, so that pages stop at 1 MB:
Scan and parallel Scan (every TotalSegments from 1 to 8) of the table and of each index, with and without
Limit, filter, projection, Select COUNT and consistency, paged through ExclusiveStartKey to the end; Query
of each index; GetItem and BatchGetItem (its retries until UnprocessedKeys is empty); the same reads in
PartiQL (keys, non-keys, ORDER BY … DESC, IN, BETWEEN, begins_with, Limit and NextToken). Items, order,
Count, ScannedCount, LastEvaluatedKey and ConsumedCapacity must be the model's.
"""

from __future__ import annotations

import os
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.control import currently_in_test_context, event as hypothesis_event

import partiql

from partiql.engine.types import item_size

from .read_model import PAGE_BYTES, Source, order, page_units, pages, read_units, segment_of, statement_pages

TABLE = "Model"
TEXT = st.text(alphabet=st.sampled_from("ab#é\U0001f600\x00~"), min_size=1, max_size=4)
NUMBER = st.decimals(min_value=-1000, max_value=1000, places=1, allow_nan=False, allow_infinity=False).map(
    lambda d: d.normalize() if d else Decimal(0))
KEY_VALUES = {"S": TEXT, "N": NUMBER, "B": st.binary(min_size=1, max_size=3)}
RANKS = [Decimal(-2), Decimal(0), Decimal(1), Decimal("1.5"), Decimal(7)]
GROUPS = ["g1", "g2", "g3"]
PADS = st.sampled_from([0, 100_000, 5, 250_000, 60, 390_000, 300, 2000])  # (pages stop at 1 MB)
# (bench/fuzz.py --model N runs the same with N examples each)
SETTINGS = settings(max_examples=int(os.environ.get("PARTIQL_MODEL_EXAMPLES", 300)), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                           HealthCheck.data_too_large])


def _sources(sk_kind: str) -> dict:
    key = ("pk", "sk")
    return {
        None: Source(None, "table", "pk", "sk", None, key),
        "Lsi": Source("Lsi", "LSI", "pk", "rank", frozenset({"odd"}), key),
        "GAll": Source("GAll", "GSI", "g", "rank", None, key),
        "GKeys": Source("GKeys", "GSI", "g", None, frozenset(), key),
        "GInc": Source("GInc", "GSI", "rank", "g", frozenset({"pad"}), key),
    }


def _create(db, pk_kind: str, sk_kind: str) -> None:
    def schema(*names):
        return [{"AttributeName": n, "KeyType": k} for n, k in zip(names, ("HASH", "RANGE"))]
    db.engine.create_table(
        TableName=TABLE, BillingMode="PAY_PER_REQUEST", KeySchema=schema("pk", "sk"),
        AttributeDefinitions=[{"AttributeName": n, "AttributeType": t} for n, t in
                              (("pk", pk_kind), ("sk", sk_kind), ("g", "S"), ("rank", "N"))],
        LocalSecondaryIndexes=[{"IndexName": "Lsi", "KeySchema": schema("pk", "rank"),
                                "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["odd"]}}],
        GlobalSecondaryIndexes=[
            {"IndexName": "GAll", "KeySchema": schema("g", "rank"), "Projection": {"ProjectionType": "ALL"}},
            {"IndexName": "GKeys", "KeySchema": schema("g"), "Projection": {"ProjectionType": "KEYS_ONLY"}},
            {"IndexName": "GInc", "KeySchema": schema("rank", "g"),
             "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["pad"]}}])


@st.composite
def tables(draw):
    """(pk kind, sk kind, items): a few partition keys, each with a few sort keys; sparse index keys."""
    pk_kind, sk_kind = draw(st.sampled_from("SNB")), draw(st.sampled_from("SN"))
    pks = draw(st.lists(KEY_VALUES[pk_kind], min_size=1, max_size=8, unique_by=order))
    items = []
    for pk in pks:
        for sk in draw(st.lists(KEY_VALUES[sk_kind], min_size=1, max_size=8, unique_by=order)):
            item = {"pk": pk, "sk": sk, "odd": Decimal(draw(st.integers(0, 1))), "pad": "x" * draw(PADS)}
            if draw(st.booleans()):
                item["g"] = draw(st.sampled_from(GROUPS))
            if draw(st.integers(0, 3)):
                item["rank"] = draw(st.sampled_from(RANKS))
            items.append(item)
    return pk_kind, sk_kind, items


def _loaded(pk_kind: str, sk_kind: str, items: list):
    event(f"{len(items) // 10 * 10}+ items")
    db = partiql.connect(throughput="off")  # (big items: a partition's 1,000 WCU would be reported)
    _create(db, pk_kind, sk_kind)
    for item in items:
        db.engine.put_item(TableName=TABLE, Item=item)
    return db


def _read_to_the_end(call, request: dict, source: Source, entries: list, limit, matches, counting,
                     consistent, projected=None) -> None:
    """Page ``call(request)`` to the end, every page against the model's."""
    for expected in pages(source, entries, limit):
        if expected.last_key is not None and len(expected.read) != limit:
            event("a page stopped at 1 MB")
        page = call(**request)
        kept = [entry for entry in expected.read if matches(entry)]
        if projected is not None:
            kept = [{name: entry[name] for name in projected if name in entry} for entry in kept]
        assert (page["ScannedCount"], page["Count"]) == (len(expected.read), len(kept))
        assert ("Items" not in page) if counting else (page["Items"] == kept)
        assert page.get("LastEvaluatedKey") == expected.last_key
        assert page["ConsumedCapacity"]["CapacityUnits"] == page_units(expected, consistent)
        request["ExclusiveStartKey"] = expected.last_key
    request.pop("ExclusiveStartKey", None)


def event(text: str) -> None:
    """Count ``text`` in hypothesis' statistics (``--hypothesis-show-statistics``), when under hypothesis."""
    if currently_in_test_context():
        hypothesis_event(text)


READS = st.fixed_dictionaries({
    "index": st.sampled_from([None, "Lsi", "GAll", "GKeys", "GInc"]),
    "limit": st.none() | st.integers(1, 7),
    "filtered": st.booleans(),
    "counting": st.booleans(),
    "projecting": st.booleans(),
    "consistent": st.booleans(),
    "segments": st.integers(1, 8),
})


@SETTINGS
@given(tables(), READS)
def test_every_scan_and_parallel_scan_page_is_the_model_s(table, read):
    pk_kind, sk_kind, items = table
    db = _loaded(pk_kind, sk_kind, items)
    source = _sources(sk_kind)[read["index"]]
    consistent = read["consistent"] and source.kind != "GSI"
    request = {"TableName": TABLE, "ConsistentRead": consistent, "ReturnConsumedCapacity": "TOTAL"}
    if source.name:
        request["IndexName"] = source.name
    if read["limit"]:
        request["Limit"] = read["limit"]
    if read["filtered"]:
        request.update(FilterExpression="odd = :one", ExpressionAttributeValues={":one": Decimal(1)})
    projected = None
    if read["counting"]:
        request["Select"] = "COUNT"
    elif read["projecting"]:
        request["ProjectionExpression"] = "pk, odd"
        projected = ("pk", "odd")

    def matches(entry):
        return not read["filtered"] or entry.get("odd") == 1
    entries = source.entries(items)
    total = read["segments"]
    for segment in range(total):
        if total > 1:
            request.update(Segment=segment, TotalSegments=total)
        mine = [entry for entry in entries if total == 1 or segment_of(source.hash_of(entry), total) == segment]
        _read_to_the_end(db.engine.scan, request, source, mine, read["limit"], matches, read["counting"],
                         consistent, projected)


@pytest.mark.parametrize("past", [-1, 0, 1])  # bytes past 1 MB after the third item
@pytest.mark.parametrize("limit", [None, 3])
def test_a_page_stops_at_the_item_that_reaches_1_mb(past, limit):
    source = _sources("S")[None]
    items = source.entries([{"pk": f"k{n}", "sk": "s", "odd": Decimal(1), "pad": ""} for n in range(5)])
    first = [item_size(item) for item in items]  # (in Scan order: the first three are padded to 1 MB)
    share = (PAGE_BYTES + past - sum(first[:3])) // 3
    for item in items[:3]:
        item["pad"] = "x" * share
    items[2]["pad"] += "x" * (PAGE_BYTES + past - sum(item_size(item) for item in items[:3]))
    assert sum(item_size(item) for item in items[:3]) == PAGE_BYTES + past
    db = _loaded("S", "S", items)
    entries = source.entries(items)
    request = {"TableName": TABLE, "ReturnConsumedCapacity": "TOTAL", **({"Limit": limit} if limit else {})}
    expected = pages(source, entries, limit)
    assert len(expected[0].read) == (3 if past >= 0 or limit else 4)  # (the model's own reading, stated)
    _read_to_the_end(db.engine.scan, request, source, entries, limit, lambda entry: True, False, False)


QUERIES = st.fixed_dictionaries({
    "index": st.sampled_from(["Lsi", "GAll", "GKeys", "GInc"]),
    "operator": st.sampled_from([None, "=", "<", "<=", ">", ">=", "BETWEEN"]),
    "forward": st.booleans(),
    "limit": st.none() | st.integers(1, 5),
    "consistent": st.booleans(),
    "bounds": st.lists(st.sampled_from(RANKS + GROUPS), min_size=2, max_size=2),
})


@SETTINGS
@given(tables(), QUERIES, st.data())
def test_every_index_query_page_is_the_model_s(table, query, data):
    pk_kind, sk_kind, items = table
    db = _loaded(pk_kind, sk_kind, items)
    source = _sources(sk_kind)[query["index"]]
    entries = source.entries(items)
    hash_value = data.draw(st.sampled_from([e[source.hash_name] for e in entries]) if entries
                           else {"pk": KEY_VALUES[pk_kind], "rank": st.sampled_from(RANKS),
                                 "g": st.sampled_from(GROUPS)}[source.hash_name])
    operator = query["operator"] if source.range_name is not None else None
    sort_kind = "N" if source.range_name == "rank" else "S"
    bounds = sorted((b for b in query["bounds"] if type(b) is (Decimal if sort_kind == "N" else str)), key=order) \
        or ([RANKS[1], RANKS[3]] if sort_kind == "N" else ["g1", "g2"])
    low, high = bounds[0], bounds[-1]
    condition, values = "#h = :h", {":h": hash_value}
    if operator == "BETWEEN":
        condition += " AND #r BETWEEN :a AND :b"
        values.update({":a": low, ":b": high})
    elif operator is not None:
        condition += f" AND #r {operator} :a"
        values[":a"] = low
    lo, hi = order(low), order(high)
    tests = {"=": lambda v: v == lo, "<": lambda v: v < lo, "<=": lambda v: v <= lo, ">": lambda v: v > lo,
             ">=": lambda v: v >= lo, "BETWEEN": lambda v: lo <= v <= hi}
    chosen = [e for e in entries if e[source.hash_name] == hash_value
              and (operator is None or tests[operator](order(e[source.range_name])))]
    if not query["forward"]:
        chosen.reverse()
    consistent = query["consistent"] and source.kind != "GSI"
    names = {"#h": source.hash_name, **({"#r": source.range_name} if operator else {})}
    request = {"TableName": TABLE, "IndexName": source.name, "KeyConditionExpression": condition,
               "ExpressionAttributeNames": names, "ExpressionAttributeValues": values,
               "ScanIndexForward": query["forward"], "ConsistentRead": consistent, "ReturnConsumedCapacity": "TOTAL"}
    if query["limit"]:
        request["Limit"] = query["limit"]
    _read_to_the_end(db.engine.query, request, source, chosen, query["limit"], lambda entry: True, False, consistent)


@SETTINGS
@given(tables(), st.data())
def test_get_and_batch_get_are_the_model_s(table, data):
    pk_kind, sk_kind, items = table
    db = _loaded(pk_kind, sk_kind, items)
    stored = {(order(item["pk"]), order(item["sk"])): item for item in items}
    absent = data.draw(st.lists(st.tuples(KEY_VALUES[pk_kind], KEY_VALUES[sk_kind]), max_size=5))
    keys = [{"pk": item["pk"], "sk": item["sk"]} for item in items] + [{"pk": p, "sk": s} for p, s in absent]
    keys = list({(order(k["pk"]), order(k["sk"])): k for k in keys}.values())
    keys = data.draw(st.permutations(keys))[:100]
    consistent = data.draw(st.booleans())
    for key in keys[:10]:
        found = db.engine.get_item(TableName=TABLE, Key=key, ConsistentRead=consistent,
                                   ReturnConsumedCapacity="TOTAL")
        expected = stored.get((order(key["pk"]), order(key["sk"])))
        assert found.get("Item") == expected
        assert found["ConsumedCapacity"]["CapacityUnits"] == read_units(item_size(expected) if expected else 1,
                                                                          consistent)
    if not keys:
        return
    request = {"RequestItems": {TABLE: {"Keys": keys, "ConsistentRead": consistent}},
               "ReturnConsumedCapacity": "TOTAL"}
    got, units, calls = [], 0, 0
    while request["RequestItems"]:
        answer = db.engine.batch_get_item(**request)
        got += answer["Responses"][TABLE]
        units += sum(entry["CapacityUnits"] for entry in answer["ConsumedCapacity"])
        request["RequestItems"] = answer["UnprocessedKeys"]
        calls += 1
        assert calls <= len(keys)
    wanted = [stored[k] for k in ((order(k["pk"]), order(k["sk"])) for k in keys) if k in stored]
    assert sorted(got, key=lambda i: (order(i["pk"]), order(i["sk"]))) == \
        sorted(wanted, key=lambda i: (order(i["pk"]), order(i["sk"])))
    assert units == sum(read_units(item_size(stored[k]) if k in stored else 1, consistent)
                        for k in ((order(k["pk"]), order(k["sk"])) for k in keys))


PARTIQL = st.fixed_dictionaries({
    "shape": st.sampled_from(["key", "key", "filter only", "index", "in"]),
    "operator": st.sampled_from([None, "=", "<", "<=", ">", ">=", "BETWEEN", "begins_with"]),
    "descending": st.none() | st.booleans(),
    "residual": st.booleans(),
    "limit": st.none() | st.integers(1, 5),
    "consistent": st.booleans(),
})
SORT_TESTS = {None: lambda v, lo, hi: True, "=": lambda v, lo, hi: v == lo, "<": lambda v, lo, hi: v < lo,
              "<=": lambda v, lo, hi: v <= lo, ">": lambda v, lo, hi: v > lo, ">=": lambda v, lo, hi: v >= lo,
              "BETWEEN": lambda v, lo, hi: lo <= v <= hi, "begins_with": lambda v, lo, hi: v[:len(lo)] == lo}


def _sort_clause(name: str, operator: str | None) -> str:
    if operator is None:
        return ""
    if operator == "BETWEEN":
        return f" AND {name} BETWEEN ? AND ?"
    if operator == "begins_with":
        return f" AND begins_with({name}, ?)"
    return f" AND {name} {operator} ?"


@SETTINGS
@given(tables(), PARTIQL, st.data())
def test_partiql_reads_are_the_model_s(table, statement, data):
    """SELECT over keys (a Query), non-keys (a Scan), an index, and IN (one read per value, in the list's
    order: partiql-dynamodb A5), every page against the model's: items, Count, ScannedCount, NextToken,
    capacity."""
    pk_kind, sk_kind, items = table
    db = _loaded(pk_kind, sk_kind, items)
    shape, operator, residual = statement["shape"], statement["operator"], statement["residual"]
    source = _sources(sk_kind)["GAll" if shape == "index" else None]
    hash_name, range_name = source.hash_name, source.range_name
    range_values = st.sampled_from(RANKS) if shape == "index" else KEY_VALUES[sk_kind]
    if operator == "begins_with" and (shape == "index" or sk_kind == "N"):
        operator = None
    entries = source.entries(items)
    values = data.draw(st.lists(st.sampled_from([e[hash_name] for e in entries]) if entries and data.draw(st.booleans())
                                else {"pk": KEY_VALUES[pk_kind], "g": st.sampled_from(GROUPS)}[hash_name],
                                min_size=1, max_size=3, unique_by=order))
    bounds = sorted(data.draw(st.lists(range_values, min_size=2, max_size=2)), key=order)
    lo, hi = order(bounds[0]), order(bounds[1])
    if operator == "begins_with":
        hi = None
    target = TABLE if shape != "index" else f'"{TABLE}"."GAll"'
    parameters: list = []
    if shape == "filter only":
        where, chosen = "odd = ?", [entries]
        parameters.append(Decimal(1))
    else:
        reads = values if shape == "in" else values[:1]
        where = (f"{hash_name} IN [{', '.join('?' * len(reads))}]" if shape == "in" else f"{hash_name} = ?") \
            + _sort_clause(range_name, operator)
        parameters += reads
        parameters += [bounds[0]] + ([bounds[1]] if operator == "BETWEEN" else []) if operator else []
        chosen = [[e for e in entries if order(e[hash_name]) == order(value)
                   and SORT_TESTS[operator](order(e[range_name]), lo, hi)] for value in reads]
        if residual:
            where += " AND odd = ?"
            parameters.append(Decimal(1))
        if statement["descending"] is not None and shape != "in":
            where += f" ORDER BY {range_name} " + ("DESC" if statement["descending"] else "ASC")
            if statement["descending"]:
                chosen = [list(reversed(read)) for read in chosen]
    filtered = residual or shape == "filter only"
    consistent = statement["consistent"] and shape != "index"
    limit = statement["limit"]
    text = f"SELECT * FROM {target} WHERE {where}"
    point = shape in ("key", "in") and operator == "=" and source.kind == "table"
    token = None
    for expected in statement_pages(chosen, limit, point, consistent):
        result = db.execute(text, parameters, limit=limit, next_token=token, consistent_read=consistent)
        kept = [e for e in expected.read if not filtered or e.get("odd") == 1]
        assert (result.items, result.count, result.scanned_count) == (kept, len(kept), expected.evaluated)
        assert (result.next_token is not None) == expected.token
        assert result.consumed_capacity.total == expected.units
        if sum(item_size(e) for e in expected.read) >= PAGE_BYTES:
            event("a page stopped at 1 MB")
        token = result.next_token
