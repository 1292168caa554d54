"""Issue 37 point 4: data models in and out — NoSQL Workbench models and the AWS DynamoDB MCP server's
``dynamodb_data_model.json`` (design-time.md §3). The spec's two examples give the CreateTable request and
the patterns they must become; designs generated here round-trip through CreateTable requests: created,
exported as a Workbench model, read back, created again, described the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import partiql
from partiql.model_files import ModelError, read_model
from partiql.model_files.workbench import export
from partiql.schema import create_request

HERE = Path(__file__).parent
WORKBENCH = HERE.parent.parent / "examples" / "orders-model.json"
MCP, COSTS = HERE / "files" / "dynamodb_data_model.json", HERE / "files" / "costs.json"

# design-time.md §3.1: the Workbench example's CreateTable request, as the spec writes it
ORDERS_REQUEST = {
    "TableName": "Orders",
    "AttributeDefinitions": [{"AttributeName": "CustomerId", "AttributeType": "S"},
                             {"AttributeName": "OrderId", "AttributeType": "S"},
                             {"AttributeName": "OrderStatus", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "CustomerId", "KeyType": "HASH"}, {"AttributeName": "OrderId", "KeyType": "RANGE"}],
    "BillingMode": "PROVISIONED",
    "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
    "GlobalSecondaryIndexes": [{
        "IndexName": "ByStatus",
        "KeySchema": [{"AttributeName": "OrderStatus", "KeyType": "HASH"},
                      {"AttributeName": "OrderId", "KeyType": "RANGE"}],
        "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["Total"]},
        "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}}]}


def test_the_workbench_example_becomes_the_spec_s_create_table_request():
    model = read_model(WORKBENCH)
    assert model.kind == "NoSQL Workbench 3.0" and model.tables == [ORDERS_REQUEST]
    assert [(p.index, p.dimension, p.min, p.max, p.target) for p in model.policies] == [
        (None, "read", 1, 10, 70.0), ("ByStatus", "read", 1, 10, 70.0),
        (None, "write", 1, 10, 70.0), ("ByStatus", "write", 1, 10, 70.0)]
    assert [item["OrderId"]["S"] for item in model.items["Orders"]] == ["o#1001", "o#1002"]
    assert any(note.startswith("Orders: facet Order (keys as CustomerId, OrderId") for note in model.notes)


def test_the_mcp_example_becomes_tables_items_and_patterns_with_the_cost_input_s_rates():
    model = read_model(MCP, COSTS)
    assert model.tables == json.loads(MCP.read_text())["tables"]  # (create_table arguments, as they are)
    assert len(model.items["Orders"]) == 2
    one, two, three = model.patterns
    assert (one.name, one.operation, one.rate, one.params) == ("mcp-1", "Query", 50.0, ['{ item = "Orders.pk" }'])
    assert one.request["ExpressionAttributeValues"] == {":pk": "?"}
    assert (two.name, two.rate, two.request["IndexName"], two.params) == ("mcp-2", 5.0, "ByStatus",
                                                                        ['{ item = "Orders.status" }'])
    assert (three.operation, three.why) == (None, "served outside DynamoDB: served by OpenSearch")
    assert any(note.startswith("pattern 4 (Place an order): cost only") for note in model.notes)
    assert model.sizes == {"Orders": (1000000, 800), "Orders.ByStatus": (1000000, 60)}
    assert read_model(MCP).patterns[0].rate == 1.0  # (no cost input: 1 a second, said)


def _round_trip(requests: list, items: dict) -> list:
    """Create ``requests``, export them as a Workbench model, read it back and create it again: each table's
    CreateTable request as the second database describes it."""
    first = partiql.connect()
    for request in requests:
        first.control("CreateTable", request)
    document, _ = export([first.describe(r["TableName"]) for r in requests], items, "m")
    model = read_model_text(json.dumps(document))
    second = partiql.connect()
    for request in model.tables:
        second.control("CreateTable", request)
    assert model.items == {r["TableName"]: items.get(r["TableName"], []) for r in requests}
    return [_request(second, r["TableName"]) for r in requests], [_request(first, r["TableName"]) for r in requests]


def _request(db, table: str) -> dict:
    """The table's CreateTable request, its attribute definitions by name (their order means nothing)."""
    request = create_request(db.describe(table))
    request["AttributeDefinitions"] = sorted(request["AttributeDefinitions"], key=lambda d: d["AttributeName"])
    return request


def read_model_text(text: str, tmp=Path("/tmp")):
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, dir=tmp) as file:
        file.write(text)
    try:
        return read_model(file.name)
    finally:
        Path(file.name).unlink()


def test_both_examples_round_trip_through_create_table_requests():
    again, first = _round_trip([ORDERS_REQUEST], {"Orders": read_model(WORKBENCH).items["Orders"]})
    assert again == first
    again, first = _round_trip(read_model(MCP).tables, {})
    assert again == first


NAMES = st.sampled_from(["pk", "sk", "status", "day", "tenant", "score"])
TYPES = st.sampled_from(["S", "N", "B"])


@st.composite
def designs(draw):
    """A table as CreateTable takes it: a key of one or two attributes, up to three GSIs of any projection,
    on demand or provisioned."""
    names = draw(st.lists(NAMES, min_size=1, max_size=4, unique=True))
    types = {name: draw(TYPES) for name in names}
    keys = [{"AttributeName": names[0], "KeyType": "HASH"}]
    if len(names) > 1 and draw(st.booleans()):
        keys.append({"AttributeName": names[1], "KeyType": "RANGE"})
    provisioned = draw(st.booleans())
    units = {"ReadCapacityUnits": draw(st.integers(1, 50)), "WriteCapacityUnits": draw(st.integers(1, 50))}
    gsis = []
    for n in range(draw(st.integers(0, 3))):
        hash_name = draw(st.sampled_from(names))
        gsi_keys = [{"AttributeName": hash_name, "KeyType": "HASH"}]
        rest = [name for name in names if name != hash_name]
        if rest and draw(st.booleans()):
            gsi_keys.append({"AttributeName": draw(st.sampled_from(rest)), "KeyType": "RANGE"})
        kind = draw(st.sampled_from(["ALL", "KEYS_ONLY", "INCLUDE"]))
        projection = {"ProjectionType": kind}
        if kind == "INCLUDE":
            projection["NonKeyAttributes"] = draw(st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, unique=True))
        gsis.append({"IndexName": f"gsi{n}", "KeySchema": gsi_keys, "Projection": projection,
                     **({"ProvisionedThroughput": dict(units)} if provisioned else {})})
    used = {key["AttributeName"] for key in keys} | {k["AttributeName"] for g in gsis for k in g["KeySchema"]}
    request = {"TableName": "Designed", "KeySchema": keys, "BillingMode": "PROVISIONED" if provisioned else
               "PAY_PER_REQUEST", "AttributeDefinitions": [{"AttributeName": name, "AttributeType": types[name]}
                                                           for name in names if name in used]}
    if provisioned:
        request["ProvisionedThroughput"] = units
    if gsis:
        request["GlobalSecondaryIndexes"] = gsis
    return request


@settings(max_examples=60, deadline=None)
@given(designs())
def test_generated_designs_round_trip_through_a_workbench_model(request):
    if request.get("GlobalSecondaryIndexes") and request["BillingMode"] == "PROVISIONED":
        # (Workbench has one ProvisionedThroughput a table: its GSIs come back with the table's, so give them so)
        for gsi in request["GlobalSecondaryIndexes"]:
            gsi["ProvisionedThroughput"] = dict(request["ProvisionedThroughput"])
    again, first = _round_trip([request], {})
    assert again == first


def _workbench(**table) -> str:
    base = {"TableName": "Orders", "KeyAttributes": {"PartitionKey": {"AttributeName": "pk", "AttributeType": "S"}}}
    return json.dumps({"ModelName": "m", "DataModel": [dict(base, **table)]})


@pytest.mark.parametrize("text, words", [
    ("{", "not JSON: Expecting property name enclosed in double quotes at line 1 column 2"),
    ("[]", "not a data model: a NoSQL Workbench model has DataModel"),
    ('{"DataModel": {}}', "DataModel takes a list of tables"),
    ('{"DataModel": [{"KeyAttributes": {}}]}', "DataModel[0].TableName takes the table's name"),
    (_workbench(KeyAttributes={}), "DataModel[0] (Orders).KeyAttributes needs PartitionKey"),
    (_workbench(KeyAttributes={"PartitionKey": {"AttributeName": "pk", "AttributeType": "X"}}),
     "KeyAttributes.PartitionKey.AttributeType takes S, N or B, not \"X\""),
    (_workbench(GlobalSecondaryIndexes=[{"IndexName": "g", "KeyAttributes": {
        "PartitionKey": {"AttributeName": "pk", "AttributeType": "N"}}}]),
     "GlobalSecondaryIndexes[0].KeyAttributes.PartitionKey: pk is N here but S in another key of the table"),
    (_workbench(GlobalSecondaryIndexes=[{"IndexName": "g", "KeyAttributes": {
        "PartitionKey": {"AttributeName": "x", "AttributeType": "S"}}, "Projection": {"ProjectionType": "SOME"}}]),
     "GlobalSecondaryIndexes[0].Projection.ProjectionType takes ALL, KEYS_ONLY or INCLUDE"),
    (_workbench(BillingMode="FREE"), "(Orders).BillingMode takes PROVISIONED or PAY_PER_REQUEST, not \"FREE\""),
    (_workbench(BillingMode="PROVISIONED"), "ProvisionedCapacitySettings.ProvisionedThroughput takes"),
    (_workbench(BillingMode="PROVISIONED", ProvisionedCapacitySettings={"ProvisionedThroughput": {
        "ReadCapacityUnits": 0, "WriteCapacityUnits": 1}}), "ProvisionedThroughput.ReadCapacityUnits takes a whole"),
    (_workbench(BillingMode="PROVISIONED", ProvisionedCapacitySettings={
        "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1},
        "AutoScalingRead": {"ScalableTargetRequest": {"MinCapacity": 1, "MaxCapacity": 5},
                            "ScalingPolicyConfiguration": {"TargetValue": "70"}}}),
     "AutoScalingRead.ScalingPolicyConfiguration.TargetValue takes a percentage"),
    ('{"tables": [3]}', "tables[0] takes a create_table argument"),
    ('{"tables": [], "access_patterns": [{"pattern": "1", "implementation": "aws s3 ls"}]}',
     "access_patterns[0].implementation takes aws dynamodb get-item"),
    ('{"tables": [], "access_patterns": [{"pattern": "1", "implementation": "aws dynamodb query --x \'"}]}',
     "access_patterns[0].implementation: not one shell command (No closing quotation)"),
])
def test_an_invalid_model_is_named_with_its_place(tmp_path, text, words):
    path = tmp_path / "m.json"
    path.write_text(text)
    with pytest.raises(ModelError) as refused:
        read_model(path)
    assert str(refused.value).startswith(f"{path}: ") and words in str(refused.value)


def test_items_without_their_key_are_skipped_and_a_later_duplicate_replaces_an_earlier(tmp_path):
    path = tmp_path / "m.json"
    path.write_text(_workbench(TableData=[{"pk": {"S": "a"}, "n": {"N": "1"}}, {"x": {"S": "no key"}},
                                          {"pk": {"S": "a"}, "n": {"N": "2"}}]))
    model = read_model(path)
    assert model.items["Orders"] == [{"pk": {"S": "a"}, "n": {"N": "2"}}]
    assert any("TableData[1]: skipped, it lacks pk" in note for note in model.notes)
    assert any(note.startswith("Orders: no BillingMode: on demand") for note in model.notes)


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8)),
                    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(
                        ["DataModel", "TableName", "KeyAttributes", "PartitionKey", "SortKey", "AttributeName",
                         "AttributeType", "GlobalSecondaryIndexes", "IndexName", "Projection", "ProjectionType",
                         "BillingMode", "TableData", "TableFacets", "tables", "items", "access_patterns",
                         "implementation", "pattern", "PutRequest", "Item", "S"]), inner, max_size=4)),
                    max_leaves=16))
def test_any_json_is_a_model_or_a_clear_error(tmp_path_factory, document):
    path = tmp_path_factory.mktemp("m") / "m.json"
    path.write_text(json.dumps(document))
    try:
        read_model(path)
    except ModelError as error:
        assert str(error).startswith(str(path))
