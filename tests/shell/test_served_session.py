"""Issue 38 points 1 and 2, typed into the interactive shell's own loop (prompt_toolkit's pipe input): a shell on
an endpoint whose server stops mid-transaction says so in one line and keeps its queue, which a COMMIT sends once
the server is back; statements are planned as they are queued; a failed COMMIT keeps the queue."""

from __future__ import annotations

import threading
import time

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

import partiql
from partiql.shell import repl

pytest.importorskip("boto3")

from partiql.remote import RemoteConnection  # noqa: E402 - (boto3 first)
from partiql.server import Server  # noqa: E402


def _type(session, lines: list, out, waits: dict) -> int:
    """Type ``lines``; before a line that ``waits`` names, wait for the text it expects, then run its action."""
    def typist():
        for line in lines + ["\x04"]:
            if line in waits:
                expected, action = waits[line]
                deadline = time.monotonic() + 30
                while expected not in out.getvalue() and time.monotonic() < deadline:
                    time.sleep(0.02)
                action()
            pipe.send_text(line + "\r")

    with create_pipe_input() as pipe:
        thread = threading.Thread(target=typist)
        thread.start()
        status = repl.run(session, input=pipe, output=DummyOutput())
        thread.join()
    return status


def test_a_server_stopped_mid_transaction_leaves_the_shell_and_its_queue(make_session):
    db = partiql.connect()
    db.execute("CREATE TABLE Tab PRIMARY KEY (pk STRING HASH)")
    server = Server(db, port=0).start()
    port = server.port
    remote = RemoteConnection(endpoint_url=server.url, region="us-east-1")
    session, streams = make_session(remote, interactive=True)
    servers = [server]

    def stop():
        servers[0].stop()

    def restart():
        servers[0] = Server(db, port=port).start()

    lines = ["BEGIN;", "INSERT INTO Tab VALUE {'pk': 'a'};", "INSERT INTO Tab VALUE {'pk': 'b'};", "COMMIT;",
             ".queue", "COMMIT;", "SELECT pk FROM Tab WHERE pk = 'a';"]
    waits = {"INSERT INTO Tab VALUE {'pk': 'b'};": ("queued (1)", stop),
             "COMMIT;": ("queued (2)", lambda: None),
             ".queue": ("stay queued", restart)}
    try:
        assert _type(session, lines, streams.out, waits) == 0
    finally:
        servers[0].stop()
        remote.close()
    out = streams.out.getvalue()
    assert "Traceback" not in out + streams.err.getvalue()
    assert (f"network error: cannot reach http://127.0.0.1:{port} (connection refused): is partiql serve still "
            "running?") in out
    assert "nothing was written; the 2 statements stay queued: COMMIT again, .queue shows them, ROLLBACK drops them" \
        in out
    assert "transaction: 2 queued" in out
    assert "transaction committed: 2 statements" in out
    assert sorted(item["pk"] for item in db.execute("SELECT * FROM Tab").items) == ["a", "b"]
    db.close()


def test_a_statement_is_planned_as_it_is_queued(make_session):
    db = partiql.connect()
    db.execute("CREATE TABLE Orders PRIMARY KEY (pk STRING HASH)")
    session, streams = make_session(db, interactive=True)
    lines = ["BEGIN;", "INSERT INTO Ordrs VALUE {'pk': 'a'};", "INSERT INTO Orders VALUE {'pk': 'a'};",
             "UPDATE Orders SET n = 1 WHERE pk = 'z';", ".queue drop 2", ".queue", "COMMIT;"]
    assert _type(session, lines, streams.out, {}) == 0
    out = streams.out.getvalue()
    assert "not queued: fix it and enter it again" in out
    assert "hint: there is no table Ordrs: did you mean Orders?" in out  # (at once, not at COMMIT)
    assert "queued (1)" in out and "queued (2)" in out and "dropped 2: UPDATE Orders SET n = 1" in out
    assert "transaction committed: 1 statements" in out
    assert db.execute("SELECT * FROM Orders").items == [{"pk": "a"}]


def test_a_transaction_s_0_based_statement_is_named_by_its_queue_number(make_session):
    db = partiql.connect()
    db.execute("CREATE TABLE Tab PRIMARY KEY (pk STRING HASH)")
    session, streams = make_session(db, interactive=True)
    lines = [".scan allow", "BEGIN;", "SELECT * FROM Tab WHERE pk = 'a';", "SELECT * FROM Tab;", "COMMIT;", "ROLLBACK;"]
    assert _type(session, lines, streams.out, {}) == 0
    out = streams.out.getvalue()
    assert "Validation failed in TransactStatements[1]: Select statements within ExecuteTransaction" in out
    assert "TransactStatements[1] is queued statement 2: SELECT * FROM Tab" in out


@pytest.mark.parametrize("block, expected", [(None, "partiql> "), (object(), "partiql*> ")])
def test_the_prompt_shows_an_open_block(block, expected):
    assert repl.prompt_message(partiql.connect(), block) == expected
