"""CreateTable's VectorIndexes and UpdateTable's VectorIndexUpdates (vector-search.md §2): every message of
§2.3 and §2.4 a row; DescribeTable (§2.5); a file keeps them."""

from __future__ import annotations

import pytest

import partiql

from .conftest import VE, error_of, table, vec, vector_index

INVALID = "One or more parameter values were invalid: "
V = vector_index("vix")

# (request, code, message) — §12 cases 11-15 and the rest of §2.3's table
CREATE_ROWS = [
    pytest.param(dict(table("VEtable", [V]), BillingMode="PROVISIONED",
                      ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}),
                 INVALID + "Vector indexes are only supported for PAY_PER_REQUEST tables", id="11 provisioned"),
    pytest.param(table("VEtable", [vector_index("vix", schema=[("tenant", "HASH")])]),
                 INVALID + "One element in SearchSchema is not defined in attribute definitions", id="12 schema"),
    pytest.param(table("VEtable", [vector_index("vix", dimensions=4097)]),
                 INVALID + "Number of dimensions must be between 1 and 4096 inclusive.", id="13 4097"),
    pytest.param(table("VEtable", [vector_index(f"vix-{n}") for n in range(6)]),
                 INVALID + "VectorIndex count exceeds the per-table limit of 5", id="14 six"),
    pytest.param(table("VEtable", [vector_index("vix"), vector_index("vix2", dimensions=4)]),
                 INVALID + "Conflicting attribute definition for 'embedding'. All VectorIndexes on the same vector "
                 "attribute must use the same dimensions.", id="15 dimensions"),
    pytest.param(table("VEtable", [vector_index("vix", dimensions=0)]),
                 "1 validation error detected: Value '0' at 'vectorIndexes.1.member.dimensions' failed to satisfy "
                 "constraint: Member must have value greater than or equal to 1", id="0 dimensions"),
    pytest.param(table("VEtable", []), INVALID + "List of VectorIndexes is empty", id="empty list"),
    pytest.param(table("VEtable", [V], {"embedding": "S"}),
                 INVALID + "Conflicting attribute definition for 'embedding'. An attribute cannot be defined in "
                 "AttributeDefinitions when used as a VectorAttribute.", id="vector defined"),
    pytest.param(table("VEtable", [vector_index("vix", schema=[("a", "HASH"), ("b", "HASH")])], {"a": "S", "b": "S"}),
                 INVALID + "Value '2' at 'SearchSchema' failed to satisfy constraint: Member must have HASH count "
                 "less than or equal to 1", id="two HASH"),
    pytest.param(table("VEtable", [vector_index("vix", schema=[("a", "HASH"), ("a", "INLINE_FILTER")])], {"a": "S"}),
                 INVALID + "SearchSchema contains a duplicate AttributeName", id="schema duplicate"),
    pytest.param(table("VEtable", [vector_index("vix"), vector_index("vix")]),
                 INVALID + "Duplicate index name: vix", id="duplicate name"),
    pytest.param(table("VEtable", [V], {"g": "S"}, GlobalSecondaryIndexes=[{
        "IndexName": "vix", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
        "Projection": {"ProjectionType": "ALL"}}]), INVALID + "Duplicate index name: vix", id="name of a GSI"),
    pytest.param(table("VEtable", [vector_index("vix", distance="cosine")]),
                 "1 validation error detected: Value 'cosine' at 'vectorIndexes.1.member.distanceFunction' failed to "
                 "satisfy constraint: Member must satisfy enum value set: [COSINE, DOT_PRODUCT, EUCLIDEAN]",
                 id="enum"),
    pytest.param(table("VEtable", [vector_index("vi")]),
                 "1 validation error detected: Value 'vi' at 'vectorIndexes.1.member.indexName' failed to satisfy "
                 "constraint: Member must have length greater than or equal to 3", id="short name"),
    pytest.param(table("VEtable", [dict(V, SearchSchema=[])]),
                 "1 validation error detected: Value '[]' at 'vectorIndexes.1.member.searchSchema' failed to "
                 "satisfy constraint: Member must have length greater than or equal to 1", id="empty schema"),
    pytest.param(table("VEtable", [vector_index("vix", schema=[(f"f{n}", "INLINE_FILTER") for n in range(19)])],
                       {f"f{n}": "S" for n in range(19)}),
                 INVALID + "Number of INLINE_FILTER elements in SearchSchema exceeds the limit of 18", id="19 filters"),
    pytest.param(table("VEtable", [vector_index("vix", projection={
        "ProjectionType": "INCLUDE", "NonKeyAttributes": [f"a{n}" for n in range(20)]})]),
                 INVALID + "Number of projected attributes in vector index vix exceeds the limit of 20",
                 id="21 projected"),
    pytest.param(table("VEtable", [{k: v for k, v in V.items() if k != "Dimensions"}]),
                 "1 validation error detected: Value null at 'vectorIndexes.1.member.dimensions' failed to satisfy "
                 "constraint: Member must not be null", id="a required member missing"),
    pytest.param(table("VEtable", [V], {"unused": "S"}),
                 INVALID + "Some AttributeDefinitions are not used. AttributeDefinitions: [pk, unused], keys used: "
                 "[pk]", id="definition unused"),
]


@pytest.mark.parametrize("request_, message", CREATE_ROWS)
def test_create_table_refuses_as_dynamodb_does(client, request_, message):
    assert error_of(lambda: client.create_table(**request_)) == ("ValidationException", message)
    assert client.list_tables()["TableNames"] == []


@pytest.mark.parametrize("request_", [
    pytest.param(table("VEtable", [vector_index("vix", dimensions=4096)]), id="4096 dimensions"),
    pytest.param(table("VEtable", [vector_index("vix", projection={
        "ProjectionType": "INCLUDE", "NonKeyAttributes": [f"a{n}" for n in range(19)]})]), id="19 + the vector"),
    pytest.param(table("VEtable", [vector_index("vix"), vector_index("same")]), id="same attribute twice"),
    pytest.param(table("VEtable", [vector_index("vix", schema=[(f"f{n}", "INLINE_FILTER") for n in range(18)])],
                       {f"f{n}": "S" for n in range(18)}), id="18 filters"),
])
def test_create_table_accepts_the_limits(client, request_):
    described = client.create_table(**request_)["TableDescription"]
    statuses = [index["IndexStatus"] for index in described["VectorIndexes"]]
    assert statuses == ["CREATING"] * len(request_["VectorIndexes"])


def test_describe_table_lists_them_as_created(ve):
    described = ve.describe_table(TableName="VEtable")["Table"]
    plain, schema = described["VectorIndexes"]
    assert plain == {"IndexName": "plain", "VectorAttribute": {"AttributeName": "embedding"}, "Dimensions": 3,
                     "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "ALL"}, "IndexStatus": "ACTIVE",
                     "IndexSizeBytes": 0, "ItemCount": 0,
                     "IndexArn": described["TableArn"] + "/index/plain"}  # §12 case 40: no Backfilling, no schema
    assert schema["SearchSchema"] == [{"AttributeName": "tenant", "SearchSchemaElementType": "HASH"},
                                      {"AttributeName": "category", "SearchSchemaElementType": "INLINE_FILTER"}]
    ve.put_item(TableName="VEtable", Item={"pk": {"S": "a"}, "tenant": {"S": "t1"}, "embedding": vec(1, 0, 0)})
    ve.put_item(TableName="VEtable", Item={"pk": {"S": "b"}, "embedding": vec(0, 1, 0)})  # (no tenant: not in schema)
    counts = {i["IndexName"]: i["ItemCount"] for i in ve.describe_table(TableName="VEtable")["Table"]["VectorIndexes"]}
    assert counts == {"plain": 2, "schema": 1}


def _create(name="vix2", **more) -> dict:
    return {"Create": dict(vector_index(name), **more)}


# (request members, exception, message) — §2.4
UPDATE_ROWS = [
    pytest.param({"VectorIndexUpdates": [_create(), _create("vix3")]}, "LimitExceededException",
                 "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table",
                 id="two actions"),
    pytest.param({"VectorIndexUpdates": [_create()], "GlobalSecondaryIndexUpdates": [
        {"Delete": {"IndexName": "nope"}}]}, "LimitExceededException",
                 "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table",
                 id="with a GSI update"),
    pytest.param({"VectorIndexUpdates": []}, "ValidationException",
                 "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates "
                 "or SSESpecification or ReplicaUpdates is required", id="empty"),
    pytest.param({"VectorIndexUpdates": [{}]}, "ValidationException",
                 INVALID + "One of VectorIndexUpdate.Create, VectorIndexUpdate.Delete must not be null", id="neither"),
    pytest.param({"VectorIndexUpdates": [_create("plain")]}, "ValidationException",
                 "Attempting to create an index which already exists", id="existing name"),
    pytest.param({"VectorIndexUpdates": [{"Delete": {"IndexName": "nope"}}]}, "ResourceNotFoundException",
                 "Requested resource not found: Index nope for table VEtable", id="delete unknown"),
    pytest.param({"BillingMode": "PROVISIONED", "ProvisionedThroughput": {"ReadCapacityUnits": 1,
                                                                          "WriteCapacityUnits": 1}},
                 "ValidationException", INVALID + "Tables with vector indexes must be in PAY_PER_REQUEST mode",
                 id="provisioned"),
    pytest.param({"AttributeDefinitions": [{"AttributeName": "g", "AttributeType": "S"}],
                  "GlobalSecondaryIndexUpdates": [{"Create": {
                      "IndexName": "plain", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                      "Projection": {"ProjectionType": "ALL"}}}]}, "ValidationException",
                 "Attempting to create an index which already exists", id="GSI named like it"),
    pytest.param({"AttributeDefinitions": [{"AttributeName": "embedding", "AttributeType": "S"}],
                  "GlobalSecondaryIndexUpdates": [{"Create": {
                      "IndexName": "byv", "KeySchema": [{"AttributeName": "embedding", "KeyType": "HASH"}],
                      "Projection": {"ProjectionType": "ALL"}}}]}, "ValidationException",
                 INVALID + "Attributes cannot be redefined. Please check that your attribute has the same type as "
                 "previously defined. Existing schema: VectorIndexSchema:[VectorAttribute: key{embedding:L:3}] New "
                 "schema: Schema:[SchemaElement: key{embedding:S:HASH}]", id="GSI on the vector"),
    pytest.param({"VectorIndexUpdates": [_create(Dimensions=4)]}, "ValidationException",
                 INVALID + "Conflicting attribute definition for 'embedding'. All VectorIndexes on the same vector "
                 "attribute must use the same dimensions.", id="create breaking a rule"),
]


@pytest.mark.parametrize("members, code, message", UPDATE_ROWS)
def test_update_table_refuses_as_dynamodb_does(ve, members, code, message):
    before = ve.describe_table(TableName="VEtable")["Table"]["VectorIndexes"]
    assert error_of(lambda: ve.update_table(TableName="VEtable", **members)) == (code, message)
    assert ve.describe_table(TableName="VEtable")["Table"]["VectorIndexes"] == before


def test_an_index_added_later_backfills_and_a_deleted_one_goes(ve):
    for n in range(5):  # §12 cases 36-39, under instant index timing
        ve.put_item(TableName="VEtable", Item={"pk": {"S": f"item-{n}"}, "embedding": vec(n, 1, 0)})
    answer = ve.update_table(TableName="VEtable", AttributeDefinitions=[{"AttributeName": "g", "AttributeType": "S"}],
                             VectorIndexUpdates=[_create("vix", SearchSchema=[
                                 {"AttributeName": "g", "SearchSchemaElementType": "INLINE_FILTER"}])])
    described = answer["TableDescription"]
    assert described["TableStatus"] == "UPDATING"
    assert [(i["IndexName"], i["IndexStatus"], i.get("Backfilling")) for i in described["VectorIndexes"]] == \
        [("plain", "ACTIVE", None), ("schema", "ACTIVE", None), ("vix", "CREATING", False)]
    found = ve.search_vectors(TableName="VEtable", IndexName="vix", SearchVector=[{"N": "1"}, {"N": "1"}, {"N": "0"}],
                              TopK=5)["SearchResults"]
    assert sorted(r["Item"]["pk"]["S"] for r in found) == [f"item-{n}" for n in range(5)]
    assert {"AttributeName": "g", "AttributeType": "S"} in ve.describe_table(TableName="VEtable")["Table"][
        "AttributeDefinitions"]
    gone = ve.update_table(TableName="VEtable", VectorIndexUpdates=[{"Delete": {"IndexName": "vix"}}])
    assert [(i["IndexName"], i["IndexStatus"]) for i in gone["TableDescription"]["VectorIndexes"]][-1] == \
        ("vix", "DELETING")
    assert [i["IndexName"] for i in ve.describe_table(TableName="VEtable")["Table"]["VectorIndexes"]] == \
        ["plain", "schema"]
    assert error_of(lambda: ve.search_vectors(TableName="VEtable", IndexName="vix", SearchVector=[{"N": "1"}] * 3,
                                              TopK=1)) == ("ValidationException",
                                                           "The table does not have the specified index: vix")


def test_a_file_keeps_its_vector_indexes(tmp_path):
    path = str(tmp_path / "v.db")
    with partiql.connect(path) as db:
        client = partiql.client(db)
        client.create_table(**VE)
        client.put_item(TableName="VEtable", Item={"pk": {"S": "a"}, "tenant": {"S": "t"}, "embedding": vec(1, 2, 3)})
        described = client.describe_table(TableName="VEtable")["Table"]["VectorIndexes"]
    with partiql.connect(path) as db:
        client = partiql.client(db)
        assert client.describe_table(TableName="VEtable")["Table"]["VectorIndexes"] == described
        found = client.search_vectors(TableName="VEtable", IndexName="schema", SearchVector=[{"N": "1"}] * 3, TopK=1,
                                      SearchConditionExpression="tenant = :t",
                                      ExpressionAttributeValues={":t": {"S": "t"}})["SearchResults"]
        assert [r["Item"]["pk"]["S"] for r in found] == ["a"]
