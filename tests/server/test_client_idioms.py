"""boto3's idioms on partiql.client (issue #13 point 9): each call made twice, through the in-process client
and through real boto3 against ``partiql serve`` on the same data, and the answers compared."""

from __future__ import annotations

import subprocess
import sys

import pytest
from botocore.exceptions import OperationNotPageableError, WaiterError

import partiql
from partiql.server import Server

from .conftest import boto3_client

BLOB_TABLE = {"TableName": "Blobs", "BillingMode": "PAY_PER_REQUEST",
              "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
              "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                       {"AttributeName": "sk", "AttributeType": "B"}]}
VALUES = [
    {"B": b"\x00\xffraw"},
    {"B": bytearray(b"\x01\x02")},
    {"B": "text"},  # boto3 sends a str as its UTF-8 bytes
    {"BS": [b"a", b"\x00b"]},
    {"M": {"inner": {"B": b"\x10"}, "list": {"L": [{"B": b"\x11"}, {"S": "s"}]}}},
]


@pytest.fixture(scope="module")
def pair():
    """(in-process client, boto3 over the wire), each on its own database with the same tables and items."""
    local_db, served_db = partiql.connect(), partiql.connect()
    local = partiql.client(local_db)
    with Server(served_db, port=0) as server:
        remote = boto3_client(server.url)
        for client in (local, remote):
            client.create_table(**BLOB_TABLE)
            for i in range(10):
                client.put_item(TableName="Blobs", Item={"pk": {"S": "p"}, "sk": {"B": bytes([i, 0, 255])},
                                                          "n": {"N": str(i)}})
            for name in ("Alpha", "Beta", "Gamma"):
                client.create_table(**{**BLOB_TABLE, "TableName": name})
        yield local, remote
    local_db.close()
    served_db.close()


def _same(pair, call):
    local, remote = pair
    found, expected = call(local), call(remote)
    for answer in (found, expected):
        for part in (answer if isinstance(answer, tuple) else (answer,)):
            if isinstance(part, dict):
                part.pop("ResponseMetadata", None)
    assert found == expected
    return found


@pytest.mark.parametrize("value", VALUES, ids=["bytes", "bytearray", "str", "set", "nested"])
def test_binary_values_go_in_and_come_back_as_boto3_does(pair, value):
    def roundtrip(client):
        client.put_item(TableName="Blobs", Item={"pk": {"S": "v"}, "sk": {"B": b"k"}, "v": value})
        return client.get_item(TableName="Blobs", Key={"pk": {"S": "v"}, "sk": {"B": b"k"}})
    item = _same(pair, roundtrip)["Item"]
    assert isinstance(item["sk"]["B"], bytes)


def test_a_binary_sort_key_pages_and_an_error_echoes_bytes(pair):
    def page(client):
        first = client.query(TableName="Blobs", KeyConditionExpression="pk = :p",
                             ExpressionAttributeValues={":p": {"S": "p"}}, Limit=4)
        return first, client.query(TableName="Blobs", KeyConditionExpression="pk = :p",
                                   ExpressionAttributeValues={":p": {"S": "p"}}, Limit=4,
                                   ExclusiveStartKey=first["LastEvaluatedKey"])
    first, second = _same(pair, page)
    assert first["LastEvaluatedKey"]["sk"] == {"B": bytes([3, 0, 255])}

    def failed(client):
        with pytest.raises(client.exceptions.ConditionalCheckFailedException) as caught:
            client.put_item(TableName="Blobs", Item={"pk": {"S": "p"}, "sk": {"B": bytes([1, 0, 255])}},
                            ConditionExpression="attribute_not_exists(pk)", ReturnValuesOnConditionCheckFailure="ALL_OLD")
        return caught.value.response["Item"]
    assert _same(pair, failed)["sk"] == {"B": bytes([1, 0, 255])}


def test_partiql_parameters_and_results_carry_bytes(pair):
    found = _same(pair, lambda client: client.execute_statement(
        Statement="SELECT sk FROM Blobs WHERE pk = ? AND sk = ?", Parameters=[{"S": "p"}, {"B": bytes([2, 0, 255])}]))
    assert found["Items"] == [{"sk": {"B": bytes([2, 0, 255])}}]


@pytest.mark.parametrize("config", [{}, {"PageSize": 3}, {"PageSize": 3, "MaxItems": 7}, {"MaxItems": 5}],
                         ids=["whole", "pages-of-3", "max-7", "max-5"])
def test_query_and_scan_paginators_page_as_boto3s(pair, config):
    def pages(client):
        paginator = client.get_paginator("query")
        return [{k: v for k, v in page.items() if k != "ResponseMetadata"} for page in paginator.paginate(
            TableName="Blobs", KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "p"}},
            PaginationConfig=config)]
    assert len(_same(pair, pages)) >= 1

    def full(client):
        result = client.get_paginator("scan").paginate(TableName="Blobs", PaginationConfig=config).build_full_result()
        result.pop("ResponseMetadata", None)
        return result
    found = _same(pair, full)
    if "MaxItems" in config:
        assert len(found["Items"]) == config["MaxItems"] and "NextToken" in found

        def resumed(client):
            return client.get_paginator("scan").paginate(TableName="Blobs", PaginationConfig={
                "StartingToken": found["NextToken"]}).build_full_result()["Items"]
        assert len(_same(pair, resumed)) == 11 - config["MaxItems"]  # ten items and the one the test added


def test_list_tables_paginator(pair):
    names = _same(pair, lambda c: c.get_paginator("list_tables").paginate(
        PaginationConfig={"PageSize": 2}).build_full_result()["TableNames"])
    assert names == ["Alpha", "Beta", "Blobs", "Gamma"]


def test_waiters_as_boto3s(pair):
    local, _ = pair
    assert set(local.waiter_names) >= {"table_exists", "table_not_exists", "contributor_insights_enabled"}
    fast = {"Delay": 0, "MaxAttempts": 2}  # botocore sleeps Delay seconds between attempts: none here
    for client in pair:
        assert client.get_waiter("table_exists").wait(TableName="Blobs", WaiterConfig=fast) is None
        assert client.get_waiter("table_not_exists").wait(TableName="Nope", WaiterConfig=fast) is None
        with pytest.raises(WaiterError) as caught:
            client.get_waiter("table_exists").wait(TableName="Nope", WaiterConfig=fast)
        assert "Max attempts exceeded" in str(caught.value)
        client.update_contributor_insights(TableName="Alpha", ContributorInsightsAction="ENABLE")
        client.get_waiter("contributor_insights_enabled").wait(TableName="Alpha", WaiterConfig=fast)


def test_what_boto3_refuses_is_refused(pair):
    local, _ = pair
    assert local.can_paginate("query") and not local.can_paginate("get_item")
    with pytest.raises(OperationNotPageableError):
        local.get_paginator("get_item")
    with pytest.raises(ValueError, match="Waiter does not exist: table_ready"):
        local.get_waiter("table_ready")


def test_the_client_loads_botocore_only_for_a_paginator_or_waiter():
    code = ("import sys, partiql; c = partiql.client(partiql.connect()); a = 'botocore' in sys.modules; "
            "c.get_paginator('scan'); print(a, 'botocore' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["False", "True"], done.stderr
