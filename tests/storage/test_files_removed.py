"""Files deleted or replaced under an open database, planted links, a refused open, a DDL the disk
refuses: writes are refused once a file is gone (reads go on), closing keeps every acknowledged write,
a link is never followed, an open that refuses writes nothing, and writes recover with the space."""

from __future__ import annotations

import os
import sqlite3

import pytest

import partiql
from partiql.engine.storage import StorageError, write_log
from partiql.engine.storage.sqlite import recovery_path

from .helpers import abandon, create_simple


def _filled(path, n: int = 5):
    db = partiql.connect(path)
    create_simple(db.engine, StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
    for k in range(n):
        db.engine.put_item(TableName="Items", Item={"pk": "a", "sk": k})
    db.engine.storage._fold()  # (some in the file, …)
    for k in range(n, 2 * n):
        db.engine.put_item(TableName="Items", Item={"pk": "a", "sk": k})  # (… some in the log alone)
    return db


def _keys(db) -> list:
    return sorted(int(item["sk"]) for item in db.engine.scan(TableName="Items")["Items"])


def _replace(path: str) -> None:
    """Put another file at ``path`` by renaming it over (what an editor or ``mv`` does)."""
    with open(path + ".other", "wb") as file:
        file.write(b"someone else's file\n")
    os.replace(path + ".other", path)


REMOVALS = {  # what happens to which file -> (the refusal's words, where closing writes everything)
    "the write log deleted": (lambda path: os.remove(write_log.log_path(path)), "its write log", "the file"),
    "the write log replaced": (lambda path: _replace(write_log.log_path(path)), "its write log", "the file"),
    "the database deleted": (os.remove, "the database file was deleted", "a recovery file"),
    "the database replaced": (_replace, "the database file was deleted", "a recovery file"),
}


@pytest.mark.parametrize("remove, words, kept", REMOVALS.values(), ids=REMOVALS)
def test_a_file_gone_refuses_writes_keeps_reads_and_closing_keeps_every_acknowledged_write(tmp_path, remove,
                                                                                           words, kept):
    path = str(tmp_path / "app.db")
    db = _filled(path)
    remove(path)
    for write in (lambda: db.engine.put_item(TableName="Items", Item={"pk": "a", "sk": 99}),
                  lambda: db.execute("DELETE FROM Items WHERE pk = 'a' AND sk = 0"),
                  lambda: db.execute("CREATE TABLE Other PRIMARY KEY (k STRING HASH)")):
        with pytest.raises(StorageError, match=f"^cannot write {path}: {words}.*writes are refused .*Reads go on"):
            write()
    assert _keys(db) == list(range(10))  # (reads go on; nothing refused was applied)
    if kept == "the file":
        db.close()
        reopened = path
        if os.path.exists(write_log.log_path(path)):  # (the file put in its place is not ours: left, refused)
            with pytest.raises(StorageError, match="does not begin as a write log does"):
                partiql.connect(path)
            os.remove(write_log.log_path(path))
    else:
        with pytest.raises(StorageError, match=f"written to {path}.recovered; rename it"):
            db.close()
        reopened = path + ".recovered"
        assert os.path.exists(reopened)
    with partiql.connect(reopened) as again:
        assert _keys(again) == list(range(10))
        records = list(again.engine.streams.records(again.engine.tables["Items"].stream, 0))
        assert len(records) == 10  # (the stream's records with them)
    assert not os.path.exists(path + "-lock")


def test_a_replaced_write_log_is_not_deleted_by_the_fold_that_no_longer_owns_it(tmp_path):
    path = str(tmp_path / "app.db")
    db = _filled(path)
    _replace(write_log.log_path(path))
    db.close()
    assert open(write_log.log_path(path), "rb").read() == b"someone else's file\n"


def test_a_recovery_file_takes_a_new_name(tmp_path):
    path = str(tmp_path / "app.db")
    open(path + ".recovered", "w").close()
    assert recovery_path(path) == path + ".recovered-2"


# ------------------------------------------------------------------------ planted links

@pytest.mark.parametrize("sidecar", ["-lock", "-writes"])
def test_a_planted_link_for_a_sidecar_is_refused_and_its_target_untouched(tmp_path, sidecar):
    path = str(tmp_path / "app.db")
    with partiql.connect(path) as db:
        create_simple(db.engine)
    target = tmp_path / "precious.txt"
    target.write_bytes(b"do not truncate me\n")
    os.symlink(target, path + sidecar)
    with pytest.raises(StorageError, match=f"{path}{sidecar} is a symbolic link"):
        partiql.connect(path)
    assert target.read_bytes() == b"do not truncate me\n" and os.path.islink(path + sidecar)


def test_a_link_planted_as_the_write_log_while_open_is_never_written_through(tmp_path):
    path = str(tmp_path / "app.db")
    db = partiql.connect(path)
    create_simple(db.engine)
    target = tmp_path / "precious.txt"
    target.write_bytes(b"do not truncate me\n")
    os.symlink(target, write_log.log_path(path))  # (no log yet: the first write creates it, exclusively)
    db.engine.put_item(TableName="Items", Item={"pk": "a", "sk": 1})
    assert not os.path.islink(write_log.log_path(path))  # (the link itself removed, never followed)
    db.close()
    assert target.read_bytes() == b"do not truncate me\n"
    with partiql.connect(path) as again:
        assert again.engine.scan(TableName="Items")["Count"] == 1


# ------------------------------------------------------------------------ a refused open writes nothing

def test_an_open_refused_for_a_damaged_item_writes_nothing_not_even_an_identity(tmp_path):
    path = str(tmp_path / "app.db")
    with partiql.connect(path) as db:
        create_simple(db.engine)
        db.engine.put_item(TableName="Items", Item={"pk": "a", "sk": 1})
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("DELETE FROM settings WHERE name = 'identity'")  # (a file from before identities)
    raw.execute("UPDATE items SET crc = crc + 1")
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()
    before = {name: open(tmp_path / name, "rb").read() for name in os.listdir(tmp_path)}
    with pytest.raises(StorageError, match="damaged"):
        partiql.connect(path)
    after = {name: open(tmp_path / name, "rb").read() for name in os.listdir(tmp_path)}
    assert {name: data for name, data in after.items() if not name.endswith("-shm")} == \
        {name: data for name, data in before.items() if not name.endswith("-shm")}


# ------------------------------------------------------------------------ a DDL the disk refuses

def _refuse(path: str, table: str, refuse: bool = True) -> None:
    other = sqlite3.connect(path, isolation_level=None)
    if refuse:
        other.execute(f"CREATE TRIGGER full_{table} BEFORE INSERT ON {table} BEGIN SELECT RAISE(ABORT, 'database "
                      "or disk is full'); END")
    else:
        other.execute(f"DROP TRIGGER full_{table}")
    other.close()


def test_writes_recover_once_the_disk_takes_a_refused_table_definition(tmp_path):
    path = str(tmp_path / "app.db")
    db = partiql.connect(path)
    create_simple(db.engine)
    _refuse(path, "tables")
    with pytest.raises(StorageError, match="database or disk is full"):
        db.execute("CREATE TABLE Later PRIMARY KEY (k STRING HASH)")
    assert "Later" in db.engine.table_names()  # (an InternalServerError: its outcome is the caller's to check)
    with pytest.raises(StorageError, match="not yet saved: the definition of table 'Later'; writes resume"):
        db.engine.put_item(TableName="Items", Item={"pk": "a", "sk": 1})
    assert db.engine.scan(TableName="Items")["Count"] == 0
    _refuse(path, "tables", refuse=False)
    db.engine.put_item(TableName="Items", Item={"pk": "a", "sk": 1})  # (space is back: saved, then written)
    db.engine.put_item(TableName="Later", Item={"k": "x"})
    abandon(db)  # (ends as a killed process: what was acknowledged is on disk)
    with partiql.connect(path) as again:
        assert again.engine.scan(TableName="Later")["Items"] == [{"k": "x"}]
        assert again.engine.scan(TableName="Items")["Count"] == 1
