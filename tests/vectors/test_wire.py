"""Vector indexes over the wire (vector-search.md §5.1): ``partiql serve`` answers SearchVectors on its ordinary
listener, as an SDK given an endpoint URL sends it. The installed botocore predates SearchVectors and the
VectorIndexes members (they need botocore ≥ 1.43.64): where it lacks them the requests go as raw JSON over a
real socket, and the boto3 test says why it is skipped."""

from __future__ import annotations

import json

import pytest

import partiql
from partiql.server import Server

from ..server.conftest import Raw
from .conftest import VE, search_vector, vec

@pytest.fixture(scope="module")
def served():
    db = partiql.connect()
    with Server(db, port=0) as running:
        yield running
    db.close()


def _post(server, operation: str, body: dict) -> tuple:
    """(status, JSON answer) of one raw request (the server tests' ``Raw``: signed, over a real socket)."""
    connection = Raw(server)
    try:
        status, _, answer = connection.post(f"DynamoDB_20120810.{operation}", body)
    finally:
        connection.close()
    return status, json.loads(answer or b"{}")


def test_search_vectors_over_a_socket(served):
    assert _post(served, "CreateTable", VE)[0] == 200
    for pk, tenant, numbers in (("a", "t1", (1, 0, 0)), ("b", "t1", (0, 1, 0)), ("c", "t2", (1, 0, 0))):
        assert _post(served, "PutItem", {"TableName": "VEtable", "Item": {
            "pk": {"S": pk}, "tenant": {"S": tenant}, "embedding": vec(*numbers)}})[0] == 200
    status, answer = _post(served, "SearchVectors", {
        "TableName": "VEtable", "IndexName": "schema", "SearchVector": search_vector(1, 0, 0), "TopK": 5,
        "SearchConditionExpression": "tenant = :t", "ExpressionAttributeValues": {":t": {"S": "t1"}},
        "ReturnConsumedCapacity": "TOTAL"})
    assert status == 200
    assert [(r["Item"]["pk"]["S"], r["Score"]) for r in answer["SearchResults"]] == [("a", 0.0), ("b", 1.0)]
    assert answer["ConsumedCapacity"] == {"VectorSearchRequestBytes": 1024.0}
    status, answer = _post(served, "SearchVectors", {"TableName": "VEtable", "IndexName": "plain",
                                                     "SearchVector": search_vector(1, 0, 0), "TopK": 101})
    assert status == 400 and answer["__type"].endswith("ValidationException")
    described = _post(served, "DescribeTable", {"TableName": "VEtable"})[1]["Table"]
    assert [i["ItemCount"] for i in described["VectorIndexes"]] == [3, 3] and "Partitions" not in described


def test_boto3_when_its_botocore_knows_the_operation(served):
    import boto3
    from botocore.config import Config

    client = boto3.client("dynamodb", endpoint_url=served.url, region_name="us-east-1", aws_access_key_id="local",
                          aws_secret_access_key="local", config=Config(retries={"max_attempts": 1}))
    if not hasattr(client, "search_vectors"):
        pytest.skip(f"botocore {client.meta.service_model.metadata.get('apiVersion')} of this machine has no "
                    "SearchVectors (it needs botocore >= 1.43.64): the raw-JSON test covers the wire")
    found = client.search_vectors(TableName="VEtable", IndexName="plain", SearchVector=search_vector(1, 0, 0), TopK=1)
    assert found["SearchResults"][0]["Item"]["pk"] in ({"S": "a"}, {"S": "c"})
