"""One owner at a time: a second opener gets a clear error naming the file and the holder's pid."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

import partiql
from partiql.engine.storage import DatabaseLocked

from .helpers import create_simple

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the owner lock is POSIX flock")

OPEN = textwrap.dedent("""
    import sys, partiql
    try:
        db = partiql.connect(sys.argv[1])
    except partiql.DatabaseLocked as error:
        print(error)
        sys.exit(3)
    print(len(db.table_names()), flush=True)
    if len(sys.argv) > 2:
        sys.stdin.read()  # hold the file until told to stop (or killed)
""")


def _open_elsewhere(path, *, hold: bool = False) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", OPEN, str(path)] + (["hold"] if hold else []),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_second_connection_in_this_process_is_refused(path):
    with partiql.connect(path):
        with pytest.raises(DatabaseLocked) as caught:
            partiql.connect(path)
    message = str(caught.value)
    assert str(path) in message and f"pid {os.getpid()}" in message and "this process" in message
    with partiql.connect(path):  # released on close
        pass


def test_another_process_is_refused_with_the_holders_pid(path):
    with partiql.connect(path) as db:
        create_simple(db.engine)
        other = _open_elsewhere(path)
        out, err = other.communicate(timeout=30)
    assert other.returncode == 3, err
    assert str(path) in out and f"another process (pid {os.getpid()})" in out
    other = _open_elsewhere(path)  # once closed, the file is free
    out, err = other.communicate(timeout=30)
    assert other.returncode == 0 and out.strip() == "1", err


def test_a_killed_holder_releases_the_file(path):
    holder = _open_elsewhere(path, hold=True)
    assert holder.stdout.readline().strip() == "0"
    with pytest.raises(DatabaseLocked, match=f"pid {holder.pid}"):
        partiql.connect(path)
    holder.send_signal(signal.SIGKILL)
    holder.wait(30)
    with partiql.connect(path) as db:
        assert db.table_names() == []


def test_memory_as_sqlite_spells_it_is_a_database_in_memory_in_every_process(tmp_path):
    """``connect(":memory:")`` takes no file and no lock: two programs in one folder each have their own
    (it was once a SQLite in-memory file with a lock file named ":memory:-lock" in the working folder)."""
    script = ("import partiql; db = partiql.connect(':memory:'); "
              "db.execute(\"CREATE TABLE Things PRIMARY KEY (pk STRING HASH)\"); print(db.engine.storage.durable)")
    with partiql.connect(":memory:") as db:
        assert not db.engine.storage.durable
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                              cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, "False\n"), done.stderr
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(ValueError, match="read_only takes a database file"):
        partiql.connect(":memory:", read_only=True)
