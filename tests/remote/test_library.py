"""The library on a remote DynamoDB (issue #18 points 1, 2, 6): ``partiql.connect(endpoint_url=…)`` against
``partiql serve`` and moto's server — DDL, DML, paging, batches, transactions, errors — and EXPLAIN, the scan
guard and read-only deciding before anything is sent (checked on the request log)."""

from __future__ import annotations

import itertools
from decimal import Decimal

import pytest

import partiql
from partiql.engine.errors import (ConditionalCheckFailedException, DuplicateItemException,
                                   ResourceNotFoundException, TransactionCanceledException, ValidationException)
from partiql.errors import ScanRefused

_names = itertools.count()


def new_table(db, extra: str = "", sort: str = "NUMBER") -> str:
    name = f"Remote{next(_names)}"
    db.execute(f"CREATE TABLE {name} PRIMARY KEY (pk STRING HASH, sk {sort} RANGE) {extra}")
    return name


def test_ddl_and_dml_run_on_the_service(endpoint):
    with endpoint.connect() as db:
        # (a string sort key: moto's PartiQL reads no number in a WHERE)
        name = new_table(db, "GSI (ByG ON (g STRING HASH) PROJECTING ALL)", sort="STRING")
        assert name in db.table_names()
        assert name in [row["TableName"] for row in db.execute("SHOW TABLES").items]
        assert db.execute(f"DESCRIBE {name}").items[0]["KeySchema"][0]["AttributeName"] == "pk"
        if endpoint.full:  # (moto's PartiQL takes no parameters in INSERT)
            db.execute(f"INSERT INTO {name} VALUE {{'pk': 'a', 'sk': '1', 'g': 'x', 'b': ?}}", [b"\x00\xff"])
        else:
            db.execute(f"INSERT INTO {name} VALUE {{'pk': 'a', 'sk': '1', 'g': 'x'}}")
        found = db.execute(f"SELECT * FROM {name} WHERE pk = 'a'")
        expected = {"pk": "a", "sk": "1", "g": "x", **({"b": b"\x00\xff"} if endpoint.full else {})}
        assert found.items == [expected]
        assert found.plan.access_path == f"Query on {name}"
        assert db.execute(f"DELETE FROM {name} WHERE pk = 'a' AND sk = '1'").plan.kind == "DeleteItem"
        assert db.execute(f"SELECT * FROM {name} WHERE pk = 'a'").items == []
        assert db.execute(f"DROP TABLE {name}").message == f"Table {name} dropped"
        assert name not in db.table_names()


def test_updates_conditions_and_capacity(served):
    with served.connect() as db:
        name = new_table(db)
        db.execute(f"INSERT INTO {name} VALUE {{'pk': 'a', 'sk': 1, 'n': 1}}")
        db.execute(f"UPDATE {name} SET n = n + 1 WHERE pk = 'a' AND sk = 1")
        found = db.execute(f"SELECT n FROM {name} WHERE pk = 'a' AND sk = 1")
        assert found.items == [{"n": Decimal(2)}]
        assert found.consumed_capacity.read_units == 0.5 and found.consumed_capacity.write_units == 0
        with pytest.raises(DuplicateItemException):
            db.execute(f"INSERT INTO {name} VALUE {{'pk': 'a', 'sk': 1}}")
        with pytest.raises(ConditionalCheckFailedException):
            db.execute(f"UPDATE {name} SET n = 5 WHERE pk = 'zz' AND sk = 1")
        with pytest.raises(ResourceNotFoundException):
            db.execute("SELECT * FROM NoSuchTable WHERE pk = 'a'")


def test_pages_follow_next_token(endpoint):
    if not endpoint.full:
        pytest.skip("moto's ExecuteStatement ignores Limit: every answer is one page")
    with endpoint.connect() as db:
        name = new_table(db)
        for n in range(25):
            db.execute(f"INSERT INTO {name} VALUE {{'pk': 'p', 'sk': {n}}}")
        pages = list(db.pages(f"SELECT * FROM {name} WHERE pk = 'p'", limit=10))
        assert [len(page.items) for page in pages] == [10, 10, 5]
        assert [int(item["sk"]) for page in pages for item in page.items] == list(range(25))


def test_batches_and_transactions_with_their_reasons(served):
    with served.connect() as db:
        name = new_table(db)
        db.execute(f"INSERT INTO {name} VALUE {{'pk': 'a', 'sk': 1}}")
        results = db.execute_batch([f"INSERT INTO {name} VALUE {{'pk': 'a', 'sk': 1}}",
                                    (f"INSERT INTO {name} VALUE {{'pk': ?, 'sk': 2}}", ["b"])])
        assert isinstance(results[0], DuplicateItemException) and results[0].code == "DuplicateItemException"
        assert results[1].plan.kind == "PutItem"
        assert db.execute(f"SELECT * FROM {name} WHERE pk = 'b'").items == [{"pk": "b", "sk": Decimal(2)}]
        with pytest.raises(TransactionCanceledException) as caught:
            db.execute_transaction([f"INSERT INTO {name} VALUE {{'pk': 'c', 'sk': 1}}",
                                    f"INSERT INTO {name} VALUE {{'pk': 'a', 'sk': 1}}"])
        assert [reason.code for reason in caught.value.reasons] == ["None", "DuplicateItem"]
        assert db.execute(f"SELECT * FROM {name} WHERE pk = 'c'").items == []  # nothing of it was written
        done = db.execute_transaction([f"INSERT INTO {name} VALUE {{'pk': 'c', 'sk': 1}}",
                                       f"UPDATE {name} SET v = 1 WHERE pk = 'a' AND sk = 1"])
        assert [result.plan.kind for result in done] == ["PutItem", "UpdateItem"]
        assert done[0].consumed_capacity.write_units == 4  # 2 WCU each, transactional


@pytest.mark.parametrize("policy, outcome", [("allow", "runs"), ("warn", "warns"), ("deny", ScanRefused)])
def test_the_scan_guard_decides_before_sending(endpoint, policy, outcome):
    with endpoint.connect(scan_policy=policy) as db:
        name = new_table(db)
        db.execute(f"INSERT INTO {name} VALUE {{'pk': 'a', 'sk': 1}}")
        db.explain(f"SELECT * FROM {name}")  # (the table's schema is read once, by DescribeTable)
        before = len(endpoint.log)
        plan = db.explain(f"SELECT * FROM {name} WHERE sk > 0")
        assert plan.full_table_scan and plan.access_path == f"SCAN of {name}"
        assert db.execute(f"EXPLAIN SELECT * FROM {name}").message == "EXPLAIN (nothing was sent)"
        assert endpoint.sent(before) == []  # EXPLAIN sends nothing
        if outcome is ScanRefused:
            with pytest.raises(ScanRefused):
                db.execute(f"SELECT * FROM {name} WHERE sk > 0")
            assert endpoint.sent(before) == []  # refused before it cost anything
            return
        found = db.execute(f"SELECT * FROM {name} WHERE sk > 0")
        assert len(found.items) == 1 and endpoint.sent(before) == ["ExecuteStatement"]
        assert bool(found.warnings) == (outcome == "warns")


def test_read_only_refuses_writes_before_sending(endpoint):
    with endpoint.connect() as writer:
        name = new_table(writer)
    with endpoint.connect(read_only=True) as db:
        db.explain(f"SELECT * FROM {name}")
        before = len(endpoint.log)
        for statement in (f"INSERT INTO {name} VALUE {{'pk': 'a', 'sk': 1}}", f"DROP TABLE {name}",
                          f"DELETE FROM {name} WHERE pk = 'a' AND sk = 1"):
            with pytest.raises(ValidationException) as caught:
                db.execute(statement)
            assert "read-only" in caught.value.message
        assert endpoint.sent(before) == []
        assert db.execute(f"SELECT * FROM {name} WHERE pk = 'a'").items == []


def test_a_remote_connection_defaults_to_warn_and_names_where_it_is(served):
    with served.connect() as db:
        assert db.scan_policy == "warn" and db.where == served.url and db.remote and db.path is None
    with pytest.raises(ValueError, match="not both"):
        partiql.connect("file.db", endpoint_url=served.url)


def test_the_catalog_follows_ddl(served):
    with served.connect() as db:
        name = new_table(db)
        assert db.explain(f"SELECT * FROM {name} WHERE g = 'x'").full_table_scan
        db.execute(f"ALTER TABLE {name} CREATE GSI (ByG ON (g STRING HASH) PROJECTING ALL)")
        assert db.explain(f'SELECT * FROM "{name}"."ByG" WHERE g = \'x\'').access_path == f"Query on {name}.ByG"


def test_a_file_held_by_partiql_serve_is_reached_through_the_server(tmp_path, capsys):
    from partiql.server import Server
    from partiql.shell import cli

    path = tmp_path / "shared.db"
    owner = partiql.connect(path)
    owner.execute("CREATE TABLE Shared PRIMARY KEY (pk STRING HASH)")
    with Server(owner, port=0) as server:
        with partiql.connect(path) as db:  # a notebook, a script: through the server
            assert db.remote and db.where == server.url
            db.execute("INSERT INTO Shared VALUE {'pk': 'from-library'}")
        assert cli.main([str(path), "-e", "INSERT INTO Shared VALUE {'pk': 'from-shell'}"]) == 0
        assert f"is served at {server.url}: connected through it" in capsys.readouterr().err
        found = owner.execute("SELECT * FROM Shared WHERE pk IN ['from-library', 'from-shell']").items
        assert sorted(item["pk"] for item in found) == ["from-library", "from-shell"]
    with pytest.raises(partiql.DatabaseLocked) as caught:  # no longer served: held, no URL
        partiql.connect(path)
    assert caught.value.url is None
    owner.close()


def test_batches_and_transactions_write_on_moto_too(moto):
    with moto.connect() as db:
        name = new_table(db, sort="STRING")
        results = db.execute_batch([f"INSERT INTO {name} VALUE {{'pk': 'a', 'sk': '1'}}",
                                    f"INSERT INTO {name} VALUE {{'pk': 'b', 'sk': '1'}}"])
        assert [result.plan.kind for result in results] == ["PutItem", "PutItem"]
        db.execute_transaction([f"INSERT INTO {name} VALUE {{'pk': 'c', 'sk': '1'}}"])
        assert sorted(db.execute(f"SELECT pk FROM {name}").items, key=repr) == [{"pk": k} for k in "abc"]


class Creating:
    """A client whose tables stay CREATING for ``polls`` DescribeTable calls, then are ACTIVE."""

    def __init__(self, client, polls: int):
        self.client, self.polls = client, polls

    def describe_table(self, **request):
        answer = self.client.describe_table(**request)
        if self.polls > 0:
            self.polls -= 1
            answer["Table"]["TableStatus"] = "CREATING"
        return answer

    def __getattr__(self, name):
        return getattr(self.client, name)


def test_ddl_waits_until_the_table_is_active_and_says_so(served, monkeypatch):
    from partiql.remote import RemoteConnection, connection
    monkeypatch.setattr(connection, "WAIT_POLL", 0.0)
    with served.connect() as plain:
        db = RemoteConnection(endpoint_url=served.url, client=Creating(plain.client, polls=3))
    said: list = []
    db.progress = said.append
    name = f"Remote{next(_names)}"
    db.execute(f"CREATE TABLE {name} PRIMARY KEY (pk STRING HASH)")
    assert said == [f"{name}: CREATING"] * 3
    assert db.describe(name)["TableStatus"] == "ACTIVE"
