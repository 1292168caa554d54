"""SearchVectors (vector-search.md §5): §12's worked cases 1-8 and 16-22, the rest of §5.5's checks in their
order, and the other operations that name a vector index (§8, cases 41-43)."""

from __future__ import annotations

import json
import struct

import pytest

import partiql
from partiql.server.handler import Handler

from .conftest import error_of, search_vector, table, vec, vector_index

V3 = search_vector(1, 0, 0)
TENANT = {"SearchConditionExpression": "tenant = :t", "ExpressionAttributeValues": {":t": {"S": "t9"}}}

# (index, request members beyond TableName/IndexName, message) — §12 cases 1-7 and §5.5's other steps
REFUSED = [
    pytest.param("plain", {"SearchVector": V3, "TopK": 101}, "Provided TopK value '101' is out of valid range. The "
                 "value must be between 1 and 100 inclusive", id="1 TopK 101"),
    pytest.param("schema", {"SearchVector": V3, "TopK": 1},
                 "SearchConditionExpression must be provided when SearchSchema has a HASH key", id="2 no expression"),
    pytest.param("schema", {"SearchVector": V3, "TopK": 1, **TENANT, "SearchConditionExpression": "tenant < :t"},
                 "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression",
                 id="3 comparator on HASH"),
    pytest.param("schema", {"SearchVector": V3, "TopK": 1, "SearchConditionExpression": "tenant = :t AND category < :c",
                            "ExpressionAttributeValues": {":t": {"S": "t9"}, ":c": {"S": "c"}}},
                 "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression",
                 id="4 comparator on a filter"),
    pytest.param("plain", {"SearchVector": search_vector(1, 0), "TopK": 1},
                 "Input search vector dimension 2 does not match vector index dimension 3", id="5 dimensions"),
    pytest.param("plain", {"SearchVector": V3, "TopK": 1, **TENANT},
                 "SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid "
                 "attribute: tenant", id="6 outside the schema"),
    pytest.param("plain", {"SearchVector": [{"L": V3}], "TopK": 1},
                 "Search vector contains invalid values. All values in the search vector must be a 32-bit "
                 "floating-point number attribute", id="7 L-wrapped"),
    pytest.param("plain", {"SearchVector": search_vector("1e39", 0, 0), "TopK": 1},
                 "Search vector contains invalid values. All values in the search vector must be a 32-bit "
                 "floating-point number attribute", id="beyond f32"),
    pytest.param("plain", {"SearchVector": V3, "TopK": 0}, "1 validation error detected: Value '0' at 'topK' failed "
                 "to satisfy constraint: Member must have value greater than or equal to 1", id="TopK 0"),
    pytest.param("plain", {"SearchVector": [], "TopK": 1}, "1 validation error detected: Value at 'SearchVector' "
                 "failed to satisfy constraint: Member must have length greater than or equal to 1", id="empty vector"),
    pytest.param("ab", {"SearchVector": V3, "TopK": 1}, "1 validation error detected: Value at 'IndexName' failed to "
                 "satisfy constraint: Member must have length greater than or equal to 3", id="short IndexName"),
    pytest.param("nowhere", {"SearchVector": V3, "TopK": 1}, "The table does not have the specified index: nowhere",
                 id="no such index"),
    pytest.param("schema", {"SearchVector": V3, "TopK": 1, "SearchConditionExpression": "tenant = :t OR tenant = :u",
                            "ExpressionAttributeValues": {":t": {"S": "a"}, ":u": {"S": "b"}}},
                 "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression", id="OR"),
    pytest.param("schema", {"SearchVector": V3, "TopK": 1, "SearchConditionExpression": "tenant = :t AND tenant = :t",
                            "ExpressionAttributeValues": {":t": {"S": "a"}}},
                 "Invalid SearchConditionExpression: SearchConditionExpression must only contain one condition per "
                 "attribute", id="twice"),
    pytest.param("schema", {"SearchVector": V3, "TopK": 1, "SearchConditionExpression": "tenant.x = :t",
                            "ExpressionAttributeValues": {":t": {"S": "a"}}},
                 "Invalid SearchConditionExpression: SearchConditionExpression cannot have conditions on nested "
                 "attributes", id="nested"),
    pytest.param("schema", {"SearchVector": V3, "TopK": 1, "SearchConditionExpression": "category = :c",
                            "ExpressionAttributeValues": {":c": {"S": "a"}}},
                 "SearchConditionExpression must be provided when SearchSchema has a HASH key", id="no HASH term"),
    pytest.param("schema", {"SearchVector": V3, "TopK": 1, "SearchConditionExpression": "tenant = :t",
                            "ExpressionAttributeValues": {":t": {"N": "5"}}},
                 "Type of 'tenant' attribute in SearchConditionExpression (N) does not match type in search schema (S)",
                 id="HASH value type"),
    pytest.param("schema", {"SearchVector": V3, "TopK": 1, "SearchConditionExpression": "tenant = :t",
                            "ExpressionAttributeValues": {":t": {"S": ""}}},
                 "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain "
                 "an empty string value. Key: tenant", id="empty HASH value"),
    pytest.param("plain", {"SearchVector": V3, "TopK": 1, "ExpressionAttributeValues": {":t": {"S": "a"}}},
                 "ExpressionAttributeValues can only be specified when using expressions: SearchConditionExpression is "
                 "null", id="values without an expression"),
    pytest.param("plain", {"SearchVector": V3, "TopK": 1, "ReturnConsumedCapacity": "ALL"},
                 "1 validation error detected: Value 'ALL' at 'returnConsumedCapacity' failed to satisfy constraint: "
                 "Member must satisfy enum value set: [INDEXES, TOTAL, NONE]", id="capacity enum"),
    pytest.param("plain", {"SearchVector": V3, "TopK": 1, "SearchConditionExpression": ""},
                 "Invalid SearchConditionExpression: The expression can not be empty;", id="empty expression"),
]


@pytest.mark.parametrize("index, members, message", REFUSED)
def test_a_search_is_refused_as_dynamodb_does(ve, index, members, message):
    assert error_of(lambda: ve.search_vectors(TableName="VEtable", IndexName=index, **members)) == \
        ("ValidationException", message)


def test_a_missing_table_is_not_found(client):
    assert error_of(lambda: client.search_vectors(TableName="Nowhere", IndexName="vix", SearchVector=V3, TopK=1)) == \
        ("ResourceNotFoundException", "Requested resource not found")


@pytest.mark.parametrize("members, kind, words", [  # §12 case 8, over the wire (raw JSON bodies)
    ({"IndexName": None}, "SerializationException", "invalid type: null, expected a string at line 1 column "),
    ({"TableName": None}, "SerializationException", "invalid type: null, expected a string at line 1 column "),
    ({"SearchVector": None}, "SerializationException", "invalid type: null, expected a sequence at line 1 column "),
    ({"TopK": None}, "SerializationException", "invalid type: null, expected i32 at line 1 column "),
    ({"TopK": 3.5}, "SerializationException", "invalid type: floating point `3.5`, expected i32 at line 1 column "),
    ({"TableName": "<absent>"}, "ValidationException", "missing field `TableName` at line 1 column "),
    ({"TableName": "<absent>", "IndexName": "ab"}, "ValidationException",
     "missing field `TableName` at line 1 column "),
])
def test_the_strict_deserialiser_answers_first(members, kind, words):
    db = partiql.connect()
    request = {"TableName": "Nowhere", "IndexName": "vix", "SearchVector": [{"N": "1"}], "TopK": 1, **members}
    request = {name: value for name, value in request.items() if value != "<absent>"}
    status, _, body = Handler(db).handle("DynamoDB_20120810.SearchVectors", {}, json.dumps(request).encode())
    answer = json.loads(body)
    assert status == 400 and answer["__type"].endswith(kind) and answer.get("Message", answer.get("message")) \
        .startswith(words)


VS = table("VStable", [vector_index("cosine"), vector_index("euclidean", distance="EUCLIDEAN"),
                       vector_index("dot", distance="DOT_PRODUCT")])


@pytest.fixture
def vs(client):
    client.create_table(**VS)
    for pk, numbers in (("a", (1, 0, 0)), ("b", (0, 1, 0)), ("c", (-1, 0, 0)), ("d", (0.6, 0.8, 0))):
        client.put_item(TableName="VStable", Item={"pk": {"S": pk}, "embedding": vec(*numbers),
                                                   "label": {"S": f"item-{pk}"}})
    return client


def _search(client, index: str, top: int = 10, **more) -> list:
    return client.search_vectors(TableName="VStable", IndexName=index, SearchVector=V3, TopK=top,
                                 **more)["SearchResults"]


@pytest.mark.parametrize("index, expected", [  # §12 cases 16-18
    ("cosine", [("a", 0.0), ("d", 0.4), ("b", 1.0), ("c", 2.0)]),
    ("euclidean", [("a", 0.0), ("d", 0.894427), ("b", 1.414214), ("c", 2.0)]),
    ("dot", [("a", 1.0), ("d", 0.6), ("b", 0.0), ("c", -1.0)]),
])
def test_scores_and_order_of_each_distance(vs, index, expected):
    found = [(r["Item"]["pk"]["S"], r["Score"]) for r in _search(vs, index)]
    assert [pk for pk, _ in found] == [pk for pk, _ in expected]
    assert all(abs(score - wanted) < 1e-6 for (_, score), (_, wanted) in zip(found, expected))


def test_the_top_match_its_projection_and_no_paging(vs):
    """§12 cases 19-20."""
    (top,) = _search(vs, "cosine", 1)
    assert top == {"Item": {"pk": {"S": "a"}, "label": {"S": "item-a"}}, "Score": 0.0}
    (projected,) = _search(vs, "cosine", 1, ProjectionExpression="pk, embedding")
    assert [float(n["N"]) for n in projected["Item"]["embedding"]["L"]] == [1.0, 0.0, 0.0]
    answer = vs.search_vectors(TableName="VStable", IndexName="cosine", SearchVector=V3, TopK=100)
    assert len(answer["SearchResults"]) == 4 and set(answer) == {"SearchResults"}


def test_the_index_holds_32_bit_floats_and_the_item_every_digit(vs):
    """§12 case 21."""
    texts = ["0.1", "16777217", "1.000000059604644775390625"]
    vs.put_item(TableName="VStable", Item={"pk": {"S": "f32"}, "embedding": vec(*texts)})
    kept = vs.get_item(TableName="VStable", Key={"pk": {"S": "f32"}}, ConsistentRead=True)["Item"]["embedding"]
    assert [n["N"] for n in kept["L"]] == texts
    found = vs.search_vectors(TableName="VStable", IndexName="dot", SearchVector=search_vector(0, 1, 0), TopK=1,
                              ProjectionExpression="embedding")["SearchResults"][0]["Item"]["embedding"]["L"]
    as_f32 = [_f32(t) for t in texts]
    assert [_f32(n["N"]) for n in found] == as_f32 and as_f32[1] == 16777216


def _f32(text: str) -> float:
    return struct.unpack("<f", struct.pack("<f", float(text)))[0]


def test_search_capacity_is_bytes_alone(vs):
    """§12 case 22."""
    for mode in ("TOTAL", "INDEXES"):
        capacity = vs.search_vectors(TableName="VStable", IndexName="cosine", SearchVector=V3, TopK=1,
                                     ReturnConsumedCapacity=mode)["ConsumedCapacity"]
        assert list(capacity) == ["VectorSearchRequestBytes"] and capacity["VectorSearchRequestBytes"] >= 1024
    assert "ConsumedCapacity" not in vs.search_vectors(TableName="VStable", IndexName="cosine", SearchVector=V3,
                                                       TopK=1, ReturnConsumedCapacity="NONE")


def test_keys_only_and_include_hold_what_they_say(client):
    client.create_table(**table("Projected", [
        vector_index("keys", projection={"ProjectionType": "KEYS_ONLY"},
                     schema=[("t", "HASH"), ("f", "INLINE_FILTER")]),
        vector_index("some", projection={"ProjectionType": "INCLUDE", "NonKeyAttributes": ["label"]})],
        {"t": "S", "f": "S"}))
    client.put_item(TableName="Projected", Item={"pk": {"S": "a"}, "t": {"S": "x"}, "f": {"S": "y"},
                                                 "label": {"S": "l"},
                                                 "extra": {"S": "o"}, "embedding": vec(1, 2, 3)})
    keys = client.search_vectors(TableName="Projected", IndexName="keys", SearchVector=V3, TopK=1,
                                 SearchConditionExpression="t = :t AND f = :f",
                                 ExpressionAttributeValues={":t": {"S": "x"}, ":f": {"S": "y"}})["SearchResults"]
    assert keys[0]["Item"] == {"pk": {"S": "a"}, "t": {"S": "x"}, "f": {"S": "y"}}
    some = client.search_vectors(TableName="Projected", IndexName="some", SearchVector=V3, TopK=1,
                                 ProjectionExpression="pk, extra, embedding")["SearchResults"]
    assert set(some[0]["Item"]) == {"pk", "embedding"}  # (extra is not held: silently left out)
    filtered = client.search_vectors(TableName="Projected", IndexName="keys", SearchVector=V3, TopK=1,
                                     SearchConditionExpression="t = :t AND f = :f",
                                     ExpressionAttributeValues={":t": {"S": "x"}, ":f": {"S": "z"}})
    assert filtered["SearchResults"] == []


@pytest.fixture
def vp(client):
    client.create_table(**table("VPtable", [vector_index("vidx")], {"g": "S"}, GlobalSecondaryIndexes=[{
        "IndexName": "gidx", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
        "Projection": {"ProjectionType": "ALL"}}]))
    client.put_item(TableName="VPtable", Item={"pk": {"S": "a"}, "g": {"S": "g"}, "embedding": vec(1, 0, 0)})
    return client


QUERY = {"TableName": "VPtable", "KeyConditionExpression": "pk = :v", "ExpressionAttributeValues": {":v": {"S": "a"}}}


@pytest.mark.parametrize("call, message", [  # §12 cases 41-42
    (lambda c: c.query(**QUERY, IndexName="vidx"), "Query operation not supported on this index type."),
    (lambda c: c.query(**QUERY, IndexName="vidx", ConsistentRead=True),
     "Consistent reads are not supported on global secondary indexes"),
    (lambda c: c.query(TableName="VPtable", IndexName="vidx"),
     "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request."),
    (lambda c: c.scan(TableName="VPtable", IndexName="vidx"), "Scan operation not supported on this index type"),
    (lambda c: c.scan(TableName="VPtable", IndexName="vidx", ConsistentRead=True),
     "Scan operation not supported on this index type"),
    (lambda c: c.scan(TableName="VPtable", IndexName="nosuchindex"),
     "The table does not have the specified index: nosuchindex"),
])
def test_query_and_scan_refuse_a_vector_index(vp, call, message):
    assert error_of(lambda: call(vp)) == ("ValidationException", message)


def test_the_table_and_its_gsi_read_as_ever_and_partiql_refuses_the_index(vp):
    """§12 cases 42-43."""
    assert vp.query(**QUERY)["Count"] == 1 and vp.scan(TableName="VPtable", IndexName="gidx")["Count"] == 1
    statement = vp.execute_statement
    assert error_of(lambda: statement(Statement='SELECT * FROM "VPtable"."vidx"')) == \
        ("ValidationException", "Scan operation not supported on this index type")
    items = statement(Statement="SELECT * FROM \"VPtable\" WHERE pk = 'a'")["Items"]
    assert items[0]["embedding"] == vec(1, 0, 0)


def test_the_library_searches_with_python_values():
    connection = partiql.connect()
    client = partiql.client(connection)
    client.create_table(**VS)
    for pk, numbers in (("a", (1, 0, 0)), ("b", (0, 1, 0)), ("d", (0.6, 0.8, 0))):
        client.put_item(TableName="VStable", Item={"pk": {"S": pk}, "embedding": vec(*numbers),
                                                   "label": {"S": f"item-{pk}"}})
    results, examined = connection.search("VStable", "cosine", [1.0, 0.1, 0], top=2, project=["pk"])
    assert [r["pk"] for r in results] == ["a", "d"] and set(results[0]) == {"score", "pk"} and examined == 1024
    results, _ = connection.search("VStable", "dot", like="b", top=1)
    assert results[0]["pk"] == "b" and results[0]["label"] == "item-b"
    with pytest.raises(ValueError, match="no item of VStable has the key 'zz' and a embedding"):
        connection.search("VStable", "dot", like="zz")
    connection.close()
