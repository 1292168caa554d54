"""Issue 38 point 1: the planner is local, so every hint appears on a remote connection as on a local one — a
table of statements, run both ways against the same tables (a local connection, and the same database served)."""

from __future__ import annotations

import pytest

import partiql
from partiql.engine.errors import DynamoDBError

pytest.importorskip("boto3")

from partiql.server import Server  # noqa: E402

STATEMENTS = {  # statement -> a hint it must get (the tables are Orders, keyed on pk, with a GSI on status)
    "a misspelt table": ("SELECT * FROM Ordrs WHERE pk = 'a'", "there is no table Ordrs: did you mean Orders?"),
    "a double-quoted string": ('SELECT * FROM Orders WHERE pk = "a"', "strings take single quotes"),
    "an index that would make it a Query": ("SELECT * FROM Orders WHERE status = 'open'",
                                            "Orders.bystatus is keyed on status"),
    "a near-miss key name": ("SELECT * FROM Orders WHERE PK = 'a'", "pk"),
    "a misspelt index": ("SELECT * FROM \"Orders\".\"bystatu\" WHERE status = 'x'", "did you mean bystatus?"),
    "a misspelt keyword": ("SELEC * FROM Orders WHERE pk = 'a'", "SELECT"),
    "an aggregate": ("SELECT COUNT(*) FROM Orders WHERE pk = 'a'", "no aggregates"),
    "a string left open": ("SELECT * FROM Orders WHERE pk = 'a;", "the string opened at 1:33 ('a;…) is never closed"),
    "a provisioned GSI without throughput": (
        "CREATE TABLE Prov PRIMARY KEY (pk STRING HASH) BILLING MODE PROVISIONED (5 RCU, 7 WCU) "
        "GSI (byX ON (x STRING HASH) PROJECTING ALL)", "PROJECTING ALL PROVISIONED (5 RCU, 7 WCU)) gives it"),
}


def _hints(connection, statement: str) -> list:
    try:
        return connection.execute(statement).warnings
    except DynamoDBError as error:
        return getattr(error, "hints", [])


@pytest.fixture(scope="module")
def both():
    local = partiql.connect(scan_policy="allow")
    local.execute("CREATE TABLE Orders PRIMARY KEY (pk STRING HASH) "
                  "GSI (bystatus ON (status STRING HASH) PROJECTING ALL)")
    for n in range(5):
        local.execute(f"INSERT INTO Orders VALUE {{'pk': 'o{n}', 'status': 'open', 'total': {n}}}")
    with Server(local, port=0) as server:
        remote = partiql.connect(endpoint_url=server.url, region="us-east-1", scan_policy="allow")
        yield local, remote
        remote.close()
    local.close()


@pytest.mark.parametrize("statement, expected", STATEMENTS.values(), ids=STATEMENTS)
def test_a_remote_connection_gets_the_local_hints(both, statement, expected):
    local, remote = both
    here, there = _hints(local, statement), _hints(remote, statement)
    assert any(expected in hint for hint in here), here
    assert there == here


@pytest.mark.parametrize("which", ["local", "remote"])
def test_the_hints_come_before_the_scan_question(both, which):
    from partiql.shell.config import Settings
    from partiql.shell.session import Session
    import io

    connection = both[0] if which == "local" else both[1]
    out = io.StringIO()
    session = Session(connection, Settings(timer=False, scan="warn"), interactive=True, stdout=out, stderr=out)
    asked = []
    session.confirm = lambda question: asked.append((question, out.getvalue())) or False
    try:
        session.run_one("SELECT * FROM Orders WHERE status = 'open'")
    finally:
        connection.scan_policy = "allow"
    (question, before), = asked
    assert question == "SCAN of Orders reads the whole table. Run it?"
    assert "hint: Orders.bystatus is keyed on status" in before  # (an informed answer)
    assert "not run" in out.getvalue()
