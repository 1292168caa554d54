"""Issue 33 point 5 (scripted faults) and point 1's switch: rules that match operation, table, index and key
and inject DynamoDB's errors, throttles and unprocessed batch entries, deterministic for a seed, each logged;
``off`` changes nothing. Over the wire, boto3's own retry logic retries what is injected."""

from __future__ import annotations

import pytest

import partiql
from partiql.engine.errors import DynamoDBError
from partiql.engine.realism import Realism, RealismError, realism_from

TABLE = "CREATE TABLE Orders PRIMARY KEY (pk STRING HASH)"


def _db(*rules, seed=7):
    db = partiql.connect(realism={"seed": seed, "fault": list(rules)})
    db.execute(TABLE)
    db.execute("CREATE TABLE Other PRIMARY KEY (pk STRING HASH)")
    return db


def _outcomes(call, times: int) -> list:
    out = []
    for _ in range(times):
        try:
            call()
            out.append("ok")
        except DynamoDBError as error:
            out.append(error.code)
    return out


@pytest.mark.parametrize("rule, call, expected", [
    ({"operation": "PutItem", "error": "InternalServerError", "count": 2},
     lambda db: db.engine.put_item(TableName="Orders", Item={"pk": "a"}),
     ["InternalServerError", "InternalServerError", "ok", "ok"]),
    ({"operation": "PutItem", "table": "Other", "error": "InternalServerError"},
     lambda db: db.engine.put_item(TableName="Orders", Item={"pk": "a"}), ["ok"] * 4),
    ({"operation": ["GetItem", "Query"], "key": {"pk": "hot"}, "error": "ThrottlingException"},
     lambda db: db.engine.get_item(TableName="Orders", Key={"pk": "hot"}), ["ThrottlingException"] * 4),
    ({"operation": "GetItem", "key": {"pk": "hot"}, "error": "ThrottlingException"},
     lambda db: db.engine.get_item(TableName="Orders", Key={"pk": "cold"}), ["ok"] * 4),
    ({"operation": "UpdateItem", "error": "TransactionConflictException"},
     lambda db: db.engine.update_item(TableName="Orders", Key={"pk": "a"}, UpdateExpression="SET n = :n",
                                      ExpressionAttributeValues={":n": 1}), ["TransactionConflictException"] * 4),
    ({"operation": "TransactWriteItems", "error": "TransactionConflict"},
     lambda db: db.engine.transact_write_items(TransactItems=[{"Put": {"TableName": "Orders", "Item": {"pk": "t"}}}]),
     ["TransactionCanceledException"] * 4),
    ({"operation": "ExecuteStatement", "table": "Orders", "error": "ProvisionedThroughputExceededException"},
     lambda db: db.execute("SELECT * FROM Orders WHERE pk = 'a'"), ["ProvisionedThroughputExceededException"] * 4),
    ({"operation": "ExecuteTransaction", "error": "TransactionConflict"},
     lambda db: db.execute_transaction(["INSERT INTO Orders VALUE {'pk': 'x'}"]), ["TransactionCanceledException"] * 4),
])
def test_a_rule_injects_its_error_into_the_requests_it_matches(rule, call, expected):
    db = _db(rule)
    assert _outcomes(lambda: call(db), 4) == expected
    assert len(db.engine.realism.injected) == expected.count(expected[0]) * (expected[0] != "ok")


def test_a_share_is_drawn_from_the_seed_the_same_each_time():
    rule = {"operation": "GetItem", "error": "InternalServerError", "share": 0.3}
    runs = [_outcomes(lambda db=db: db.engine.get_item(TableName="Orders", Key={"pk": "a"}), 200)
            for db in (_db(rule), _db(rule))]
    assert runs[0] == runs[1]
    assert 40 <= runs[0].count("InternalServerError") <= 80  # (a share of 0.3 of 200)
    other = _outcomes(lambda db=_db(rule, seed=8): db.engine.get_item(TableName="Orders", Key={"pk": "a"}), 200)
    assert other != runs[0]


def test_a_batch_hands_back_a_share_of_its_entries_and_writes_the_rest():
    db = _db({"operation": "BatchWriteItem", "unprocessed": 0.5})
    items = [{"PutRequest": {"Item": {"pk": f"k{n}"}}} for n in range(10)]
    response = db.engine.batch_write_item(RequestItems={"Orders": items})
    back = response["UnprocessedItems"]["Orders"]
    assert 1 <= len(back) < 10
    written = {item["pk"] for item in db.execute("SELECT * FROM Orders").items}
    assert written == {f"k{n}" for n in range(10)} - {entry["PutRequest"]["Item"]["pk"] for entry in back}
    keys = [{"pk": f"k{n}"} for n in range(10)]
    db.engine.realism = realism_from({"fault": [{"operation": "BatchGetItem", "unprocessed": 1.0}]})
    response = db.engine.batch_get_item(RequestItems={"Orders": {"Keys": keys}})
    assert response["UnprocessedKeys"]["Orders"]["Keys"] == keys and response["Responses"] == {}


@pytest.mark.parametrize("rule, written_back, read_back", [
    ({"key": {"pk": "k3"}}, ["k3"], ["k3"]),               # (the chosen entry, every time)
    ({"table": "Other"}, ["o1", "o2"], []),                 # (only the chosen table's entries: the read is Orders')
    ({"key": {"pk": "nowhere"}}, [], []),                    # (no entry chosen: the rule does not fire)
])
def test_a_rule_hands_back_the_batch_entries_it_chooses(rule, written_back, read_back):
    db = _db(dict(rule, operation=["BatchWriteItem", "BatchGetItem"], unprocessed=1.0))
    writes = {"Orders": [{"PutRequest": {"Item": {"pk": f"k{n}"}}} for n in range(5)],
              "Other": [{"PutRequest": {"Item": {"pk": "o1"}}}, {"DeleteRequest": {"Key": {"pk": "o2"}}}]}
    response = db.engine.batch_write_item(RequestItems=writes)
    assert [(entry.get("PutRequest") or entry["DeleteRequest"]).get("Item", entry.get("DeleteRequest", {}).get("Key"))
            ["pk"] for entries in response["UnprocessedItems"].values() for entry in entries] == written_back
    keys = {"Orders": {"Keys": [{"pk": f"k{n}"} for n in range(5)]}}
    unread = db.engine.batch_get_item(RequestItems=keys).get("UnprocessedKeys", {})
    assert [key["pk"] for entry in unread.values() for key in entry["Keys"]] == read_back
    assert db.engine.realism.total == bool(written_back) + bool(read_back)


def test_off_changes_nothing_and_the_log_names_each_injection(caplog):
    assert realism_from("off") is None and realism_from(None) is None
    db = _db({"operation": "DeleteItem", "error": "InternalServerError", "count": 1})
    with caplog.at_level("WARNING", logger="partiql.realism"):
        _outcomes(lambda: db.engine.delete_item(TableName="Orders", Key={"pk": "a"}), 2)
    (injected,) = db.engine.realism.injected
    assert (injected.operation, injected.table, injected.fault) == ("DeleteItem", "Orders", "InternalServerError")
    assert "realism: injected InternalServerError into DeleteItem on Orders" in caplog.text
    assert db.engine.realism.describe() == ["InternalServerError: DeleteItem, every one, the first 1 (1 injected)"]


@pytest.mark.parametrize("document, words", [
    ({"colour": 1}, "unknown colour (it takes seed, [[fault]], [lifecycle], [consistency] and [transactions])"),
    ({"seed": "x"}, "seed takes a whole number"),
    ({"fault": {}}, "fault takes [[fault]] tables"),
    ({"fault": [{"operation": "GetItem"}]}, "fault[0] takes error, unprocessed or latency (one of them)"),
    ({"fault": [{"latency": 0.1, "error": "InternalServerError"}]},
     "fault[0] takes error, unprocessed or latency (one of them)"),
    ({"fault": [{"latency": -1}]}, "fault[0].latency takes seconds from 0 to 60, not -1"),
    ({"transactions": {"duration": "long"}}, "transactions.duration takes seconds from 0 to 60, not 'long'"),
    ({"transactions": {"length": 1}}, "transactions: unknown length (it takes duration)"),
    ({"lifecycle": {"ttl_lag": -5}}, "lifecycle.ttl_lag takes seconds from 0 to 2,592,000, not -5"),
    ({"fault": [{"error": "Oops"}]}, "fault[0].error takes InternalServerError, ThrottlingException"),
    ({"fault": [{"error": "InternalServerError", "reason": "TableReadKeyRangeThroughputExceeded"}]},
     "fault[0].reason names a throttle's reason"),
    ({"fault": [{"error": "ThrottlingException", "reason": "Busy"}]}, "fault[0].reason names a throttle's reason"),
    ({"fault": [{"error": "InternalServerError", "share": 2}]}, "fault[0].share takes a share from 0 to 1, not 2"),
    ({"fault": [{"error": "InternalServerError", "count": 0}]}, "fault[0].count takes a whole number >= 1"),
    ({"fault": [{"unprocessed": 0.5}]}, "fault[0]: unprocessed applies to BatchWriteItem and BatchGetItem"),
    ({"fault": [{"error": "InternalServerError", "operation": 5}]}, "fault[0].operation takes an operation's name"),
    ({"fault": [{"error": "InternalServerError", "key": 5}]}, "fault[0].key takes a table of attribute = value"),
    ({"fault": [{"error": "InternalServerError", "nope": 1}]}, "fault[0]: unknown nope"),
])
def test_a_setting_that_cannot_be_is_named_with_its_place(document, words):
    with pytest.raises(RealismError) as refused:
        realism_from(document)
    assert str(refused.value).startswith("<realism>: ") and words in str(refused.value)


def test_a_file_is_read_and_a_mistake_opens_nothing(tmp_path):
    path = tmp_path / "faults.toml"
    path.write_text('seed = 3\n[[fault]]\noperation = "GetItem"\nerror = "InternalServerError"\n')
    realism = realism_from(str(path))
    assert isinstance(realism, Realism) and realism.seed == 3 and realism.source == str(path)
    with pytest.raises(RealismError, match="is neither"):
        partiql.connect(str(tmp_path / "db.ddb"), realism=str(tmp_path / "missing.toml"))
    assert not (tmp_path / "db.ddb").exists()


def test_boto3_retries_what_is_injected_over_the_wire(boto3_for):
    from partiql.server import Server

    db = _db({"operation": "GetItem", "error": "InternalServerError", "count": 2},
             {"operation": "PutItem", "error": "ThrottlingException", "count": 3})
    with Server(db, port=0) as running:
        client = boto3_for(running.url, mode="standard", max_attempts=5)
        put = client.put_item(TableName="Orders", Item={"pk": {"S": "a"}})
        got = client.get_item(TableName="Orders", Key={"pk": {"S": "a"}})
    db.close()
    assert put["ResponseMetadata"]["RetryAttempts"] == 3 and got["ResponseMetadata"]["RetryAttempts"] == 2
    assert got["Item"] == {"pk": {"S": "a"}}
    assert [i.fault for i in db.engine.realism.injected] == ["ThrottlingException"] * 3 + ["InternalServerError"] * 2


def test_the_shell_shows_switches_on_and_off_its_faults(tmp_path, capsys):
    from shell.cli import main

    path = tmp_path / "faults.toml"
    path.write_text('[[fault]]\noperation = "ExecuteStatement"\nerror = "InternalServerError"\ncount = 1\n')
    code = main(["--realism", str(path), "-e", TABLE, "-e", "SELECT * FROM Orders WHERE pk = 'a'",
                 "-e", "SELECT * FROM Orders WHERE pk = 'a'", "-e", ".faults", "-e", ".faults off", "-e", ".faults",
                 "-e", ".faults aws", "-e", ".faults"])
    err = capsys.readouterr().err
    assert code == 1 and "InternalServerError: Internal server error" in err
    assert f"realism from {path} (seed 0), 1 injected, the last InternalServerError into ExecuteStatement:" in err
    assert "  InternalServerError: ExecuteStatement, every one, the first 1 (1 injected)" in err
    assert "realism: off (.faults FILE|aws, or --realism FILE|aws, switches it on)" in err
    assert err.rstrip().endswith("""realism from the aws preset (seed 0), 0 injected:
  lifecycle: tables CREATING 15 s, DELETING 15 s; new GSIs CREATING 15 s + their items at 3,000 a second; TTL \
changes 0 s, expired items deleted up to 1800 s late
  consistency: a write's previous version read for 1 s with a chance of 0.1; GSIs 500 ms behind; 0 items served \
stale
  transactions: hold their items 30 ms; 0 requests met one""")


def test_the_log_keeps_the_last_injections_and_counts_them_all():
    from partiql.engine.realism.model import KEPT

    db = _db({"operation": "GetItem", "error": "InternalServerError"})
    _outcomes(lambda: db.engine.get_item(TableName="Orders", Key={"pk": "a"}), KEPT + 5)
    realism = db.engine.realism
    assert len(realism.injected) == KEPT and realism.total == KEPT + 5 == realism.rules[0].fired


@pytest.mark.parametrize("rule, call, reasons", [
    # (a rule on every ExecuteStatement: DDL and EXPLAIN are not item statements, so creating the tables and
    # explaining a statement pass it)
    ({"operation": "GetItem", "error": "ThrottlingException"},
     lambda db: db.engine.get_item(TableName="Orders", Key={"pk": "a"}), ["TableReadKeyRangeThroughputExceeded"]),
    ({"operation": "PutItem", "error": "ProvisionedThroughputExceededException"},
     lambda db: db.engine.put_item(TableName="Orders", Item={"pk": "a"}), ["TableWriteProvisionedThroughputExceeded"]),
    ({"operation": "ExecuteStatement", "error": "ThrottlingException",
      "reason": "TableWriteMaxOnDemandThroughputExceeded"},
     lambda db: db.execute("UPDATE Orders SET n = 1 WHERE pk = 'a'"), ["TableWriteMaxOnDemandThroughputExceeded"]),
    ({"operation": "ExecuteStatement", "error": "ThrottlingException"},
     lambda db: db.execute("SELECT * FROM Orders WHERE pk = 'a'"), ["TableReadKeyRangeThroughputExceeded"]),
])
def test_an_injected_throttle_carries_dynamodb_s_message_and_reasons(rule, call, reasons):
    from partiql.engine.throughput.admission import MESSAGES

    db = _db(rule)
    db.explain("SELECT * FROM Orders WHERE pk = 'a'")
    with pytest.raises(DynamoDBError) as refused:
        call(db)
    arn = db.describe("Orders")["TableArn"]
    assert refused.value.throttling_reasons == [{"reason": reason, "resource": arn} for reason in reasons]
    mode = "on_demand" if rule["error"] == "ThrottlingException" else "provisioned"
    assert refused.value.message == MESSAGES[mode, "Table"]


def test_an_injected_throttle_s_reasons_reach_boto3(boto3_for):
    from botocore.exceptions import ClientError

    from partiql.server import Server

    db = _db({"operation": "Query", "index": "ByStatus", "error": "ProvisionedThroughputExceededException"})
    db.execute("CREATE TABLE Indexed PRIMARY KEY (pk STRING HASH) GSI (ByStatus ON (status STRING HASH) "
               "PROJECTING ALL)")
    with Server(db, port=0) as running:
        with pytest.raises(ClientError) as refused:
            boto3_for(running.url).query(TableName="Indexed", IndexName="ByStatus", KeyConditionExpression="#s = :s",
                                         ExpressionAttributeNames={"#s": "status"},
                                         ExpressionAttributeValues={":s": {"S": "open"}})
    db.close()
    assert refused.value.response["ThrottlingReasons"] == [{
        "reason": "IndexReadProvisionedThroughputExceeded",
        "resource": "arn:aws:dynamodb:us-east-1:123456789012:table/Indexed/index/ByStatus"}]
