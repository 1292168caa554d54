"""``partiql serve`` as a process under faults of its files: the write log or the database deleted while
served, planted links, a second server for a served file, a DDL the disk refuses then space freed."""

from __future__ import annotations

import http.client
import os
import re
import resource
import signal
import subprocess
import sys

import pytest

import partiql

from .conftest import HASH_RANGE
from .test_serve_command import post, start, stop


def _client(url: str) -> http.client.HTTPConnection:
    return http.client.HTTPConnection("127.0.0.1", int(url.rpartition(":")[2]), timeout=30)


def _put(connection, n: int) -> tuple[int, dict]:
    return post(connection, "PutItem", {"TableName": "Tee", "Item": {"pk": {"S": "p"}, "sk": {"N": str(n)}}})


def _count(path: str) -> int:
    with partiql.connect(path) as db:
        return db.engine.scan(TableName="Tee")["Count"]


@pytest.mark.parametrize("removed", ["-writes", ""], ids=["the write log", "the database file"])
def test_a_file_deleted_while_served_refuses_writes_and_loses_nothing_acknowledged(tmp_path, removed):
    path = str(tmp_path / "served.db")
    process, url, _ = start(path)
    try:
        connection = _client(url)
        assert post(connection, "CreateTable", {"TableName": "Tee", **HASH_RANGE})[0] == 200
        acknowledged = sum(_put(connection, n)[0] == 200 for n in range(300))
        assert acknowledged == 300
        os.remove(path + removed)
        status, body = _put(connection, 1000)
        assert status == 500 and body["__type"].endswith("InternalServerError")
        assert "was deleted or replaced while open; writes are refused" in body["message"]
        status, body = post(connection, "GetItem", {"TableName": "Tee", "Key": {"pk": {"S": "p"}, "sk": {"N": "7"}}})
        assert status == 200 and body["Item"]["sk"] == {"N": "7"}  # (reads go on)
        connection.close()
    finally:
        code, err = stop(process)
    assert "Traceback" not in err
    if removed:
        assert code == 0 and _count(path) == 300
    else:
        assert code == 1 and f"written to {path}.recovered" in err
        assert _count(path + ".recovered") == 300


@pytest.mark.parametrize("sidecar", ["-lock", "-writes"])
def test_a_planted_link_is_refused_by_serve_and_its_target_untouched(tmp_path, sidecar):
    path = str(tmp_path / "served.db")
    with partiql.connect(path) as db:
        db.execute("CREATE TABLE Tee PRIMARY KEY (pk STRING HASH)")
    target = tmp_path / "precious.txt"
    target.write_bytes(b"keep me\n")
    os.symlink(target, path + sidecar)
    result = subprocess.run([sys.executable, "-m", "partiql.shell", "serve", "--port", "0", path],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and f"{path}{sidecar} is a symbolic link" in result.stderr
    assert "Traceback" not in result.stderr and target.read_bytes() == b"keep me\n"


def test_a_second_serve_of_a_served_file_says_where_it_is_served(tmp_path):
    path = str(tmp_path / "served.db")
    process, url, _ = start(path)
    try:
        result = subprocess.run([sys.executable, "-m", "partiql.shell", "serve", "--port", "0", path],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 1 and "Traceback" not in result.stderr
        assert f"cannot serve {path}: it is already served at {url}" in result.stderr
    finally:
        stop(process)


def _no_core_and_ignore_xfsz() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # (a write past the limit fails with EFBIG instead)


def _serve_a_disk_to_fill(path: str) -> subprocess.Popen:
    """``partiql serve path``, in a process whose file sizes a test may cap (``_fill_disk``)."""
    return subprocess.Popen([sys.executable, "-m", "partiql.shell", "serve", "--port", "0", path],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_no_core_and_ignore_xfsz)


def _with_table(process) -> http.client.HTTPConnection:
    """A connection to the served database, with table Tee created."""
    connection = _client(process.stdout.readline().split("listening on ")[1].split(",")[0])
    assert post(connection, "CreateTable", {"TableName": "Tee", **HASH_RANGE})[0] == 200
    return connection


def _fill_disk(process, full: bool = True) -> None:
    """The disk is full for the server alone (RLIMIT_FSIZE: no write past a file's current end), or no more."""
    resource.prlimit(process.pid, resource.RLIMIT_FSIZE,
                     (1 if full else resource.RLIM_INFINITY, resource.RLIM_INFINITY))


@pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="needs Linux's prlimit to fill the disk of one process")
def test_a_ddl_refused_by_a_full_disk_then_space_freed_writes_recover_without_a_restart(tmp_path):
    """The disk is full for the server alone (RLIMIT_FSIZE: no write past a file's current end), then
    freed: the CreateTable refused with a 500 is saved by the next write, and every write succeeds."""
    path = str(tmp_path / "served.db")
    process = _serve_a_disk_to_fill(path)
    try:
        connection = _with_table(process)
        assert _put(connection, 1)[0] == 200
        _fill_disk(process)
        status, body = post(connection, "CreateTable", {"TableName": "You", **HASH_RANGE})
        assert status == 500 and body["message"].startswith(f"cannot write {path}: ")
        status, body = _put(connection, 2)
        assert status == 500 and "not yet saved: the definition of table 'You'; writes resume" in body["message"]
        _fill_disk(process, full=False)
        assert _put(connection, 2)[0] == 200
        assert post(connection, "PutItem", {"TableName": "You", "Item": {"pk": {"S": "u"}, "sk": {"N": "1"}}})[0] == 200
        connection.close()
    finally:
        code, err = stop(process)
    assert code == 0 and "Traceback" not in err
    with partiql.connect(path) as db:
        assert db.engine.scan(TableName="Tee")["Count"] == 2 and db.engine.scan(TableName="You")["Count"] == 1


@pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="needs Linux's prlimit to fill the disk of one process")
def test_sigterm_on_a_full_disk_says_nothing_is_lost_and_the_next_open_folds_the_log(tmp_path):
    """Refused writes are logged once per interval with a count; a stop while the disk is still full keeps
    every acknowledged write in the write log, says so, and the next open folds it in."""
    path = str(tmp_path / "served.db")
    process = _serve_a_disk_to_fill(path)
    try:
        connection = _with_table(process)
        assert all(_put(connection, n)[0] == 200 for n in range(50))
        _fill_disk(process)
        refused = [_put(connection, 100 + n) for n in range(30)]
        connection.close()
    finally:
        code, err = stop(process)
    assert {status for status, _ in refused} == {500}
    assert refused[0][1]["message"] == f"cannot write {path}-writes: File too large"
    logged = [line for line in err.splitlines() if "answered 500" in line]
    assert len(logged) == 2 and re.search(r"\(× 29 more in the last \d+ s\)$", logged[1]), logged
    assert code == 1 and "Traceback" not in err
    assert (f"nothing acknowledged is lost: the write log {path}-writes is folded in at the next open"
            in err.splitlines()[-1])
    assert _count(path) == 50
