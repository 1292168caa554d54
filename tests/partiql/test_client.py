"""The boto3-shaped client: wire dicts in and out, botocore-shaped errors."""

import subprocess
import sys

import pytest

import partiql
from partiql.boto_client import ClientError

MUSIC = dict(TableName="Music", BillingMode="PAY_PER_REQUEST",
             AttributeDefinitions=[{"AttributeName": "Artist", "AttributeType": "S"},
                                   {"AttributeName": "SongTitle", "AttributeType": "S"}],
             KeySchema=[{"AttributeName": "Artist", "KeyType": "HASH"},
                        {"AttributeName": "SongTitle", "KeyType": "RANGE"}])


@pytest.fixture
def ddb():
    client = partiql.client()
    client.create_table(**MUSIC)
    for title, year in (("Hi", "2024"), ("Ho", "2020")):
        client.put_item(TableName="Music", Item={"Artist": {"S": "Acme"}, "SongTitle": {"S": title},
                                                 "Year": {"N": year}})
    return client


def test_item_operations_speak_wire_json(ddb):
    got = ddb.get_item(TableName="Music", Key={"Artist": {"S": "Acme"}, "SongTitle": {"S": "Hi"}},
                       ReturnConsumedCapacity="TOTAL")
    assert got == {"Item": {"Artist": {"S": "Acme"}, "SongTitle": {"S": "Hi"}, "Year": {"N": "2024"}},
                   "ConsumedCapacity": {"TableName": "Music", "CapacityUnits": 0.5}}
    page = ddb.query(TableName="Music", KeyConditionExpression="Artist = :a",
                     ExpressionAttributeValues={":a": {"S": "Acme"}}, ScanIndexForward=False)
    assert [item["SongTitle"]["S"] for item in page["Items"]] == ["Ho", "Hi"]
    assert page["Count"] == 2 and page["ScannedCount"] == 2


def test_execute_statement_with_wire_parameters(ddb):
    response = ddb.execute_statement(Statement="SELECT SongTitle FROM Music WHERE Artist = ? AND SongTitle = ?",
                                     Parameters=[{"S": "Acme"}, {"S": "Ho"}], ReturnConsumedCapacity="INDEXES")
    assert response == {"Items": [{"SongTitle": {"S": "Ho"}}],
                        "ConsumedCapacity": {"TableName": "Music", "CapacityUnits": 0.5,
                                             "Table": {"CapacityUnits": 0.5}}}


def test_writes_return_empty_items(ddb):
    assert ddb.execute_statement(Statement="INSERT INTO Music VALUE {'Artist': 'B', 'SongTitle': 'C'}") == {"Items": []}


def test_errors_carry_code_and_message_like_botocore(ddb):
    with pytest.raises(ClientError) as caught:
        ddb.execute_statement(Statement="INSERT INTO Music VALUE {'Artist': 'Acme', 'SongTitle': 'Hi'}")
    error = caught.value
    assert error.response["Error"] == {"Code": "DuplicateItemException",
                                       "Message": "Duplicate primary key exists in table"}
    assert error.operation_name == "ExecuteStatement"
    assert isinstance(error, ddb.exceptions.DuplicateItemException)
    assert str(error) == ("An error occurred (DuplicateItemException) when calling the ExecuteStatement "
                          "operation: Duplicate primary key exists in table")


def test_condition_failure_returns_the_old_item_when_asked(ddb):
    with pytest.raises(ddb.exceptions.ConditionalCheckFailedException) as caught:
        ddb.put_item(TableName="Music", Item={"Artist": {"S": "Acme"}, "SongTitle": {"S": "Hi"}},
                     ConditionExpression="attribute_not_exists(Artist)",
                     ReturnValuesOnConditionCheckFailure="ALL_OLD")
    assert caught.value.response["Item"]["Year"] == {"N": "2024"}


def test_batch_execute_statement_reports_per_statement(ddb):
    response = ddb.batch_execute_statement(Statements=[
        {"Statement": "SELECT * FROM Music WHERE Artist = ? AND SongTitle = ?",
         "Parameters": [{"S": "Acme"}, {"S": "Hi"}]},
        {"Statement": "SELECT * FROM Music WHERE Artist = 'Nobody' AND SongTitle = 'x'"},
        {"Statement": "SELECT * FROM Nope WHERE Artist = 'a' AND SongTitle = 'b'"},
    ], ReturnConsumedCapacity="TOTAL")
    assert response["Responses"][0]["Item"]["Year"] == {"N": "2024"}
    assert response["Responses"][1] == {"TableName": "Music"}
    assert response["Responses"][2] == {"Error": {"Code": "ResourceNotFound",
                                                  "Message": "Requested resource not found"}}
    assert response["ConsumedCapacity"] == [{"TableName": "Music", "CapacityUnits": 1.0}]


def test_batch_honours_consistent_read_per_statement(ddb):
    statement = "SELECT * FROM Music WHERE Artist = 'Acme' AND SongTitle = 'Hi'"
    response = ddb.batch_execute_statement(Statements=[
        {"Statement": statement, "ConsistentRead": True},
        {"Statement": "SELECT * FROM Music WHERE Artist = 'Acme' AND SongTitle = 'Ho'"}],
        ReturnConsumedCapacity="TOTAL")
    assert response["ConsumedCapacity"] == [{"TableName": "Music", "CapacityUnits": 1.5}]


def test_transaction_cancellation_reasons(ddb):
    with pytest.raises(ddb.exceptions.TransactionCanceledException) as caught:
        ddb.execute_transaction(TransactStatements=[
            {"Statement": "EXISTS(SELECT * FROM Music WHERE Artist = 'Acme' AND SongTitle = 'Hi' AND \"Year\" = 1999)"},
            {"Statement": "UPDATE Music SET n = 1 WHERE Artist = 'Acme' AND SongTitle = 'Ho'"}])
    response = caught.value.response
    assert response["Error"]["Message"] == ("Transaction cancelled, please refer cancellation reasons for "
                                            "specific reasons [ConditionalCheckFailed, None]")
    assert response["CancellationReasons"] == [
        {"Code": "ConditionalCheckFailed", "Message": "The conditional request failed"}, {"Code": "None"}]


def test_transaction_reads_and_capacity(ddb):
    response = ddb.execute_transaction(TransactStatements=[
        {"Statement": "SELECT * FROM Music WHERE Artist = ? AND SongTitle = ?",
         "Parameters": [{"S": "Acme"}, {"S": "Hi"}]},
        {"Statement": "SELECT * FROM Music WHERE Artist = 'Acme' AND SongTitle = 'zzz'"}],
        ReturnConsumedCapacity="TOTAL")
    assert response["Responses"][1] == {}
    assert response["Responses"][0]["Item"]["SongTitle"] == {"S": "Hi"}
    assert response["ConsumedCapacity"] == [{"TableName": "Music", "CapacityUnits": 4.0,
                                             "ReadCapacityUnits": 4.0}]


def test_boto3_serializers_round_trip_through_the_client(ddb):
    from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
    serialize, deserialize = TypeSerializer().serialize, TypeDeserializer().deserialize
    item = {"Artist": "Zed", "SongTitle": "Song", "Tags": {"a", "b"}, "Meta": {"n": 3, "ok": True}}
    ddb.put_item(TableName="Music", Item={k: serialize(v) for k, v in item.items()})
    got = ddb.get_item(TableName="Music", Key={"Artist": serialize("Zed"), "SongTitle": serialize("Song")})
    assert {k: deserialize(v) for k, v in got["Item"].items()} == item


def test_botocore_client_error_catches_ours_when_botocore_is_loaded_first():
    code = ("import botocore.exceptions, partiql\n"
            "c = partiql.client()\n"
            "try:\n"
            "    c.describe_table(TableName='Missing')\n"
            "except botocore.exceptions.ClientError as e:\n"
            "    print(e.response['Error']['Code'])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "ResourceNotFoundException"


def test_importing_partiql_imports_no_boto3_prompt_toolkit_pygments_or_mcp():
    code = ("import sys, partiql\n"
            "db = partiql.connect(); db.execute('SHOW TABLES'); partiql.client(db)\n"
            "print(sorted(m for m in ('boto3', 'botocore', 'prompt_toolkit', 'pygments', 'mcp', 'partiql.agent')"
            " if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


BIG_ROW = "INSERT INTO Music VALUE {'Artist': 'Big', 'SongTitle': 'Row', 'Blob': ?}"
NEW = "INSERT INTO Music VALUE {'Artist': 'New', 'SongTitle': 'One'}"  # 1 WCU (a batch is all reads or all writes)
# (statements, ReturnConsumedCapacity, expected ConsumedCapacity or None when absent)
FAILED_WRITE_CAPACITY = [
    pytest.param([NEW, "INSERT INTO Music VALUE {'Artist': 'Big', 'SongTitle': 'Row'}"], "TOTAL",
                 [{"TableName": "Music", "CapacityUnits": 4.0}], id="duplicate-insert-sized-on-the-existing-row"),
    pytest.param([NEW, "INSERT INTO Music VALUE {'Artist': 'Big', 'SongTitle': 'Row'}"], "INDEXES",
                 [{"TableName": "Music", "CapacityUnits": 4.0, "Table": {"CapacityUnits": 1.0}}],
                 id="in-the-total-in-no-arm"),
    pytest.param([NEW, "UPDATE Music SET x = 1 WHERE Artist = 'Nobody' AND SongTitle = 'x'"], "TOTAL",
                 [{"TableName": "Music", "CapacityUnits": 2.0}], id="absent-item-costs-one"),
    pytest.param(["DELETE FROM Music WHERE Artist = 'Acme' AND SongTitle = 'Hi' AND Year = 1"], "TOTAL",
                 None, id="nothing-succeeded-no-capacity"),
    pytest.param([NEW, "INSERT INTO Other VALUE {'Artist': 'Dup'}"], "TOTAL",
                 [{"TableName": "Music", "CapacityUnits": 1.0}], id="a-table-whose-statements-all-failed-is-omitted"),
]


@pytest.mark.parametrize("statements,mode,expected", FAILED_WRITE_CAPACITY)
def test_failed_batch_writes_add_to_their_tables_total(ddb, statements, mode, expected):
    ddb.create_table(**dict(MUSIC, TableName="Other", KeySchema=[{"AttributeName": "Artist", "KeyType": "HASH"}],
                            AttributeDefinitions=[{"AttributeName": "Artist", "AttributeType": "S"}]))
    ddb.execute_statement(Statement="INSERT INTO Other VALUE {'Artist': 'Dup'}")
    ddb.execute_statement(Statement=BIG_ROW, Parameters=[{"S": "x" * 3000}])  # a 3 KB row: W = 3
    response = ddb.batch_execute_statement(Statements=[{"Statement": s} for s in statements],
                                           ReturnConsumedCapacity=mode)
    assert "Error" in response["Responses"][-1]
    assert response.get("ConsumedCapacity") == expected


def test_a_failed_write_reports_no_capacity_on_its_own(ddb):
    ddb.execute_statement(Statement=BIG_ROW, Parameters=[{"S": "x" * 3000}])
    with pytest.raises(ddb.exceptions.DuplicateItemException) as caught:
        ddb.execute_statement(Statement="INSERT INTO Music VALUE {'Artist': 'Big', 'SongTitle': 'Row'}",
                              ReturnConsumedCapacity="TOTAL")
    assert "ConsumedCapacity" not in caught.value.response
