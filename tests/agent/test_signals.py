"""``partiql mcp`` ends quietly and closes its database however its serving ends: the client closing stdin,
Ctrl-C, SIGTERM (no traceback; the file's lock is released, its writes kept)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

import partiql

from .conftest import Agent


def test_closing_stdin_ends_it_and_keeps_what_was_written(tmp_path):
    path = tmp_path / "kept.db"
    agent = Agent(str(path))
    agent.ok("create_table", {"statement": "CREATE TABLE Kept PRIMARY KEY (pk STRING HASH)"})
    agent.ok("execute", {"statement": "INSERT INTO Kept VALUE {'pk': 'a'}"})
    agent.close()
    with partiql.connect(str(path)) as db:  # (the lock is free: the server closed the file)
        assert [item["pk"] for item in db.execute("SELECT * FROM Kept WHERE pk = 'a'")] == ["a"]


@pytest.mark.parametrize("sent, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_ends_it_quietly_and_releases_the_file(tmp_path, sent, status):
    path = tmp_path / "signalled.db"
    server = subprocess.Popen([sys.executable, "-m", "partiql.shell", "mcp", str(path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while not path.exists() and time.monotonic() < deadline:  # (opened: the database file exists)
        time.sleep(0.05)
    time.sleep(0.5)
    server.send_signal(sent)
    _, err = server.communicate(timeout=30)
    assert server.returncode == status and err == b""
    partiql.connect(str(path)).close()
