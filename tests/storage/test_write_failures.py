"""A write the disk or SQLite refuses is a StorageError naming the file, on every path a write takes
(the write log, a fold of it, a transaction of its own, the fold on close), and memory keeps what the
files hold: nothing is half-applied, nothing acknowledged is lost."""

from __future__ import annotations

import errno
import os
import sqlite3

import pytest

import partiql
from partiql.engine.storage import StorageError, log_format, write_log
from partiql.engine.storage.codec import encode_item

from .helpers import abandon

PUT_B = lambda db: db.engine.put_item(TableName="Things", Item={"pk": "b"})  # noqa: E731
TWO = lambda db: db.engine.batch_write_item(RequestItems={"Things": [  # noqa: E731
    {"PutRequest": {"Item": {"pk": "b"}}}, {"PutRequest": {"Item": {"pk": "c"}}}]})
RECORDED_B = lambda db: db.engine.put_item(TableName="Recorded", Item={"pk": "b"})  # noqa: E731

# (the write, the settings that send it down a path): every path reaches SQLite, which refuses
REFUSED = {
    "one item, folding a full log first": (PUT_B, {"FOLD_BYTES": 0}),
    "two items, folding a full log first": (TWO, {"FOLD_BYTES": 0}),
    "an item and its stream record, folding a full log first": (RECORDED_B, {"FOLD_BYTES": 0}),
    "two items, too many for the log (a transaction)": (TWO, {"LOGGED_AT_MOST": 1}),
}


def _database(path):
    db = partiql.connect(path)
    db.execute("CREATE TABLE Things PRIMARY KEY (pk STRING HASH)")
    db.engine.create_table(TableName="Recorded", AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                           KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}], BillingMode="PAY_PER_REQUEST",
                           StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
    for table in ("Things", "Recorded"):
        db.engine.put_item(TableName=table, Item={"pk": "a"})
    return db


def _refuse_inserts(path, refuse: bool = True) -> None:
    other = sqlite3.connect(path, isolation_level=None)
    if refuse:
        other.execute("CREATE TRIGGER refuse BEFORE INSERT ON items BEGIN SELECT RAISE(ABORT, 'no room'); END")
    else:
        other.execute("DROP TRIGGER refuse")
    other.close()


def _items(db) -> dict:
    return {table: db.engine.scan(TableName=table)["Items"] for table in ("Things", "Recorded")}


@pytest.mark.parametrize("write, limits", REFUSED.values(), ids=REFUSED)
def test_a_write_sqlite_refuses_names_the_file_and_changes_nothing(tmp_path, monkeypatch, write, limits):
    path = tmp_path / "refused.db"
    db = _database(path)
    _refuse_inserts(path)
    for name, value in limits.items():
        monkeypatch.setattr(write_log, name, value)
    with pytest.raises(StorageError, match=f"^cannot write {path}: no room$"):
        write(db)
    assert _items(db) == {"Things": [{"pk": "a"}], "Recorded": [{"pk": "a"}]}
    monkeypatch.undo()
    _refuse_inserts(path, refuse=False)
    write(db)  # (the log that could not be folded is still there, and folds now)
    expected = _items(db)
    db.close()
    with partiql.connect(path) as again:
        assert _items(again) == expected and {"pk": "b"} in expected["Things"] + expected["Recorded"]


def test_a_fold_refused_on_close_keeps_the_log_for_the_next_open(tmp_path):
    path = tmp_path / "closing.db"
    db = _database(path)
    PUT_B(db)
    _refuse_inserts(path)
    with pytest.raises(StorageError) as refused:
        db.close()
    assert refused.value.args[0] == (f"cannot write {path}: no room; nothing acknowledged is lost: the write log "
                                     f"{path}-writes is folded in at the next open")
    assert os.path.getsize(write_log.log_path(str(path))) > log_format.HEADER.size
    _refuse_inserts(path, refuse=False)
    with partiql.connect(path) as again:
        assert {"pk": "b"} in _items(again)["Things"]
    assert not os.path.exists(write_log.log_path(str(path)))


class _Full:
    """``os.write`` on a full disk: ``allowed`` bytes of the next write go through, then ENOSPC."""

    def __init__(self, allowed: int):
        self.allowed, self.real = allowed, os.write

    def __call__(self, fd, data):
        if self.allowed <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written = self.real(fd, bytes(data[:self.allowed]))
        self.allowed -= written
        return written


@pytest.mark.parametrize("allowed", [0, 5, 30], ids=["nothing written", "a few bytes", "most of the record"])
def test_an_append_the_disk_refuses_is_taken_back(tmp_path, monkeypatch, allowed):
    path = tmp_path / "full.db"
    db = _database(path)
    log = write_log.log_path(str(path))
    size = os.path.getsize(log)
    monkeypatch.setattr(write_log.os, "write", _Full(allowed))
    with pytest.raises(StorageError, match=f"^cannot write {log}: No space left on device$"):
        PUT_B(db)
    monkeypatch.undo()
    assert os.path.getsize(log) == size  # (a torn record would hide every later one)
    assert _items(db)["Things"] == [{"pk": "a"}]
    db.engine.put_item(TableName="Things", Item={"pk": "c"})  # the session goes on, and its log reads whole
    pending = write_log.read(str(path))
    assert pending.tail == 0 and pending.rows[-1][1][3] == encode_item({"pk": "c"})
    db.close()
    with partiql.connect(path) as again:
        assert sorted(item["pk"] for item in _items(again)["Things"]) == ["a", "c"]


def test_an_append_that_cannot_be_taken_back_is_folded_from_memory_by_the_next_write(tmp_path, monkeypatch):
    """The log's end is unknown (a torn record that could not be cut off): the next write folds what
    memory holds into the file first, and is refused, saying why, while that fold cannot be written."""
    path = tmp_path / "broken.db"
    db = _database(path)
    monkeypatch.setattr(write_log.os, "write", _Full(5))
    monkeypatch.setattr(write_log.os, "ftruncate", _Full(0))
    with pytest.raises(StorageError, match="No space left on device.*end could not be restored"):
        PUT_B(db)
    monkeypatch.undo()
    _refuse_inserts(path)
    with pytest.raises(StorageError, match="no room .*not yet saved: the write log, whose end .* writes resume"):
        db.engine.put_item(TableName="Things", Item={"pk": "c"})
    _refuse_inserts(path, refuse=False)
    db.engine.put_item(TableName="Things", Item={"pk": "c"})  # (space is back: the fold, then the write)
    expected = _items(db)
    abandon(db)  # (as a killed process would: what is acknowledged must be on disk already)
    with partiql.connect(path) as again:
        assert _items(again) == expected
        assert sorted(item["pk"] for item in expected["Things"]) == ["a", "c"]
