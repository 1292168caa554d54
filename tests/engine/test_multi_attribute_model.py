"""Multi-attribute GSIs against the reference model (``read_model``; issue 31): generated key schemas of 1-4 HASH
and 1-4 RANGE attributes of mixed types, sparse items, and every Query the rules allow (every HASH attribute
pinned, an equality prefix of the RANGE attributes, a last condition of any operator, both directions, Limit,
paging) and Scans of the index (parallel, paged): items, order, Count, LastEvaluatedKey and capacity.
"""

from __future__ import annotations

import os
from decimal import Decimal

from hypothesis import HealthCheck, given, settings, strategies as st

import partiql

from .read_model import Source, order, page_units, pages, segment_of

TABLE = "Multi"
VALUES = {"S": st.sampled_from(["a", "b", "ab", "é"]), "N": st.sampled_from([Decimal(-1), Decimal(0), Decimal("2.5"),
                                                                            Decimal(10)]),
          "B": st.sampled_from([b"\x00", b"a", b"ab", b"\xff"])}
OPERATORS = ["=", "<", "<=", ">", ">=", "BETWEEN", "begins_with"]
SETTINGS = settings(max_examples=int(os.environ.get("PARTIQL_MODEL_EXAMPLES", 300)), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def indexes(draw):
    """(HASH (name, type) pairs, RANGE pairs, items): 1-4 of each, values from small pools so keys repeat."""
    hashes = [(f"h{n}", draw(st.sampled_from("SNB"))) for n in range(draw(st.integers(1, 4)))]
    ranges = [(f"r{n}", draw(st.sampled_from("SNB"))) for n in range(draw(st.integers(1, 4)))]
    items = []
    for n in range(draw(st.integers(0, 30))):
        item = {"pk": f"i{n}", "pad": "x" * draw(st.sampled_from([0, 10, 3000]))}
        for name, kind in hashes + ranges:
            if draw(st.integers(0, 9)):  # (now and then an item misses a key attribute: sparse)
                item[name] = draw(VALUES[kind])
        items.append(item)
    return hashes, ranges, items


def _loaded(hashes, ranges, items):
    db = partiql.connect(throughput="off")
    db.engine.create_table(
        TableName=TABLE, BillingMode="PAY_PER_REQUEST", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}]
        + [{"AttributeName": n, "AttributeType": t} for n, t in hashes + ranges],
        GlobalSecondaryIndexes=[{"IndexName": "gsi", "Projection": {"ProjectionType": "ALL"},
                                 "KeySchema": [{"AttributeName": n, "KeyType": "HASH"} for n, _ in hashes]
                                 + [{"AttributeName": n, "KeyType": "RANGE"} for n, _ in ranges]}])
    for item in items:
        db.engine.put_item(TableName=TABLE, Item=item)
    return db


def _source(hashes, ranges) -> Source:
    return Source("gsi", "GSI", hashes[0][0], ranges[0][0], None, ("pk", None),
                  tuple(n for n, _ in hashes[1:]), tuple(n for n, _ in ranges[1:]))


def _pages_match(call, request: dict, source: Source, entries: list, limit) -> None:
    for expected in pages(source, entries, limit):
        page = call(**request)
        assert page["Items"] == expected.read
        assert (page["Count"], page["ScannedCount"]) == (len(expected.read), len(expected.read))
        assert page.get("LastEvaluatedKey") == expected.last_key
        assert page["ConsumedCapacity"]["CapacityUnits"] == page_units(expected, False)
        request["ExclusiveStartKey"] = expected.last_key
    request.pop("ExclusiveStartKey", None)


@SETTINGS
@given(indexes(), st.data())
def test_every_multi_attribute_query_page_is_the_model_s(index, data):
    hashes, ranges, items = index
    db = _loaded(hashes, ranges, items)
    source = _source(hashes, ranges)
    entries = source.entries(items)
    types = dict(hashes + ranges)
    pinned = data.draw(st.sampled_from(entries)) if entries and data.draw(st.booleans()) else \
        {name: data.draw(VALUES[kind]) for name, kind in hashes + ranges}
    prefix = data.draw(st.integers(0, len(ranges) - 1))
    last = ranges[prefix][0]
    operator = data.draw(st.sampled_from([None] + OPERATORS if types[last] != "N" else [None] + OPERATORS[:-1]))
    bounds = sorted([data.draw(VALUES[types[last]]), data.draw(VALUES[types[last]])], key=order)
    clauses, values, names = [], {}, {}
    for number, name in enumerate([n for n, _ in hashes] + [n for n, _ in ranges[:prefix]]):
        clauses.append(f"#k{number} = :k{number}")
        names[f"#k{number}"], values[f":k{number}"] = name, pinned[name]
    if operator is not None:
        names["#last"] = last
        values[":lo"] = bounds[0]
        clauses.append({"BETWEEN": "#last BETWEEN :lo AND :hi", "begins_with": "begins_with(#last, :lo)"}.get(
            operator, f"#last {operator} :lo"))
        if operator == "BETWEEN":
            values[":hi"] = bounds[1]
    lo, hi = order(bounds[0]), order(bounds[1])
    tests = {"=": lambda v: v == lo, "<": lambda v: v < lo, "<=": lambda v: v <= lo, ">": lambda v: v > lo,
             ">=": lambda v: v >= lo, "BETWEEN": lambda v: lo <= v <= hi, "begins_with": lambda v: v[:len(lo)] == lo}
    pinned_names = [n for n, _ in hashes] + [n for n, _ in ranges[:prefix]]
    chosen = [e for e in entries if all(order(e[n]) == order(pinned[n]) for n in pinned_names)
              and (operator is None or tests[operator](order(e[last])))]
    forward = data.draw(st.booleans())
    if not forward:
        chosen.reverse()
    limit = data.draw(st.none() | st.integers(1, 4))
    request = {"TableName": TABLE, "IndexName": "gsi", "KeyConditionExpression": " AND ".join(clauses),
               "ExpressionAttributeNames": names, "ExpressionAttributeValues": values, "ScanIndexForward": forward,
               "ReturnConsumedCapacity": "TOTAL", **({"Limit": limit} if limit else {})}
    _pages_match(db.engine.query, request, source, chosen, limit)


@SETTINGS
@given(indexes(), st.integers(1, 4), st.none() | st.integers(1, 5))
def test_every_multi_attribute_scan_page_is_the_model_s(index, total, limit):
    hashes, ranges, items = index
    db = _loaded(hashes, ranges, items)
    source = _source(hashes, ranges)
    entries = source.entries(items)
    for segment in range(total):
        request = {"TableName": TABLE, "IndexName": "gsi", "ReturnConsumedCapacity": "TOTAL",
                   **({"Limit": limit} if limit else {}), **({"Segment": segment, "TotalSegments": total}
                                                            if total > 1 else {})}
        mine = [entry for entry in entries if segment_of(source.hash_of(entry), total) == segment]
        _pages_match(db.engine.scan, request, source, mine, limit)
