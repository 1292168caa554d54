"""Writes to a table with vector indexes (vector-search.md §4, §6.2-§6.3): the refusals of §4.2, sparse
membership (§4.3), the vector billed at 4 bytes a dimension (§4.4), VectorWriteRequestBytes (§12 cases 23-35)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from .conftest import error_of, search_vector, table, vec, vector_index

WRITE = "One or more parameter values were invalid. "
# §12 case 9 and §4.2's table: (item beyond pk, message)
REFUSED = [
    pytest.param({"tenant": {"S": "t1"}, "embedding": vec(1, 0)},
                 WRITE + "Invalid size for parameter embedding, Expected: 3, Actual: 2 IndexName: plain", id="size"),
    pytest.param({"embedding": {"L": [{"N": "1"}, {"S": "oops"}, {"N": "0"}]}},
                 WRITE + "Invalid type for parameter embedding[1], Expected: 32-bit floating point number, Actual: S. "
                 "IndexName: plain", id="element"),
    pytest.param({"embedding": {"S": "not-a-vector"}},
                 WRITE + "Invalid type for parameter embedding, Expected: 32-bit floating point number list "
                 "IndexName: plain", id="not a list"),
    pytest.param({"embedding": {"NS": ["1", "2", "3"]}},
                 WRITE + "Invalid type for parameter embedding, Expected: 32-bit floating point number list "
                 "IndexName: plain", id="a number set"),
    pytest.param({"tenant": {"S": ""}, "embedding": vec(0, 0, 1)},
                 "One or more parameter values are not valid. A value specified for a secondary index key is not "
                 "supported. The AttributeValue for a key attribute cannot contain an empty string value. IndexName: "
                 "schema, IndexKey: tenant", id="empty HASH"),
    pytest.param({"embedding": vec("1e39", 0, 0)},
                 WRITE + f"Invalid value for parameter embedding[0], Value: {10 ** 39} is outside valid range "
                 "[-3.4028235E38, 3.4028235E38]. IndexName: plain", id="beyond f32"),  # (the number as stored: model)
    pytest.param({"tenant": {"N": "5"}, "embedding": vec(0, 0, 1)},
                 WRITE + "Attribute 'tenant' type mismatch. Expected: S, Actual: N. IndexName: schema", id="HASH type"),
    pytest.param({"category": {"N": "5"}},
                 WRITE + "Attribute 'category' type mismatch. Expected: S, Actual: N. IndexName: schema",
                 id="filter type"),
]


def test_an_update_emptying_the_hash_attribute_says_so_in_the_updates_words(ve):
    ve.put_item(TableName="VEtable", Item={"pk": {"S": "u"}, "tenant": {"S": "t"}, "embedding": vec(1, 0, 0)})
    assert error_of(lambda: ve.update_item(TableName="VEtable", Key={"pk": {"S": "u"}},
                                           UpdateExpression="SET tenant = :e",
                                           ExpressionAttributeValues={":e": {"S": ""}})) == (
        "ValidationException", "One or more parameter values are not valid. The update expression attempted to update "
        "a secondary index key to a value that is not supported. The AttributeValue for a key attribute cannot "
        "contain an empty string value.")


@pytest.mark.parametrize("attributes, message", REFUSED)
def test_a_write_the_index_cannot_hold_is_refused_whole(ve, attributes, message):
    item = {"pk": {"S": "bad"}, **attributes}
    assert error_of(lambda: ve.put_item(TableName="VEtable", Item=item)) == ("ValidationException", message)
    assert error_of(lambda: ve.batch_write_item(RequestItems={"VEtable": [
        {"PutRequest": {"Item": {"pk": {"S": "fine"}}}}, {"PutRequest": {"Item": item}}]}))[1] == message
    assert ve.scan(TableName="VEtable")["Count"] == 0


def test_an_empty_filter_value_and_extra_precision_are_accepted(ve):
    ve.put_item(TableName="VEtable", Item={"pk": {"S": "ok"}, "tenant": {"S": "t"}, "category": {"S": ""},
                                           "embedding": vec("0.1000000000000000000001", "1e-50", 3)})
    kept = ve.get_item(TableName="VEtable", Key={"pk": {"S": "ok"}})["Item"]["embedding"]["L"]
    assert [Decimal(n["N"]) for n in kept] == [Decimal("0.1000000000000000000001"), Decimal("1e-50"), 3]  # every digit


def _found(client, index: str, **more) -> list:
    return [r["Item"]["pk"]["S"] for r in client.search_vectors(TableName="VEtable", IndexName=index,
                                                                 SearchVector=search_vector(1, 0, 0), TopK=10,
                                                                 **more)["SearchResults"]]


def test_membership_is_sparse(ve):
    """§12 case 10: without the HASH attribute an item is in ``plain`` only; REMOVE takes it out of both."""
    ve.put_item(TableName="VEtable", Item={"pk": {"S": "n"}, "embedding": vec(1, 0, 0)})
    ve.put_item(TableName="VEtable", Item={"pk": {"S": "h"}, "tenant": {"S": "t1"}, "embedding": vec(1, 0, 0)})
    tenant = {"SearchConditionExpression": "tenant = :t", "ExpressionAttributeValues": {":t": {"S": "t1"}}}
    assert _found(ve, "plain") == ["h", "n"] and _found(ve, "schema", **tenant) == ["h"]
    ve.update_item(TableName="VEtable", Key={"pk": {"S": "h"}}, UpdateExpression="REMOVE embedding")
    ve.delete_item(TableName="VEtable", Key={"pk": {"S": "n"}})
    assert _found(ve, "plain") == [] and _found(ve, "schema", **tenant) == []


VC = table("VCtable", [vector_index("vix"), vector_index("vkeys", projection={"ProjectionType": "KEYS_ONLY"}),
                       vector_index("vdims", "sixdimvec", 6), vector_index("vname", "embeddingWithALongerName")])
BLOB = {"S": "x" * 1500}
W = "12345678901234567890123456789012345678"


@pytest.fixture
def vc(client):
    client.create_table(**VC)
    return client


def _put(client, mode: str = "INDEXES", **attributes) -> dict:
    item = {name: value if isinstance(value, dict) else {"S": value} for name, value in attributes.items()}
    return client.put_item(TableName="VCtable", Item=item, ReturnConsumedCapacity=mode)["ConsumedCapacity"]


def _bytes(capacity: dict) -> dict:
    return {name: entry["VectorWriteRequestBytes"] for name, entry in capacity.get("VectorIndexes", {}).items()}


def test_the_write_bytes_of_each_index(vc):
    """§12 cases 23-32."""
    fresh = _put(vc, pk="fresh-write", embedding=vec(0, 1, 0))
    assert fresh["CapacityUnits"] == 1 and fresh["Table"] == {"CapacityUnits": 1.0}
    assert _bytes(fresh) == {"vix": 1024, "vkeys": 1024}                                    # 23 (and 28)
    assert _put(vc, "TOTAL", pk="total-write", embedding=vec(0, 0, 1)) == {"TableName": "VCtable",
                                                                           "CapacityUnits": 1.0}  # 24
    assert "VectorIndexes" not in _put(vc, pk="plain-write", label="no-vector")            # 25
    assert _bytes(_put(vc, pk="idempotent", embedding=vec(0.5, 0.5, 0))) == {"vix": 1024, "vkeys": 1024}
    assert "VectorIndexes" not in _put(vc, pk="idempotent", embedding=vec(0.5, 0.5, 0))    # 26
    _put(vc, pk="projection", embedding=vec(0.25, 0.5, 0.75), note="before")
    assert _bytes(_put(vc, pk="projection", embedding=vec(0.25, 0.5, 0.75), note="after!")) == {"vix": 1024}  # 27
    _put(vc, pk="projection", embedding=vec(0.25, 0.5, 0.75), note="settled")
    assert "VectorIndexes" not in _put(vc, pk="projection", embedding=vec(0.25, 0.5, 0.75), note="settled")
    assert _bytes(_put(vc, pk="3a", embedding=vec(1, 0, 0), blob=BLOB)) == {"vix": 1529, "vkeys": 1024}  # 29
    assert _bytes(_put(vc, pk="6b", sixdimvec=vec(1, 0, 0, 0, 1, 0), blob=BLOB)) == {"vdims": 1541}    # 30
    assert _bytes(_put(vc, pk="nc", embeddingWithALongerName=vec(1, 0, 0), blob=BLOB)) == {"vname": 1544}  # 31
    assert _bytes(_put(vc, pk="td", embedding=vec(1, 0, 0), blob=BLOB, note="n")) == {"vix": 1534, "vkeys": 1024}


@pytest.mark.parametrize("attribute, dimensions, pad, units", [
    ("embedding", 3, 996, 1), ("embedding", 3, 997, 2), ("sixdimvec", 6, 984, 1), ("sixdimvec", 6, 985, 2)])
def test_a_vector_is_billed_at_four_bytes_a_dimension(vc, attribute, dimensions, pad, units):
    """§12 case 33: whatever numbers the vector holds."""
    capacity = _put(vc, "TOTAL", pk="a3", **{attribute: vec(*[W] * dimensions)}, pad="x" * pad)
    assert capacity["CapacityUnits"] == units


def test_reads_and_the_item_limit_size_the_vector_by_its_numbers(vc):
    """§12 cases 34-35."""
    _put(vc, pk="r6", sixdimvec=vec(*[W] * 6), pad="x" * 4056)
    read = vc.get_item(TableName="VCtable", Key={"pk": {"S": "r6"}}, ConsistentRead=True,
                       ReturnConsumedCapacity="TOTAL")["ConsumedCapacity"]
    assert read["CapacityUnits"] == 2
    _put(vc, pk="g0", sixdimvec=vec(*[W] * 6), pad="x" * 409_455)
    assert error_of(lambda: _put(vc, pk="g1", sixdimvec=vec(*[W] * 6), pad="x" * 409_456)) == \
        ("ValidationException", "Item size has exceeded the maximum allowed size")


def test_table_size_counts_a_vector_at_four_bytes_a_dimension(vc):
    """§4.4 rule 2: TableSizeBytes follows the billed size, kept by every write (and counted again on reopen)."""
    _put(vc, pk="s1", embedding=vec(W, W, W), pad="x" * 10)
    _put(vc, pk="s2", sixdimvec=vec(*[W] * 6))
    _put(vc, pk="s3", other=vec(W, W, W))  # (no index reads "other": sized as the list it is)
    sizes = {"s1": 2 + 2 + (9 + 12) + 3 + 10, "s2": 2 + 2 + (9 + 24), "s3": 2 + 2 + 5 + 3 + 3 * 21}
    assert vc.describe_table(TableName="VCtable")["Table"]["TableSizeBytes"] == sum(sizes.values())
    vc.delete_item(TableName="VCtable", Key={"pk": {"S": "s1"}})
    assert vc.describe_table(TableName="VCtable")["Table"]["TableSizeBytes"] == sizes["s2"] + sizes["s3"]
