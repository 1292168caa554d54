"""Library behaviour around the cases: scan policy, pages, NextToken rules, page bytes, EXPLAIN."""

import base64
import json

import pytest

from partiql import ScanRefused
from partiql.engine.errors import ConditionalCheckFailedException, DuplicateItemException, ValidationException
from partiql.engine.limits import Limits

from .fixtures import C1, C2, C3, C4, HA, HB, S1, S2, S4, build
from .harness import expected_wire, same, snapshot, wire

SCAN = "SELECT * FROM CCC"
QUERY = "SELECT * FROM CCC WHERE pk = 'p'"


def _no_reads(db, monkeypatch) -> None:
    """Any engine read from here on fails the test."""
    def refuse(*args, **kwargs):
        raise AssertionError("the engine was read")
    for name in ("get", "query_page", "scan_page", "transact_get"):
        monkeypatch.setattr(db.engine, name, refuse)


# ------------------------------------------------------------------ scan policy

@pytest.mark.parametrize("statement", [SCAN, "SELECT * FROM CCC WHERE tag = 'x'", 'SELECT * FROM XXX."gsi-all"',
                                       "SELECT * FROM CCC WHERE pk = 'p' OR tag = 'x'"])
def test_deny_refuses_a_full_scan_before_any_read(statement, monkeypatch):
    db = build("F-C", "F-X")
    db.scan_policy = "deny"
    _no_reads(db, monkeypatch)
    with pytest.raises(ScanRefused) as caught:
        db.execute(statement)
    assert caught.value.code == "ValidationException"
    assert "scan policy (deny)" in caught.value.message


def test_deny_still_reports_an_invalid_statement_first(monkeypatch):
    db = build("F-C")
    db.scan_policy = "deny"
    _no_reads(db, monkeypatch)
    with pytest.raises(ValidationException, match="Key attribute's data type") as caught:
        db.execute("SELECT * FROM CCC WHERE pk = 1 OR tag = 'x'")
    assert not isinstance(caught.value, ScanRefused)


@pytest.mark.parametrize("statement", [QUERY, "SELECT * FROM CCC WHERE pk IN ['p', 'q']", "EXPLAIN " + SCAN,
                                       "UPDATE CCC SET n = 0 WHERE pk = 'q' AND sk = '1'"])
def test_deny_lets_keyed_reads_writes_and_explain_run(statement):
    db = build("F-C")
    db.scan_policy = "deny"
    assert db.execute(statement).warnings == []


def test_warn_attaches_a_warning_to_every_page_of_a_scan():
    db = build("F-C")
    db.scan_policy = "warn"
    pages = list(db.pages(SCAN, limit=3))
    assert len(pages) == 2 and all(len(page.warnings) == 1 for page in pages)
    assert "SCAN of CCC" in pages[0].warnings[0]
    assert db.execute(QUERY).warnings == []


def test_allow_is_the_default_and_adds_nothing():
    db = build("F-C")
    assert db.scan_policy == "allow" and db.execute(SCAN).warnings == []
    with pytest.raises(ValueError):
        db.scan_policy = "never"


# ------------------------------------------------------------------ pages

@pytest.mark.parametrize("statement, limit, expected", [
    (QUERY, 1, [C1, C2, C3]),
    (QUERY, None, [C1, C2, C3]),
    ("SELECT * FROM CCC WHERE pk IN ['q', 'p']", 2, [C4, C1, C2, C3]),
    ("SELECT * FROM HHH WHERE pk IN ['b', 'zz', 'a']", 1, [HB, HA]),
    ("SELECT * FROM CCC WHERE pk = 'p' AND tag = 'y'", 1, [C2]),
    ("SELECT * FROM CCC WHERE pk = 'p' ORDER BY sk DESC", 1, [C3, C2, C1]),
    ("SELECT * FROM CCC WHERE pk IN ['q', 'p'] ORDER BY pk DESC, sk DESC", 1, [C4, C3, C2, C1]),
    ("SELECT * FROM CCC WHERE pk = 'p' AND NOT sk = '1' OR pk = 'p' AND sk = '2'", 1, [C2, C3]),
    ('SELECT * FROM XXX."gsi-all" WHERE gsiPk = \'x\'', 1, [S1, S4]),
    ('SELECT * FROM XXX."lsi-all" WHERE pk = \'p\' ORDER BY lsiSk DESC', 2, [S4, S2, S1]),
    ('SELECT projattr FROM XXX."lsi-keys" WHERE pk = \'p\'', 1, [{"projattr": f"P{i}"} for i in (1, 2, 4)]),
])
def test_pages_walk_every_page(statement, limit, expected):
    db = build("F-H", "F-C", "F-X")
    pages = list(db.pages(statement, limit=limit))
    same([wire(item) for page in pages for item in page.items], [expected_wire(item) for item in expected])
    assert all(page.next_token for page in pages[:-1]) and pages[-1].next_token is None
    if limit is not None:
        assert all(page.scanned_count <= limit for page in pages)


@pytest.mark.parametrize("statement, expected", [(SCAN, [C1, C2, C3, C4]),
                                                 ('SELECT * FROM XXX."gsi-all"', [S1, S2, S4]),
                                                 ('SELECT * FROM XXX."lsi-all" WHERE nonproj <> \'N2\'', [S1, S4])])
def test_pages_of_a_scan_cover_the_source_once(statement, expected):
    db = build("F-C", "F-X")
    items = [wire(item) for page in db.pages(statement, limit=1) for item in page.items]
    same(sorted(map(str, items)), sorted(str(expected_wire(i)) for i in expected))


def test_pages_of_a_write_is_one_page():
    db = build("F-H")
    assert [page.items for page in db.pages("DELETE FROM HHH WHERE pk = 'b'")] == [[]]


# ------------------------------------------------------------------ NextToken

def _refused(message: str, call, *args, **kwargs) -> None:
    with pytest.raises(ValidationException) as caught:
        call(*args, **kwargs)
    same(caught.value.message, message)


def _token(db, statement=QUERY, parameters=None):
    token = db.execute(statement, parameters, limit=1).next_token
    assert token
    return token


@pytest.mark.parametrize("statement, parameters", [
    ("SELECT * FROM CCC WHERE pk = 'q'", None),                 # another statement
    ("SELECT * FROM CCC WHERE pk = 'p' ", None),                # another text
    ("SELECT * FROM CCC WHERE pk = ?", ["p"]),                  # same reads, other text
    ("SELECT sk FROM CCC WHERE pk = 'p'", None),
    ("UPDATE CCC SET n = 0 WHERE pk = 'p' AND sk = '1'", None),  # a write
])
def test_a_next_token_resumes_only_its_statement(statement, parameters):
    db = build("F-C")
    token = _token(db)
    with pytest.raises(ValidationException) as caught:
        db.execute(statement, parameters, next_token=token)
    assert caught.value.message == "NextToken does not match request"


def test_a_next_token_resumes_only_its_parameters():
    db = build("F-C")
    token = _token(db, "SELECT * FROM CCC WHERE pk = ?", ["p"])
    _refused("NextToken does not match request", db.execute, "SELECT * FROM CCC WHERE pk = ?", ["q"],
             next_token=token)
    page = db.execute("SELECT * FROM CCC WHERE pk = ?", ["p"], next_token=token, limit=5)
    same([wire(i) for i in page.items], [expected_wire(C2), expected_wire(C3)])


@pytest.mark.parametrize("mangle", [lambda t: "garbage", lambda t: t[:-3], lambda t: "=" + t, lambda t: t + ".x",
                                    lambda t: base64.urlsafe_b64encode(b'{"f": 1}').decode()])
def test_a_malformed_next_token_is_invalid(mangle):
    db = build("F-C")
    _refused("Invalid NextToken", db.execute, QUERY, next_token=mangle(_token(db)))


def test_an_old_next_token_has_expired(monkeypatch):
    import partiql.executor as executor
    db = build("F-C")
    token = _token(db)
    now = executor.time.time()
    monkeypatch.setattr(executor.time, "time", lambda: now + executor.TOKEN_LIFETIME + 1)
    _refused("Given NextToken has already expired", db.execute, QUERY, next_token=token)


def test_a_too_long_next_token_breaks_the_length_constraint():
    db = build("F-C")
    _refused("1 validation error detected: Value at 'nextToken' failed to satisfy constraint: Member must have "
             "length less than or equal to 32768", db.execute, QUERY, next_token="x" * 32769)


def test_a_next_token_does_not_need_the_same_limit():
    db = build("F-C")
    page = db.execute(QUERY, limit=10, next_token=_token(db))
    assert len(page.items) == 2 and page.next_token is None


# ------------------------------------------------------------------ page bytes (1 MB, scaled down)

def _small_pages(page_bytes: int):
    return build("F-H", "F-C", limits=Limits(page_bytes=page_bytes))


def test_a_page_stops_after_the_item_that_crosses_the_page_bytes():
    db = _small_pages(20)  # C1 (13 B) + C2 (13 B) crosses 20
    page = db.execute(QUERY)
    same([wire(i) for i in page.items], [expected_wire(C1), expected_wire(C2)])
    assert page.next_token


def test_decomposed_point_reads_stop_between_reads_at_the_page_bytes():
    db = _small_pages(40)  # Ha is 41 B
    page = db.execute("SELECT * FROM HHH WHERE pk IN ['a', 'b']")
    same([wire(i) for i in page.items], [expected_wire(HA)])
    rest = db.execute("SELECT * FROM HHH WHERE pk IN ['a', 'b']", next_token=page.next_token)
    same([wire(i) for i in rest.items], [expected_wire(HB)])
    assert rest.next_token is None


def test_decomposed_queries_share_one_page_of_bytes():
    db = _small_pages(20)  # C4 (9 B), then C1 (13 B) crosses 20: the page must end there
    page = db.execute("SELECT * FROM CCC WHERE pk IN ['q', 'p']")
    same([wire(i) for i in page.items], [expected_wire(C4), expected_wire(C1)])


# ------------------------------------------------------------------ EXPLAIN

EXPLAINED = [
    ("SELECT sk FROM CCC WHERE pk = 'p' AND sk > '1' AND tag = 'x' ORDER BY sk DESC",
     [{"TableName": "CCC", "KeyConditionExpression": "#n0 = :v0 AND #n1 > :v1", "FilterExpression": "#n2 = :v2",
       "ProjectionExpression": "#n1", "ConsistentRead": False, "ScanIndexForward": False,
       "ExpressionAttributeNames": {"#n0": "pk", "#n1": "sk", "#n2": "tag"},
       "ExpressionAttributeValues": {":v0": {"S": "p"}, ":v1": {"S": "1"}, ":v2": {"S": "x"}}}]),
    ("SELECT * FROM HHH WHERE pk IN ['a', 'b']",
     [{"TableName": "HHH", "Key": {"pk": {"S": "a"}}, "ConsistentRead": False},
      {"TableName": "HHH", "Key": {"pk": {"S": "b"}}, "ConsistentRead": False}]),
    ('SELECT * FROM XXX."gsi-all" WHERE nonproj = ?',
     [{"TableName": "XXX", "IndexName": "gsi-all", "FilterExpression": "#n0 = :v0", "ConsistentRead": False,
       "ExpressionAttributeNames": {"#n0": "nonproj"}, "ExpressionAttributeValues": {":v0": {"S": "N1"}}}]),
    ("UPDATE HHH SET n = n + 1 WHERE pk = 'a' AND s = 'str' RETURNING MODIFIED NEW *",
     [{"TableName": "HHH", "Key": {"pk": {"S": "a"}}, "UpdateExpression": "SET #n0 = #n0 + :v0",
       "ConditionExpression": "attribute_exists(#n1) AND #n2 = :v1", "ReturnValues": "UPDATED_NEW",
       "ExpressionAttributeNames": {"#n0": "n", "#n1": "pk", "#n2": "s"},
       "ExpressionAttributeValues": {":v0": {"N": "1"}, ":v1": {"S": "str"}}}]),
    ("DELETE FROM HHH WHERE pk = 'a' AND s = 'str' RETURNING ALL OLD *",
     [{"TableName": "HHH", "Key": {"pk": {"S": "a"}}, "ConditionExpression": "attribute_not_exists(#n0) OR #n1 = :v0",
       "ReturnValues": "ALL_OLD", "ExpressionAttributeNames": {"#n0": "pk", "#n1": "s"},
       "ExpressionAttributeValues": {":v0": {"S": "str"}}}]),
    ("INSERT INTO HHH VALUE {'pk': 'z', 'n': 1}",
     [{"TableName": "HHH", "Item": {"pk": {"S": "z"}, "n": {"N": "1"}},
       "ConditionExpression": "attribute_not_exists(#n0)", "ExpressionAttributeNames": {"#n0": "pk"}}]),
]


@pytest.mark.parametrize("statement, requests", EXPLAINED)
def test_explain_renders_the_requests_and_runs_nothing(statement, requests, monkeypatch):
    db = build("F-H", "F-C", "F-X")
    before = snapshot(db)
    _no_reads(db, monkeypatch)
    monkeypatch.setattr(db.engine, "write", lambda *a, **k: pytest.fail("the engine was written"))
    plan = db.explain(statement, ["N1"] if "?" in statement else None)
    same(plan.requests, requests)
    assert snapshot(db) == before


@pytest.mark.parametrize("statement, kind, scan", [
    (SCAN, "Scan", True), (QUERY, "Query", False), ("SELECT * FROM CCC WHERE pk = 'p' AND sk = '1'", "GetItem", False),
    ("DELETE FROM CCC WHERE pk = 'p' AND sk = '1'", "DeleteItem", False)])
def test_explain_names_the_access_path(statement, kind, scan):
    plan = build("F-C").explain(statement)
    assert (plan.kind, plan.full_table_scan, plan.table) == (kind, scan, "CCC")
    assert plan.capacity_estimate


def test_an_edited_token_is_invalid():
    db = build("F-C")
    encoded, mac = _token(db).split(".")
    body = json.loads(base64.urlsafe_b64decode(encoded))
    body["r"] = 1
    forged = base64.urlsafe_b64encode(json.dumps(body, sort_keys=True).encode()).decode() + "." + mac
    _refused("Invalid NextToken", db.execute, QUERY, next_token=forged)


# ------------------------------------------------------------------ ReturnValuesOnConditionCheckFailure (§2.10)

@pytest.mark.parametrize("statement, item", [
    ("UPDATE HHH SET s = 'x' WHERE pk = 'a' AND s = 'nope'", HA),
    ("DELETE FROM HHH WHERE pk = 'a' AND s = 'nope'", HA),
    ("UPDATE HHH SET s = 'x' WHERE pk = 'zz'", None),
])
def test_all_old_puts_the_current_item_on_the_failed_condition(statement, item):
    db = build("F-H")
    with pytest.raises(ConditionalCheckFailedException) as caught:
        db.runner.execute(statement, [], return_old=True)
    same(None if caught.value.item is None else wire(caught.value.item), item and expected_wire(item))


def test_all_old_leaves_a_duplicate_insert_a_duplicate():
    db = build("F-H")
    with pytest.raises(DuplicateItemException) as caught:
        db.runner.execute("INSERT INTO HHH VALUE {'pk': 'a'}", [], return_old=True)
    assert caught.value.message == "Duplicate primary key exists in table"
    assert getattr(caught.value, "item", None) is None


# ------------------------------------------------------------------ Result.consumed_capacity attributes

@pytest.mark.parametrize("statement, total, table, indexes, read, write", [
    ('SELECT * FROM XXX."gsi-all" WHERE gsiPk = \'x\'', 0.5, 0.0, {"gsi-all": 0.5}, 0.5, 0.0),
    ('SELECT projattr FROM XXX."lsi-keys" WHERE pk = \'p\'', 2.0, 1.5, {"lsi-keys": 0.5}, 2.0, 0.0),
    ("INSERT INTO WWW VALUE {'pk':'c1','sk':'1','gsiPk':'g1','lsiSk':'L1','proj':'p','other':'o'}", 3.0, 1.0,
     {"gsi-inc": 1.0, "lsi-all": 1.0}, 0.0, 3.0),
    ("SELECT * FROM HHH WHERE pk = 'zz'", 0.5, 0.5, {}, 0.5, 0.0),
])
def test_consumed_capacity_splits_table_indexes_reads_and_writes(statement, total, table, indexes, read, write):
    consumed = build("F-H", "F-X", "F-W").execute(statement).consumed_capacity
    same((consumed.total, consumed.table, consumed.indexes, consumed.read_units, consumed.write_units),
         (total, table, indexes, read, write))
