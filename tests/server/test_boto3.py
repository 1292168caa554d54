"""boto3 against a running server (port 0, in a thread): every operation, errors, pages, transactions, PartiQL."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

from .conftest import HASH_RANGE


@pytest.fixture(scope="module")
def table(client):
    client.create_table(TableName="Music", **HASH_RANGE)
    for i in range(25):
        client.put_item(TableName="Music", Item={"pk": {"S": "a"}, "sk": {"N": str(i)}, "v": {"S": f"v{i}"}})
    return "Music"


def error_of(call, **request) -> tuple[str, str]:
    with pytest.raises(ClientError) as error:
        call(**request)
    return error.value.response["Error"]["Code"], error.value.response["Error"]["Message"]


def test_item_operations(client, table):
    key = {"pk": {"S": "b"}, "sk": {"N": "1"}}
    assert client.put_item(TableName=table, Item={**key, "n": {"N": "1"}}, ReturnValues="ALL_OLD").get("Attributes") is None
    updated = client.update_item(TableName=table, Key=key, UpdateExpression="ADD n :one",
                                 ExpressionAttributeValues={":one": {"N": "1"}}, ReturnValues="UPDATED_NEW")
    assert updated["Attributes"] == {"n": {"N": "2"}}
    assert client.get_item(TableName=table, Key=key, ConsistentRead=True)["Item"]["n"] == {"N": "2"}
    assert client.delete_item(TableName=table, Key=key, ReturnValues="ALL_OLD")["Attributes"]["n"] == {"N": "2"}
    assert "Item" not in client.get_item(TableName=table, Key=key)


def test_query_and_scan_paginate(client, table):
    pages = client.get_paginator("query").paginate(
        TableName=table, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "a"}},
        PaginationConfig={"PageSize": 10})
    sizes_and_keys = [[int(item["sk"]["N"]) for item in page["Items"]] for page in pages]
    assert [key for page in sizes_and_keys for key in page] == list(range(25))
    assert [len(page) for page in sizes_and_keys][:3] == [10, 10, 5]
    scanned = [item for page in client.get_paginator("scan").paginate(TableName=table, Limit=7)
               for item in page["Items"]]
    assert sorted(int(item["sk"]["N"]) for item in scanned if item["pk"] == {"S": "a"}) == list(range(25))


def test_batches_and_transactions(client, table):
    client.batch_write_item(RequestItems={table: [
        {"PutRequest": {"Item": {"pk": {"S": "t"}, "sk": {"N": str(i)}}}} for i in range(3)]})
    got = client.batch_get_item(RequestItems={table: {"Keys": [{"pk": {"S": "t"}, "sk": {"N": str(i)}} for i in range(3)]}})
    assert len(got["Responses"][table]) == 3
    client.transact_write_items(TransactItems=[
        {"Put": {"TableName": table, "Item": {"pk": {"S": "t"}, "sk": {"N": "9"}}}},
        {"Delete": {"TableName": table, "Key": {"pk": {"S": "t"}, "sk": {"N": "0"}}}}])
    read = client.transact_get_items(TransactItems=[{"Get": {"TableName": table, "Key": {"pk": {"S": "t"}, "sk": {"N": n}}}}
                                                    for n in ("0", "9")])
    assert read["Responses"] == [{}, {"Item": {"pk": {"S": "t"}, "sk": {"N": "9"}}}]
    with pytest.raises(client.exceptions.TransactionCanceledException) as error:
        client.transact_write_items(TransactItems=[{"ConditionCheck": {
            "TableName": table, "Key": {"pk": {"S": "t"}, "sk": {"N": "9"}}, "ConditionExpression": "attribute_not_exists(pk)"}}])
    assert error.value.response["CancellationReasons"] == [
        {"Code": "ConditionalCheckFailed", "Message": "The conditional request failed"}]


def test_partiql(client, table):
    client.execute_statement(Statement=f"INSERT INTO {table} VALUE {{'pk': ?, 'sk': ?}}",
                             Parameters=[{"S": "q"}, {"N": "1"}])
    assert client.execute_statement(Statement=f"SELECT sk FROM {table} WHERE pk = 'q'")["Items"] == [{"sk": {"N": "1"}}]
    pages, token = [], None
    while True:
        page = client.execute_statement(Statement=f"SELECT sk FROM {table} WHERE pk = 'a'", Limit=10,
                                        **({"NextToken": token} if token else {}))
        pages.append(len(page["Items"]))
        token = page.get("NextToken")
        if token is None:
            break
    assert pages[:3] == [10, 10, 5] and sum(pages) == 25
    batch = client.batch_execute_statement(Statements=[
        {"Statement": f"INSERT INTO {table} VALUE {{'pk': 'q', 'sk': 2}}"},
        {"Statement": f"INSERT INTO {table} VALUE {{'pk': 'q', 'sk': 1}}"}])
    assert batch["Responses"][0] == {"TableName": table}
    assert batch["Responses"][1]["Error"]["Code"] == "DuplicateItem"
    assert client.execute_transaction(TransactStatements=[
        {"Statement": f"UPDATE {table} SET v = 'x' WHERE pk = 'q' AND sk = 1"}])["Responses"] == []
    code, message = error_of(client.execute_statement, Statement="SELEC 1")
    assert code == "ValidationException" and message.startswith("Statement wasn't well formed")


@pytest.mark.parametrize("operation, request_, code, message", [
    ("get_item", {"TableName": "Nope", "Key": {"pk": {"S": "a"}}}, "ResourceNotFoundException",
     "Requested resource not found"),
    ("describe_table", {"TableName": "Nope"}, "ResourceNotFoundException",
     "Requested resource not found: Table: Nope not found"),
    ("put_item", {"TableName": "Music", "Item": {"pk": {"S": "a"}, "sk": {"N": "1"}},
                  "ConditionExpression": "attribute_not_exists(pk)"}, "ConditionalCheckFailedException",
     "The conditional request failed"),
    ("query", {"TableName": "Music", "KeyConditionExpression": "sk = :s", "ExpressionAttributeValues": {":s": {"N": "1"}}},
     "ValidationException", "Query condition missed key schema element: pk"),
    ("execute_statement", {"Statement": "SELECT * FROM Nope"}, "ResourceNotFoundException", "Requested resource not found"),
    ("create_table", {"TableName": "Music", **HASH_RANGE}, "ResourceInUseException", "Table already exists: Music"),
], ids=["get-missing-table", "describe-missing", "condition", "query-key", "partiql-missing", "create-twice"])
def test_errors_arrive_as_client_errors(client, table, operation, request_, code, message):
    assert error_of(getattr(client, operation), **request_) == (code, message)


def test_control_plane(client, table, server):
    assert table in client.list_tables()["TableNames"]
    arn = client.describe_table(TableName=table)["Table"]["TableArn"]
    client.tag_resource(ResourceArn=arn, Tags=[{"Key": "team", "Value": "music"}])
    assert client.list_tags_of_resource(ResourceArn=arn)["Tags"] == [{"Key": "team", "Value": "music"}]
    client.untag_resource(ResourceArn=arn, TagKeys=["team"])
    assert client.list_tags_of_resource(ResourceArn=arn)["Tags"] == []
    assert client.update_time_to_live(TableName=table, TimeToLiveSpecification={"Enabled": True, "AttributeName": "exp"})[
        "TimeToLiveSpecification"] == {"Enabled": True, "AttributeName": "exp"}
    assert client.describe_time_to_live(TableName=table)["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "ENABLED", "AttributeName": "exp"}
    assert client.describe_limits()["TableMaxReadCapacityUnits"] == 40000
    assert client.describe_endpoints()["Endpoints"] == [{"Address": f"127.0.0.1:{server.port}",
                                                         "CachePeriodInMinutes": 1440}]
    assert client.describe_continuous_backups(TableName=table)["ContinuousBackupsDescription"][
        "PointInTimeRecoveryDescription"] == {"PointInTimeRecoveryStatus": "DISABLED"}
    client.create_table(TableName="Scratch", **HASH_RANGE)
    client.update_table(TableName="Scratch", BillingMode="PROVISIONED",
                        ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5})
    assert client.delete_table(TableName="Scratch")["TableDescription"]["TableName"] == "Scratch"


def test_a_multi_attribute_index_created_and_queried_page_by_page(client):
    """boto3 (its service model has the multi-attribute wording) creates a GSI on two HASH and two RANGE
    attributes and pages a Query on it with its paginator; a gap in the RANGE prefix is DynamoDB's error."""
    client.create_table(
        TableName="Orders", BillingMode="PAY_PER_REQUEST", KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": n, "AttributeType": t} for n, t in
                              (("id", "S"), ("tenant", "S"), ("region", "S"), ("status", "S"), ("at", "N"))],
        GlobalSecondaryIndexes=[{"IndexName": "ByTenantRegion", "Projection": {"ProjectionType": "ALL"}, "KeySchema": [
            {"AttributeName": "tenant", "KeyType": "HASH"}, {"AttributeName": "region", "KeyType": "HASH"},
            {"AttributeName": "status", "KeyType": "RANGE"}, {"AttributeName": "at", "KeyType": "RANGE"}]}])
    for n in range(7):
        client.put_item(TableName="Orders", Item={"id": {"S": f"o{n}"}, "tenant": {"S": "acme"}, "region": {"S": "eu"},
                                                  "status": {"S": "open" if n % 2 else "done"}, "at": {"N": str(100 - n)}})
    pages = client.get_paginator("query").paginate(
        TableName="Orders", IndexName="ByTenantRegion", Limit=2,
        KeyConditionExpression="tenant = :t AND #r = :r AND #s = :s AND #at > :at",
        ExpressionAttributeNames={"#r": "region", "#s": "status", "#at": "at"},
        ExpressionAttributeValues={":t": {"S": "acme"}, ":r": {"S": "eu"}, ":s": {"S": "open"}, ":at": {"N": "94"}})
    found = [item["id"]["S"] for page in pages for item in page["Items"]]
    assert found == ["o5", "o3", "o1"]  # (at 95, 97, 99)
    assert error_of(client.query, TableName="Orders", IndexName="ByTenantRegion",
                    KeyConditionExpression="tenant = :t AND #r = :r AND #at > :at",
                    ExpressionAttributeNames={"#r": "region", "#at": "at"},
                    ExpressionAttributeValues={":t": {"S": "acme"}, ":r": {"S": "eu"}, ":at": {"N": "1"}}) == (
        "ValidationException", "RANGE key attributes status must have equality conditions specified in the query "
                               "because a condition is present on key attribute at")
