"""Integrity and backups (#12.6): checksums verified on open, ``partiql check``, ``partiql backup``, ``.backup``.

* Every item and table row carries a CRC-32 (format 3). A value changed
  behind the engine's back is a StorageError naming the table and the key
  on open, and the file is left byte for byte as it was.
* Random byte flips anywhere in the file: the database either opens with
  exactly its data or is refused — never silently different.
* ``partiql check FILE`` reads without writing: ok (exit 0) or every
  problem (exit 1). ``partiql backup FILE DEST`` and ``.backup DEST`` copy a
  database that is open, including what is only in the write-ahead log.
"""

from __future__ import annotations

import hashlib
import io
import random
import shutil
import sqlite3

import pytest

import partiql
from partiql.engine.storage import StorageError
from partiql.engine.storage.codec import item_checksum, table_checksum
from partiql.engine.storage.file_format import FORMAT_VERSION, create_version
from partiql.engine.storage.integrity import check_file
from partiql.shell import cli

ITEMS = [{"pk": f"p{n % 7}", "sk": n, "name": f"item {n}", "tags": {"a", f"t{n}"}, "m": {"x": [n, "y"]}}
         for n in range(60)]


def _fill(path, items=ITEMS):
    with partiql.connect(path) as db:
        client = partiql.client(db)
        client.create_table(TableName="Things", BillingMode="PAY_PER_REQUEST",
                            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                       {"AttributeName": "sk", "KeyType": "RANGE"}],
                            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                                  {"AttributeName": "sk", "AttributeType": "N"},
                                                  {"AttributeName": "name", "AttributeType": "S"}],
                            StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
                            GlobalSecondaryIndexes=[{"IndexName": "ByName", "Projection": {"ProjectionType": "ALL"},
                                                     "KeySchema": [{"AttributeName": "name", "KeyType": "HASH"}]}])
        for item in items:
            db.execute("INSERT INTO Things VALUE {'pk': ?, 'sk': ?, 'name': ?, 'tags': ?, 'm': ?}",
                       [item["pk"], item["sk"], item["name"], item["tags"], item["m"]])


def _items(path) -> list:
    with partiql.connect(path) as db:
        return sorted(db.execute("SELECT * FROM Things").items, key=lambda item: item["sk"])


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _sql(path, statement, parameters=()):
    db = sqlite3.connect(path, isolation_level=None)
    try:
        return db.execute(statement, parameters).fetchall()
    finally:
        db.close()


# --------------------------------------------------------------- checksums

def test_every_row_carries_a_checksum_that_holds(path):
    _fill(path)
    rows = _sql(path, "SELECT key, size, item, crc FROM items")
    assert len(rows) == len(ITEMS) and all(item_checksum(k, s, t) == c for k, s, t, c in rows)
    tables = _sql(path, "SELECT name, spec, state, crc FROM tables")
    assert [table_checksum(n, sp, st) == c for n, sp, st, c in tables] == [True]


# (what is changed behind the engine's back, the words the error must hold)
DAMAGE = [
    ("UPDATE items SET item = replace(item, '\"item 17\"', '\"item 71\"') WHERE item LIKE '%\"item 17\"%'",
     "table 'Things': the item with key {\"pk\":{\"S\":\"p3\"},\"sk\":{\"N\":\"17\"}} is damaged"),
    ("UPDATE items SET size = size + 1 WHERE item LIKE '%\"item 5\"%'",
     "table 'Things': the item with key {\"pk\":{\"S\":\"p5\"},\"sk\":{\"N\":\"5\"}} is damaged"),
    ("UPDATE items SET item = substr(item, 1, 20) WHERE item LIKE '%\"item 9\"%'",
     "table 'Things': the item with key (row key bytes "),
    ("UPDATE tables SET spec = replace(spec, 'ByName', 'ByNama')",
     "the definition of table 'Things' is damaged"),
    ("UPDATE stream_records SET record = replace(record, '\"item 17\"', '\"item 71\"') "
     "WHERE record LIKE '%\"item 17\"%'", "table 'Things': stream record 18 is damaged"),
    ("UPDATE streams SET state = replace(state, 'NEW_AND_OLD_IMAGES', 'KEYS_ONLY')",
     "the description of stream arn:aws:dynamodb:us-east-1:123456789012:table/Things/stream/"),
]


@pytest.mark.parametrize("statement, words", DAMAGE, ids=["value", "size", "truncated", "table", "stream record",
                                                          "stream"])
def test_a_damaged_record_is_refused_on_open_naming_it(path, statement, words):
    _fill(path)
    _sql(path, statement)
    before = _digest(path)
    with pytest.raises(StorageError) as caught:
        partiql.connect(path)
    assert words in str(caught.value) and str(path) in str(caught.value)
    assert "left as it is" in str(caught.value)
    assert _digest(path) == before
    report = check_file(path)
    assert not report.ok and len(report.problems) == 1 and "Things" in report.problems[0], report.problems
    with pytest.raises(StorageError):  # still refused: nothing was "repaired" behind the user's back
        partiql.connect(path)


@pytest.mark.parametrize("seed", range(12))
def test_random_byte_flips_never_open_as_different_data(tmp_path, seed):
    original = tmp_path / "original.db"
    _fill(original)
    expected = _items(original)
    size = original.stat().st_size
    rng = random.Random(seed)
    for flip in range(8):
        damaged = tmp_path / f"flip{seed}-{flip}.db"
        shutil.copyfile(original, damaged)
        data = bytearray(damaged.read_bytes())
        position = rng.randrange(100, size)  # the 100-byte header has its own checks
        data[position] ^= 1 << rng.randrange(8)
        damaged.write_bytes(bytes(data))
        try:
            found = _items(damaged)
        except StorageError:
            continue
        assert found == expected, f"flip at byte {position} opened as different data"


# ------------------------------------------------------------------ migration

def test_a_format_2_file_gains_checksums(path):
    """A format-2 file (no crc columns) is upgraded on open; its rows keep their contents."""
    db = sqlite3.connect(path, isolation_level=None)
    create_version(db, 2)
    db.close()
    _fill(path.with_name("v3.db"))
    source = sqlite3.connect(path.with_name("v3.db"))
    rows = source.execute("SELECT tid, name, spec, state FROM tables").fetchall()
    items = source.execute("SELECT tid, key, size, item FROM items").fetchall()
    source.close()
    target = sqlite3.connect(path, isolation_level=None)
    target.executemany("INSERT INTO tables (tid, name, spec, state) VALUES (?, ?, ?, ?)", rows)
    target.executemany("INSERT INTO items (tid, key, size, item) VALUES (?, ?, ?, ?)", items)
    target.close()
    assert check_file(path).version == 2
    assert _items(path) == _items(path.with_name("v3.db"))
    assert _sql(path, "PRAGMA user_version") == [(FORMAT_VERSION,)]
    assert check_file(path).ok


# ---------------------------------------------------------------------- check

def _cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    from partiql.shell import maintenance
    code = maintenance.main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_check_reports_a_healthy_file_and_changes_nothing(path):
    _fill(path)
    before = _digest(path)
    code, out, _ = _cli("check", str(path))
    assert code == 0
    assert out.splitlines() == ["Things: 60 items",
                                f"{path}: ok (file format {FORMAT_VERSION}, 1 tables, 60 items)"]
    assert _digest(path) == before


def test_check_lists_every_damaged_record(path):
    _fill(path)
    _sql(path, "UPDATE items SET item = replace(item, 'item', 'itex') WHERE item LIKE '%\"item 1_\"%'")
    code, out, _ = _cli("check", str(path))
    assert code == 1
    damaged = [line for line in out.splitlines() if line.startswith("damaged: ")]
    assert len(damaged) == 10 and all("damaged (checksum mismatch)" in line for line in damaged)
    assert out.splitlines()[-1] == f"{path}: DAMAGED (10 problems)"


def test_check_finds_an_item_stored_under_another_key_s_hash(path):
    _fill(path)
    db = sqlite3.connect(path)
    key, size, text = db.execute("SELECT key, size, item FROM items ORDER BY key DESC LIMIT 1").fetchone()
    moved = bytes(8) + key[8:]  # (a good checksum, but the hash is not its key's)
    db.execute("UPDATE items SET key = ?, crc = ? WHERE key = ?", (moved, item_checksum(moved, size, text), key))
    db.commit()
    db.close()
    report = check_file(path)
    assert len(report.problems) == 1 and "stored under another key" in report.problems[0]


@pytest.mark.parametrize("content, words", [
    (None, "no such file"),
    (b"hello, not a database" * 10, "it is not an SQLite file"),
], ids=["missing", "not-sqlite"])
def test_check_refuses_what_is_not_a_database(path, content, words):
    if content is not None:
        path.write_bytes(content)
    code, _, err = _cli("check", str(path))
    assert code == 1 and words in err
    assert path.exists() == (content is not None)  # check never creates a file


def test_check_works_while_the_database_is_open(path):
    _fill(path)
    with partiql.connect(path) as db:
        db.execute("INSERT INTO Things VALUE {'pk': 'new', 'sk': 1}")
        code, out, _ = _cli("check", str(path))
    assert code == 0 and "Things: 61 items" in out


def test_the_partiql_command_routes_check_and_backup(path, capsys):
    _fill(path)
    assert cli.main(["check", str(path)]) == 0
    assert cli.main(["backup", str(path), str(path.with_name("copy.db"))]) == 0
    assert _items(path.with_name("copy.db")) == _items(path)


# --------------------------------------------------------------------- backup

def test_backup_of_an_open_database_holds_what_is_only_in_the_logs(path, tmp_path):
    _fill(path)
    with partiql.connect(path) as db:
        db.execute("INSERT INTO Things VALUE {'pk': 'wal-only', 'sk': 1}")
        db.engine.storage._fold()  # (into SQLite's write-ahead log, not yet into the file)
        assert (tmp_path / "app.db-wal").stat().st_size > 0
        db.execute("INSERT INTO Things VALUE {'pk': 'log-only', 'sk': 1}")
        assert (tmp_path / "app.db-writes").stat().st_size > 0
        plain_copy = tmp_path / "plain.db"
        shutil.copyfile(path, plain_copy)  # what copying the file would give
        assert not any(item["pk"].endswith("-only") for item in _items(plain_copy))
        code, _, err = _cli("backup", str(path), str(tmp_path / "cli.db"))
        assert code == 0 and "backed up" in err
        db.backup(tmp_path / "live.db")
    for copy in ("cli.db", "live.db"):
        assert _items(tmp_path / copy) == _items(path)
        assert {"wal-only", "log-only"} <= {item["pk"] for item in _items(tmp_path / copy)}
        assert check_file(tmp_path / copy).ok


@pytest.mark.parametrize("dest, words", [
    ("exists.db", "the file exists"), ("no/such/dir/x.db", "no such directory"),
], ids=["exists", "no-directory"])
def test_backup_refuses_a_bad_destination(path, tmp_path, dest, words):
    _fill(path)
    (tmp_path / "exists.db").write_text("keep me")
    code, _, err = _cli("backup", str(path), str(tmp_path / dest))
    assert code == 1 and words in err
    assert (tmp_path / "exists.db").read_text() == "keep me"


def test_backups_taken_while_threads_write_are_consistent(path, tmp_path):
    """Writers and backups started together: every backup opens, passes check, and holds a prefix of
    each writer's sequence (a write is in a copy whole or not at all, never out of order)."""
    import threading

    _fill(path, items=[])
    writers, per_writer, backups = 4, 60, 3
    barrier = threading.Barrier(writers + backups)
    errors = []
    with partiql.connect(path) as db:
        def write(w):
            barrier.wait()
            for n in range(per_writer):
                db.execute("INSERT INTO Things VALUE {'pk': ?, 'sk': ?}", [f"w{w}", n])

        def back_up(b):
            barrier.wait()
            try:
                db.backup(tmp_path / f"copy{b}.db")
            except Exception as error:  # noqa: BLE001 - reported below
                errors.append(error)

        threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
        threads += [threading.Thread(target=back_up, args=(b,)) for b in range(backups)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert errors == []
    assert len(_items(path)) == writers * per_writer
    for b in range(backups):
        copy = tmp_path / f"copy{b}.db"
        assert check_file(copy).ok
        for w in range(writers):
            numbers = sorted(int(item["sk"]) for item in _items(copy) if item["pk"] == f"w{w}")
            assert numbers == list(range(len(numbers)))
