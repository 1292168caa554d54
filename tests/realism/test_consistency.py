"""Issue 33 point 3: eventual consistency on a virtual clock — an eventually consistent read of an item written
in the last ``window`` seconds sees its previous version with the chance ``stale`` (the same reads for a
seed), a strongly consistent read never does, a GSI sees its table's writes ``gsi_lag`` late; PartiQL warns."""

from __future__ import annotations

import pytest

import partiql
from partiql.engine.clock import VirtualClock
from partiql.engine.realism import RealismError, realism_from

SETTINGS = {"seed": 5, "consistency": {"window": 1, "stale": 0.25, "gsi_lag": 0.5}}
QUERY = {"TableName": "Orders", "IndexName": "ByStatus", "KeyConditionExpression": "#s = :s",
         "ExpressionAttributeNames": {"#s": "status"}, "ExpressionAttributeValues": {":s": "open"}}


def _db(settings=SETTINGS):
    clock = VirtualClock()
    db = partiql.connect(clock=clock, realism=settings)
    db.execute("CREATE TABLE Orders PRIMARY KEY (pk STRING HASH) GSI (ByStatus ON (status STRING HASH) "
               "PROJECTING ALL)")
    db.engine.put_item(TableName="Orders", Item={"pk": "a", "status": "open", "n": 1})
    clock.advance(10)
    db.engine.put_item(TableName="Orders", Item={"pk": "a", "status": "open", "n": 2})
    return db, clock


def _reads(db, times=400, **options) -> list:
    return [int(db.engine.get_item(TableName="Orders", Key={"pk": "a"}, **options)["Item"]["n"])
            for _ in range(times)]


def test_an_eventually_consistent_read_may_see_the_item_before_a_write_of_its_window():
    db, clock = _db()
    clock.advance(0.5)
    seen = _reads(db)
    assert set(seen) == {1, 2} and 70 <= seen.count(1) <= 130  # (a chance of 0.25 in 400 reads)
    assert seen == _reads(_replayed())  # (the same seed, the same reads)
    assert set(_reads(db, ConsistentRead=True)) == {2}
    clock.advance(0.5)  # (the window is over)
    assert set(_reads(db)) == {2}
    assert db.engine.realism.consistency.served == seen.count(1)


def _replayed():
    db, clock = _db()
    clock.advance(0.5)
    return db


def test_an_item_created_in_the_window_may_not_be_there_yet():
    db, clock = _db({"seed": 1, "consistency": {"window": 1, "stale": 1.0}})
    db.engine.put_item(TableName="Orders", Item={"pk": "new", "status": "open"})
    assert "Item" not in db.engine.get_item(TableName="Orders", Key={"pk": "new"})
    assert db.engine.get_item(TableName="Orders", Key={"pk": "new"}, ConsistentRead=True)["Item"]["pk"] == "new"
    items = db.engine.scan(TableName="Orders")
    assert items["Count"] == len(items["Items"]) == 1 and items["Items"][0]["n"] == 1  # ("new" not yet; "a" was 1)


def test_a_gsi_sees_its_table_s_writes_its_lag_later():
    db, clock = _db()
    db.engine.put_item(TableName="Orders", Item={"pk": "b", "status": "open", "n": 9})
    clock.advance(0.4)
    assert [(item["pk"], item.get("n")) for item in db.engine.query(**QUERY)["Items"]] == [("a", 1)]
    clock.advance(0.1)
    assert sorted((item["pk"], int(item["n"])) for item in db.engine.query(**QUERY)["Items"]) == [("a", 2), ("b", 9)]


def test_partiql_reads_are_served_stale_with_a_warning_and_never_with_a_projection():
    db, clock = _db({"seed": 1, "consistency": {"window": 1, "stale": 1.0, "gsi_lag": 1}})
    result = db.execute("SELECT * FROM Orders WHERE pk = 'a'")
    assert result.items[0]["n"] == 1
    assert result.warnings == ["realism: 1 of these items served stale (as they were before a write of the last "
                               "moments: an eventually consistent read; ConsistentRead sees it)"]
    assert db.execute("SELECT * FROM Orders WHERE pk = 'a'", consistent_read=True).items[0]["n"] == 2
    assert db.execute("SELECT n FROM Orders WHERE pk = 'a'").items[0]["n"] == 2
    assert db.execute("SELECT * FROM \"Orders\".\"ByStatus\" WHERE status = 'open'").items[0]["n"] == 1


@pytest.mark.parametrize("section, words", [
    ({"stale": 2}, "consistency.stale takes a share from 0 to 1, not 2"),
    ({"window": -1}, "consistency.window takes seconds from 0 to 3,600, not -1"),
    ({"lag": 1}, "consistency: unknown lag (it takes window, stale, gsi_lag, index_lag)"),
    ({"index_lag": 2}, "consistency.index_lag takes a table of index name = seconds"),
    ({"index_lag": {"ByStatus": "soon"}}, "consistency.index_lag.ByStatus takes seconds from 0 to 3,600, not 'soon'"),
])
def test_a_consistency_setting_that_cannot_be_is_named(section, words):
    with pytest.raises(RealismError) as refused:
        realism_from({"consistency": section})
    assert words in str(refused.value)


def test_a_batch_get_is_served_stale_per_table_unless_consistent():
    db, clock = _db({"seed": 1, "consistency": {"window": 1, "stale": 1.0}})
    keys = {"Keys": [{"pk": "a"}]}
    stale = db.engine.batch_get_item(RequestItems={"Orders": keys})["Responses"]["Orders"]
    fresh = db.engine.batch_get_item(RequestItems={"Orders": dict(keys, ConsistentRead=True)})["Responses"]["Orders"]
    assert [item["n"] for item in stale] == [1] and [item["n"] for item in fresh] == [2]
    # a transaction's read is always consistent
    (got,) = db.engine.transact_get_items(TransactItems=[{"Get": {"TableName": "Orders", "Key": {"pk": "a"}}}])[
        "Responses"]
    assert got["Item"]["n"] == 2


def test_an_index_lags_by_its_own_figure():
    db, clock = _db({"consistency": {"gsi_lag": 0.1, "index_lag": {"ByStatus": 2.0}}})
    clock.advance(1.9)
    assert [int(item["n"]) for item in db.engine.query(**QUERY)["Items"]] == [1]
    clock.advance(0.1)
    assert [int(item["n"]) for item in db.engine.query(**QUERY)["Items"]] == [2]


@pytest.mark.parametrize("write, queried, lagging, after", [
    # (a lagging index answers as it was: the item moved to another key is not under the new one yet, an item
    # updated in place is its earlier version, an item just created is not there)
    ({"pk": "a", "status": "shipped", "n": 3}, "shipped", [], [3]),
    ({"pk": "a", "status": "open", "n": 3}, "open", [2], [3]),
    ({"pk": "c", "status": "open", "n": 7}, "open", [2], [2, 7]),
])
def test_a_lagging_index_never_answers_an_item_under_a_key_it_did_not_have(write, queried, lagging, after):
    db, clock = _db({"consistency": {"gsi_lag": 1.0}})
    clock.advance(5)  # (the setup's writes have reached the index)
    db.engine.put_item(TableName="Orders", Item=write)
    query = dict(QUERY, ExpressionAttributeValues={":s": queried})
    assert sorted(int(item["n"]) for item in db.engine.query(**query)["Items"]) == lagging
    clock.advance(1)
    assert sorted(int(item["n"]) for item in db.engine.query(**query)["Items"]) == after


def test_a_point_read_may_find_an_item_deleted_in_the_window():
    db, clock = _db({"seed": 1, "consistency": {"window": 1, "stale": 1.0}})
    clock.advance(2)
    db.engine.delete_item(TableName="Orders", Key={"pk": "a"})
    assert db.engine.get_item(TableName="Orders", Key={"pk": "a"})["Item"]["n"] == 2
    assert "Item" not in db.engine.get_item(TableName="Orders", Key={"pk": "a"}, ConsistentRead=True)
    batch = db.engine.batch_get_item(RequestItems={"Orders": {"Keys": [{"pk": "a"}, {"pk": "zz"}]}})
    assert [item["n"] for item in batch["Responses"]["Orders"]] == [2]
    assert db.engine.scan(TableName="Orders")["Items"] == []  # (a range does not resurrect it: model)
    clock.advance(1)
    assert "Item" not in db.engine.get_item(TableName="Orders", Key={"pk": "a"})


@pytest.mark.parametrize("statement, consistent, lines", [
    ("SELECT * FROM Orders WHERE pk = 'a'", False, [
        "eventually consistent: an item written in the last 1 s is read as it was before with a chance of 0.25 "
        "(ConsistentRead: never)", "fault: InternalServerError: every operation on Orders, 10% of them (0 injected)"]),
    ("SELECT * FROM Orders WHERE pk = 'a'", True, [
        "a strongly consistent read: never stale",
        "fault: InternalServerError: every operation on Orders, 10% of them (0 injected)"]),
    ("SELECT * FROM \"Orders\".\"ByStatus\" WHERE status = 'open'", False, [
        "the index lags its table 500 ms: a write of the last 500 ms is not seen yet",
        "fault: InternalServerError: every operation on Orders, 10% of them (0 injected)"]),
    ("UPDATE Orders SET n = 1 WHERE pk = 'a'", False, [
        "TransactionConflictException while a transaction holds the item (transactions hold their items 30 ms)",
        "fault: InternalServerError: every operation on Orders, 10% of them (0 injected)"]),
    ("SELECT * FROM Other WHERE pk = 'a'", False, [
        "eventually consistent: an item written in the last 1 s is read as it was before with a chance of 0.25 "
        "(ConsistentRead: never)"]),
])
def test_explain_says_what_realism_may_do_to_a_statement(statement, consistent, lines):
    from shell.explain import render_plan

    settings = dict(SETTINGS, transactions={"duration": 0.03}, fault=[{"table": "Orders", "error":
                                                                        "InternalServerError", "share": 0.1}])
    db, _ = _db(settings)
    db.execute("CREATE TABLE Other PRIMARY KEY (pk STRING HASH)")
    plan = db.runner.explain(db.runner.template(statement, [], False), [], consistent)
    assert list(plan.realism) == lines
    assert [line for line in render_plan(plan).splitlines() if line.startswith("realism: ")] == [
        f"realism: {line}" for line in lines]
    plain, _ = _db(None)  # (realism off: EXPLAIN says nothing of it)
    plain.execute("CREATE TABLE Other PRIMARY KEY (pk STRING HASH)")
    assert plain.explain(statement).realism == ()


def test_a_table_named_by_its_arn_is_the_same_table_to_realism():
    db, clock = _db({"seed": 1, "consistency": {"window": 1, "stale": 1.0},
                     "fault": [{"operation": "PutItem", "table": "Orders", "key": {"pk": "b"},
                                "error": "InternalServerError"}]})
    arn = db.describe("Orders")["TableArn"]
    assert db.engine.get_item(TableName=arn, Key={"pk": "a"})["Item"]["n"] == 1  # (stale, as by its name)
    with pytest.raises(Exception, match="Internal server error"):
        db.engine.put_item(TableName=arn, Item={"pk": "b"})
