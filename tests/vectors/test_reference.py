"""SearchVectors against a brute-force ranking (issue 36): generated items (vectors of a few small components —
ties are common — some without the vector, the HASH value or a filter value), generated searches (every
distance, with and without a HASH value and inline filters, TopK 1-8), the engine's answer equal to a plain
Python model's: every item, scored by the spec's formulas, filtered, sorted by (score, key), cut at TopK. Both
ways of searching: exact scoring of every candidate, and numpy's shortlist (forced on from the first entry)."""

from __future__ import annotations

import math
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import partiql
from partiql.engine.vectors import index as vector_index_module

from .conftest import search_vector, table, vec, vector_index

DISTANCES = ("COSINE", "EUCLIDEAN", "DOT_PRODUCT")
COMPONENT = st.sampled_from([-2, -1, -0.5, 0, 0, 0.25, 1, 1, 2, 3])
ITEMS = st.lists(st.fixed_dictionaries({
    "vector": st.one_of(st.none(), st.lists(COMPONENT, min_size=3, max_size=3)),
    "tenant": st.sampled_from([None, "t1", "t2"]),
    "colour": st.sampled_from([None, "red", "blue"]),
}), max_size=25)
SEARCH = st.fixed_dictionaries({
    "query": st.lists(COMPONENT, min_size=3, max_size=3), "top": st.integers(1, 8),
    "tenant": st.sampled_from([None, "t1", "t2"]), "colour": st.sampled_from([None, "red", "blue"]),
    "distance": st.sampled_from(DISTANCES)})


def _f32(x) -> float:
    return struct.unpack("<f", struct.pack("<f", float(x)))[0]


def model_score(distance: str, q: list, s: list) -> float:
    """The spec's formulas (§5.4 rule 4), in 64-bit floats of 32-bit components, sums exactly rounded (cosine's
    denominator one square root: identical vectors score exactly 0, as recorded)."""
    q, s = [_f32(x) for x in q], [_f32(x) for x in s]
    if distance == "EUCLIDEAN":
        return math.sqrt(math.fsum((a - b) * (a - b) for a, b in zip(q, s)))  # (x * x: pow(x, 2) may differ by an ulp)
    dot = math.fsum(a * b for a, b in zip(q, s))
    if distance == "DOT_PRODUCT":
        return dot
    norms = math.sqrt(math.fsum(a * a for a in q) * math.fsum(b * b for b in s))
    return 1.0 if norms == 0 else min(2.0, max(0.0, 1.0 - dot / norms))


def model_search(items: list, search: dict, hashed: bool) -> list:
    """(key, score) of the brute-force answer."""
    found = []
    for n, item in enumerate(items):
        if item["vector"] is None or (hashed and item["tenant"] != search["tenant"]):
            continue
        if search["colour"] is not None and item["colour"] != search["colour"]:
            continue
        found.append((f"k{n:03}", model_score(search["distance"], search["query"], item["vector"])))
    higher = search["distance"] == "DOT_PRODUCT"
    found.sort(key=lambda pair: (-pair[1] if higher else pair[1], pair[0]))
    return found[:search["top"]]


def _load(items: list):
    db = partiql.connect(throughput="off")
    client = partiql.client(db)
    indexes = [vector_index(f"{d.lower()}-{kind}", distance=d,
                            schema=[("tenant", "HASH"), ("colour", "INLINE_FILTER")] if kind == "hash"
                            else [("colour", "INLINE_FILTER")])
               for d in DISTANCES for kind in ("hash", "all")]
    hashed, whole = [i for i in indexes if i["IndexName"].endswith("hash")], [i for i in indexes if
                                                                                i["IndexName"].endswith("all")]
    client.create_table(**table("Refhash", hashed, {"tenant": "S", "colour": "S"}))
    client.create_table(**table("Refall", whole[:2], {"colour": "S"}))
    rows = _rows(items)
    for row in rows[:len(rows) // 2]:
        for name in ("Refhash", "Refall"):
            client.put_item(TableName=name, Item=row)
    client.update_table(TableName="Refall", AttributeDefinitions=[{"AttributeName": "colour", "AttributeType": "S"}],
                        VectorIndexUpdates=[{"Create": whole[2]}])  # (half the items there before: a backfill)
    for row in rows[len(rows) // 2:]:
        for name in ("Refhash", "Refall"):
            client.put_item(TableName=name, Item=row)
    return db, client


def _rows(items: list) -> list:
    rows = []
    for n, item in enumerate(items):
        row = {"pk": {"S": f"k{n:03}"}}
        if item["vector"] is not None:
            row["embedding"] = vec(*item["vector"])
        for name in ("tenant", "colour"):
            if item[name] is not None:
                row[name] = {"S": item[name]}
        rows.append(row)
    return rows


@pytest.mark.parametrize("numpy_first", [False, True], ids=["exact", "numpy shortlist"])
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(items=ITEMS, searches=st.lists(SEARCH, min_size=1, max_size=4))
def test_search_is_the_brute_force_ranking(monkeypatch, numpy_first, items, searches):
    if numpy_first:
        pytest.importorskip("numpy", reason="numpy is not installed: the shortlist is never used")
    monkeypatch.setattr(vector_index_module, "NUMPY_FROM", 0 if numpy_first else 10 ** 9)
    db, client = _load(items)
    try:
        for search in searches:
            hashed = search["tenant"] is not None
            terms = ([("tenant", search["tenant"])] if hashed else []) + \
                ([("colour", search["colour"])] if search["colour"] else [])
            members = {}
            if terms:
                members = {"SearchConditionExpression": " AND ".join(f"{n} = :{n}" for n, _ in terms),
                           "ExpressionAttributeValues": {f":{n}": {"S": v} for n, v in terms}}
            answer = client.search_vectors(
                TableName="Refhash" if hashed else "Refall",
                IndexName=f"{search['distance'].lower()}-{'hash' if hashed else 'all'}",
                SearchVector=search_vector(*search["query"]), TopK=search["top"], **members)["SearchResults"]
            assert [(r["Item"]["pk"]["S"], r["Score"]) for r in answer] == model_search(items, search, hashed)
            assert all("embedding" not in r["Item"] for r in answer)
    finally:
        db.close()


WIDE = st.lists(st.integers(-10_000, 10_000).map(lambda n: n / 10_000), min_size=48, max_size=48)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(vectors=st.lists(WIDE, min_size=30, max_size=60), query=WIDE, top=st.integers(1, 10),
       distance=st.sampled_from(DISTANCES))
def test_numpys_shortlist_keeps_the_exact_answer_of_wide_vectors(monkeypatch, vectors, query, top, distance):
    """48 dimensions of four-decimal components: numpy's 32-bit shortlist must hold every one of the exact first
    ``top`` (its rounding bound), whatever their scores' spacing."""
    pytest.importorskip("numpy", reason="numpy is not installed: the shortlist is never used")
    monkeypatch.setattr(vector_index_module, "NUMPY_FROM", 0)
    db = partiql.connect(throughput="off")
    client = partiql.client(db)
    client.create_table(**table("Wide", [vector_index("wide", dimensions=48, distance=distance)]))
    for n, numbers in enumerate(vectors):
        client.put_item(TableName="Wide", Item={"pk": {"S": f"k{n:03}"}, "embedding": vec(*numbers)})
    answer = client.search_vectors(TableName="Wide", IndexName="wide", SearchVector=search_vector(*query),
                                   TopK=top)["SearchResults"]
    items = [{"vector": numbers, "tenant": None, "colour": None} for numbers in vectors]
    expected = model_search(items, {"query": query, "top": top, "colour": None, "tenant": None,
                                    "distance": distance}, False)
    assert [(r["Item"]["pk"]["S"], r["Score"]) for r in answer] == expected
    db.close()


KEYS = 30
OPERATIONS = st.lists(st.one_of(
    st.tuples(st.just("put"), st.integers(0, KEYS - 1), st.lists(COMPONENT, min_size=3, max_size=3),
              st.sampled_from(["t1", "t2"])),
    st.tuples(st.just("put"), st.integers(0, KEYS - 1), st.lists(COMPONENT, min_size=3, max_size=3),
              st.sampled_from(["t1", "t2"])),
    st.tuples(st.just("delete"), st.integers(0, KEYS - 1)),
    st.tuples(st.just("search"), st.lists(COMPONENT, min_size=3, max_size=3), st.integers(1, 3),
              st.sampled_from(DISTANCES), st.sampled_from([None, "t1", "t2"]))), min_size=1, max_size=80)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=OPERATIONS)
def test_searches_between_writes_see_every_write(monkeypatch, operations):
    """Writes and searches interleaved, numpy's kept matrices updated in place (a key rewritten, deleted, moved to
    another HASH value): each search is the brute-force ranking of the items as they are then."""
    pytest.importorskip("numpy", reason="numpy is not installed: the shortlist is never used")
    monkeypatch.setattr(vector_index_module, "NUMPY_FROM", 0)
    db = partiql.connect(throughput="off")
    client = partiql.client(db)
    indexes = [vector_index(d.lower(), distance=d) for d in DISTANCES]
    client.create_table(**table("Mixed", indexes + [vector_index("tenanted", schema=[("tenant", "HASH")])],
                                {"tenant": "S"}))
    items: dict = {}
    for operation in operations:
        if operation[0] == "put":
            _, n, numbers, tenant = operation
            items[n] = {"vector": numbers, "tenant": tenant, "colour": None}
            client.put_item(TableName="Mixed", Item={"pk": {"S": f"k{n:03}"}, "tenant": {"S": tenant},
                                                     "embedding": vec(*numbers)})
        elif operation[0] == "delete":
            items.pop(operation[1], None)
            client.delete_item(TableName="Mixed", Key={"pk": {"S": f"k{operation[1]:03}"}})
        else:
            _, query, top, distance, tenant = operation
            index = "tenanted" if tenant else distance.lower()
            members = {"SearchConditionExpression": "tenant = :t",
                       "ExpressionAttributeValues": {":t": {"S": tenant}}} if tenant else {}
            answer = client.search_vectors(TableName="Mixed", IndexName=index, SearchVector=search_vector(*query),
                                           TopK=top, **members)["SearchResults"]
            model = [dict(items.get(n, {"vector": None, "tenant": None, "colour": None})) for n in range(KEYS)]
            expected = model_search(model, {"query": query, "top": top, "colour": None, "tenant": tenant,
                                            "distance": "COSINE" if tenant else distance}, bool(tenant))
            assert [(r["Item"]["pk"]["S"], r["Score"]) for r in answer] == expected
    db.close()
