"""Sharing a database file (issue #13 point 7): while one process owns ``game.db``, another reads a
consistent snapshot of what was committed (the library with ``read_only=True``, the shell by itself),
every write there is refused whole with a message saying how to share, and a clean exit leaves no lock
file behind."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import pytest

import partiql
from partiql.engine.storage import DatabaseLocked, StorageError

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the owner lock is POSIX flock")

# The owner: opens the file, runs each statement it is sent on stdin, says "ok" after each.
OWNER = textwrap.dedent("""
    import sys, partiql
    db = partiql.connect(sys.argv[1])
    db.execute("CREATE TABLE IF NOT EXISTS Game PRIMARY KEY (pk STRING HASH)")
    print("ok", flush=True)
    for line in sys.stdin:
        db.execute(line)
        print("ok", flush=True)
""")


class Owner:
    def __init__(self, path):
        self.process = subprocess.Popen([sys.executable, "-c", OWNER, str(path)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.process.stdout.readline() == "ok\n", self.process.stderr.read()

    def run(self, statement: str) -> None:
        self.process.stdin.write(statement + "\n")
        self.process.stdin.flush()
        assert self.process.stdout.readline() == "ok\n"

    def stop(self) -> None:
        self.process.stdin.close()
        code = self.process.wait(30)
        errors = self.process.stderr.read()
        self.process.stdout.close()
        self.process.stderr.close()
        assert code == 0, errors


@pytest.fixture
def owner(path):
    found = Owner(path)
    found.run("INSERT INTO Game VALUE {'pk': 'committed'}")
    yield found
    if found.process.poll() is None:
        found.stop()


def _keys(db) -> list:
    return sorted(item["pk"] for item in db.execute("SELECT * FROM Game").items)


def test_a_second_process_reads_a_snapshot_of_what_was_committed(path, owner):
    with partiql.connect(path, read_only=True) as reader:
        owner.run("INSERT INTO Game VALUE {'pk': 'later'}")  # after the snapshot: not in it
        assert _keys(reader) == ["committed"]
    with partiql.connect(path, read_only=True) as again:  # a new snapshot sees it
        assert _keys(again) == ["committed", "later"]


@pytest.mark.parametrize("write", [
    "INSERT INTO Game VALUE {'pk': 'mine'}",
    "CREATE TABLE Other PRIMARY KEY (pk STRING HASH)",
    "DROP TABLE Game",
    "ALTER TABLE Game SET BILLING MODE PROVISIONED (5 RCU, 5 WCU)",
])
def test_a_write_on_a_snapshot_is_refused_whole_and_says_how_to_share(path, owner, write):
    with partiql.connect(path, read_only=True) as reader:
        before = (reader.table_names(), _keys(reader), reader.describe("Game")["BillingModeSummary"])
        with pytest.raises(StorageError) as refused:
            reader.execute(write)
        assert (reader.table_names(), _keys(reader), reader.describe("Game")["BillingModeSummary"]) == before
    message = str(refused.value)
    assert f"process {owner.process.pid}" in message and f"partiql serve {path}" in message
    assert "opened read-only" in message


def test_the_refusal_to_open_for_writing_says_how_to_share(path, owner):
    with pytest.raises(DatabaseLocked) as refused:
        partiql.connect(path)
    assert refused.value.holder == f"another process (pid {owner.process.pid})"
    assert "read_only=True" in str(refused.value) and f"partiql serve {path}" in str(refused.value)


@pytest.mark.parametrize("how", ["close", "exit without close"])
def test_no_lock_file_is_left_after_a_clean_exit(path, how):
    script = ("import sys, partiql; db = partiql.connect(sys.argv[1]); "
              + ("db.close()" if how == "close" else "pass"))
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
    with partiql.connect(path):  # and the file opens again for writing
        assert (path.parent / (path.name + "-lock")).exists()
    assert not (path.parent / (path.name + "-lock")).exists()


@pytest.mark.parametrize("target, words", [
    ("missing.db", "no such database file"),
    (None, "read_only takes a database file"),
])
def test_read_only_needs_a_database_file(tmp_path, target, words):
    with pytest.raises((StorageError, ValueError), match=words):
        partiql.connect(None if target is None else tmp_path / target, read_only=True)


def test_the_shell_reads_a_held_file_and_says_so(path, owner):
    done = subprocess.run([sys.executable, "-m", "partiql.shell", str(path), "--format", "jsonl",
                           "-e", "SELECT * FROM Game;", "-e", "INSERT INTO Game VALUE {'pk': 'x'};"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stdout == '{"pk": "committed"}\n'
    assert re.search(rf"partiql: {re.escape(str(path))} is open in another process \(pid {owner.process.pid}\): "
                     rf"reading a snapshot of {re.escape(str(path))} as of \d\d:\d\d:\d\d; writes are refused "
                     r"\(\.refresh reads it again\)\. To share it between programs: partiql serve", done.stderr)
    assert "storage error: cannot write" in done.stderr and "internal error" not in done.stderr
    owner.stop()
    with partiql.connect(path) as db:
        assert _keys(db) == ["committed"]
