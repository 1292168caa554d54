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
    failed = []

    def typist():
        try:
            for line in lines:
                if line in waits:
                    expected, action = waits[line]
                    deadline = time.monotonic() + 30
                    while expected not in out.getvalue() and time.monotonic() < deadline:
                        time.sleep(0.02)
                    action()
                pipe.send_text(line + "\r")
        except Exception as error:  # noqa: BLE001 - (reported below: the shell must not wait for ever)
            failed.append(error)
        finally:
            pipe.send_text("\x04")

    with create_pipe_input() as pipe:
        thread = threading.Thread(target=typist)
        thread.start()
        status = repl.run(session, input=pipe, output=DummyOutput())
        thread.join()
    assert not failed, failed
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


def test_a_served_file_s_tools_go_through_its_server_and_a_vanished_server_s_file_opens_here(make_session, tmp_path,
                                                                                            monkeypatch):
    """``.describe``, ``.heat``, ``.backup`` and ``.tail`` on a file another process serves; then its server stops
    mid-transaction, the shell offers the free file, and the queue commits into it."""
    from partiql.shell import tail

    path = str(tmp_path / "shop.db")
    db = partiql.connect(path)
    db.execute("CREATE TABLE Orders PRIMARY KEY (pk STRING HASH, sk NUMBER RANGE) STREAM NEW_IMAGE")
    for n in range(12):
        db.execute("INSERT INTO Orders VALUE {'pk': ?, 'sk': ?}", [f"u{n % 3}", n])
    server = Server(db, port=0).start()
    remote = partiql.connect(path)
    assert remote.served_file == path
    session, streams = make_session(remote, interactive=True)
    monkeypatch.chdir(tmp_path)
    live = threading.Event()
    following = tail.follow
    monkeypatch.setattr(tail, "follow", lambda session, argument: following(session, argument, stop=live.is_set))

    def write_live():
        db.execute("INSERT INTO Orders VALUE {'pk': 'live', 'sk': 99}")

    def stop_server():
        server.stop()
        db.close()  # (the server's process is gone: so is its lock)

    lines = [".describe Orders", ".heat Orders", ".backup copy.db", ".tail Orders", "",
             "BEGIN;", "INSERT INTO Orders VALUE {'pk': 'q', 'sk': 1};", "COMMIT;", "y",
             "COMMIT;", "SELECT pk, sk FROM Orders WHERE pk = 'q';"]
    waits = {"": ("000000000000000000012", write_live),  # (the twelfth record shown: write one more)
             "BEGIN;": ("'live'", live.set),
             "COMMIT;": ("queued (1)", stop_server),
             "y": ("network error", lambda: None)}
    try:
        assert _type(session, lines, streams.out, waits) == 0
        assert not session.db.remote
        assert session.db.execute("SELECT * FROM Orders WHERE pk = 'q'").items == [{"pk": "q", "sk": 1}]
    finally:
        server.stop()  # (a second stop does nothing)
        session.db.close()
    out = streams.out.getvalue()
    assert "Traceback" not in out + streams.err.getvalue()
    assert "Partitions:" in out and "Partition keys:" in out and "table: 3 partition-key values for 12 items" in out
    assert "Orders: 8 partitions, the last" in out and "top keys by consumed units: 'u0'" in out
    assert "backed up to copy.db" in out
    with partiql.connect(tmp_path / "copy.db") as copy:
        assert len(copy.execute("SELECT * FROM Orders").items) == 12
    assert "'live'" in out and "13 changes" in out
    assert "nothing was written; the 1 statements stay queued" in out
    assert f"opened {path}: statements run on the file itself" in out
    assert "transaction committed: 1 statements" in out


def test_a_script_is_told_how_to_open_a_free_file_but_never_switches(make_session, tmp_path):
    path = str(tmp_path / "shop.db")
    db = partiql.connect(path)
    db.execute("CREATE TABLE Orders PRIMARY KEY (pk STRING HASH)")
    server = Server(db, port=0).start()
    remote = partiql.connect(path)
    server.stop()
    db.close()
    session, streams = make_session(remote)
    session.run_script("SELECT * FROM Orders WHERE pk = 'a';")
    remote.close()
    err = streams.err.getvalue()
    assert f"hint: the server of {path} is gone and the file is free: partiql {path} opens it here" in err
    assert session.db is remote
