"""The write log beside a database file (``FILE-writes``): item writes go there first, fold into the
SQLite file whole, and every opener sees the log and the file as one database."""

from __future__ import annotations

import marshal
import os
import shutil
import sqlite3
import threading
import zlib

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import partiql
from partiql.engine.storage import StorageError, write_log
from partiql.engine.storage.integrity import check_file

from .helpers import create_simple, file_rows, snapshot


def _log(path) -> str:
    return write_log.log_path(str(path))


def _sqlite_rows(path) -> int:
    """Item rows in the SQLite file alone."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return db.execute("SELECT count(*) FROM items").fetchone()[0]
    finally:
        db.close()


def _abandon(db) -> None:
    """Leave a session as a killed process would: nothing folded, the lock released by the OS."""
    storage = db.engine.storage
    storage._log.close()
    storage._db.close()
    storage._db = None
    storage._lock.release()


def _kinds_of_write(db) -> None:
    """One of each item write, a stream's records with them."""
    engine = db.engine
    engine.put_item(TableName="Items", Item={"pk": "a", "sk": 1, "v": 1})
    engine.update_item(TableName="Items", Key={"pk": "a", "sk": 1}, UpdateExpression="ADD v :one",
                       ExpressionAttributeValues={":one": 1})
    engine.put_item(TableName="Items", Item={"pk": "a", "sk": 2})
    engine.delete_item(TableName="Items", Key={"pk": "a", "sk": 2})
    engine.batch_write_item(RequestItems={"Items": [{"PutRequest": {"Item": {"pk": "b", "sk": n}}} for n in range(3)]})
    engine.transact_write_items(TransactItems=[
        {"Put": {"TableName": "Items", "Item": {"pk": "c", "sk": 1}}},
        {"Delete": {"TableName": "Items", "Key": {"pk": "b", "sk": 0}}}])
    db.execute("UPDATE Items SET w = 'x' WHERE pk = 'c' AND sk = 1")


def _database(path):
    db = partiql.connect(path)
    create_simple(db.engine, StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
    return db


def _stream_records(engine) -> list:
    """Every record of Items' stream, as GetRecords would give it."""
    return list(engine.streams.records(engine.tables["Items"].stream, 0))


def test_item_writes_wait_in_the_log_and_a_killed_session_loses_none(path):
    db = _database(path)
    _kinds_of_write(db)
    assert _sqlite_rows(path) == 0 and file_rows(path) == 4  # (all of them in the log)
    expected, records = snapshot(db.engine), _stream_records(db.engine)
    _abandon(db)
    with partiql.connect(path) as again:
        assert snapshot(again.engine) == expected and _stream_records(again.engine) == records
        assert not os.path.exists(_log(path)) and _sqlite_rows(path) == 4  # folded on open


def test_a_log_folded_but_not_yet_deleted_is_not_applied_again(path):
    """A crash between the fold's commit and the log's deletion: the log's generation says it is in."""
    db = _database(path)
    db.engine.put_item(TableName="Items", Item={"pk": "gone", "sk": 1})
    shutil.copy(_log(path), path.with_name("old-log"))
    db.engine.storage._fold()
    db.engine.delete_item(TableName="Items", Key={"pk": "gone", "sk": 1})  # (in the next generation)
    expected, records = snapshot(db.engine), _stream_records(db.engine)
    db.close()
    shutil.copy(path.with_name("old-log"), _log(path))
    with partiql.connect(path) as again:  # (applied again, the put would be back, its record twice)
        assert snapshot(again.engine) == expected and _stream_records(again.engine) == records


def test_the_log_folds_whole_when_full_and_only_the_last_write_of_a_key_counts(path, monkeypatch):
    monkeypatch.setattr(write_log, "FOLD_BYTES", 1500)
    db = partiql.connect(path)
    create_simple(db.engine)
    generations = set()
    for n in range(60):
        db.engine.put_item(TableName="Items", Item={"pk": "k", "sk": n % 7, "v": n})
        if n % 3 == 0:
            db.engine.delete_item(TableName="Items", Key={"pk": "k", "sk": (n + 1) % 7})
        generations.add(db.engine.storage._log.generation)
        assert file_rows(path) == db.engine.scan(TableName="Items")["Count"]
    assert len(generations) > 3  # (it folded, more than once)
    expected = snapshot(db.engine)
    db.close()
    with partiql.connect(path) as again:
        assert snapshot(again.engine) == expected


def test_every_transaction_folds_the_log_first(path):
    """A table dropped after writes to it: were the log folded after the drop, its rows would return."""
    db = partiql.connect(path)
    create_simple(db.engine)
    db.engine.put_item(TableName="Items", Item={"pk": "a", "sk": 1})
    db.engine.delete_table(TableName="Items")
    assert not os.path.exists(_log(path))
    create_simple(db.engine)
    _abandon(db)
    with partiql.connect(path) as again:
        assert again.engine.scan(TableName="Items")["Items"] == []


def test_a_log_left_by_a_deleted_database_is_not_folded_into_a_new_one(path):
    db = partiql.connect(path)
    create_simple(db.engine)
    db.engine.put_item(TableName="Items", Item={"pk": "old", "sk": 1})
    _abandon(db)
    stale = open(_log(path), "rb").read()
    for suffix in ("", "-wal", "-shm"):  # the database deleted, its write log left behind
        if os.path.exists(str(path) + suffix):
            os.remove(str(path) + suffix)
    db = partiql.connect(path)
    create_simple(db.engine)  # (the same table id, 1: its rows would land in it)
    db.close()
    with open(_log(path), "wb") as file:
        file.write(stale)
    assert file_rows(path) == 0 and check_file(path).logged == 0
    with partiql.connect(path, read_only=True) as reader:
        assert reader.engine.scan(TableName="Items")["Items"] == []
    with partiql.connect(path) as again:
        assert again.engine.scan(TableName="Items")["Items"] == []
    assert not os.path.exists(_log(path))


# ------------------------------------------------------------------- the log's end and its damage

def _logged(path) -> tuple[bytes, list]:
    """The log's header and its records' bytes, after three writes."""
    db = partiql.connect(path)
    create_simple(db.engine)
    for n in range(3):
        db.engine.put_item(TableName="Items", Item={"pk": "a", "sk": n})
    _abandon(db)
    data = open(_log(path), "rb").read()
    records, offset = [], write_log.HEADER.size
    while offset < len(data):
        length = write_log.RECORD.unpack_from(data, offset)[0]
        records.append(data[offset:offset + write_log.RECORD.size + length])
        offset += write_log.RECORD.size + length
    return data[:write_log.HEADER.size], records


def _record(payload: bytes) -> bytes:
    return write_log.RECORD.pack(len(payload), zlib.crc32(payload)) + payload


TAILS = {  # what follows two whole records -> the items an opener finds
    "the third record": (lambda third: third, 3),
    "half the third record": (lambda third: third[:len(third) // 2], 2),
    "the third record's length alone": (lambda third: third[:4], 2),
    "the third record, a byte of it flipped": (lambda third: third[:-1] + bytes([third[-1] ^ 1]), 2),
    "zeros (a file extended, never written)": (lambda third: bytes(4096), 2),
}


@pytest.mark.parametrize("tail, found", TAILS.values(), ids=TAILS)
def test_a_record_cut_short_or_torn_ends_the_log(path, tail, found):
    header, records = _logged(path)
    with open(_log(path), "wb") as file:
        file.write(header + records[0] + records[1] + tail(records[2]))
    report = check_file(path)
    assert report.ok and report.tables == {"Items": found} and report.logged == found
    with partiql.connect(path, read_only=True) as reader:
        assert reader.engine.scan(TableName="Items")["Count"] == found
    with partiql.connect(path) as again:
        assert again.engine.scan(TableName="Items")["Count"] == found


DAMAGE = {  # a log replaced by -> what every opener says
    "another file": (lambda header, records: b"hello, world\n" * 3, "it does not begin as a write log does"),
    "a record of something else": (lambda header, records: header + _record(marshal.dumps(("DROP TABLE items",))),
                                   "record 1 holds something other than a write"),
    "a row of the wrong shape": (lambda header, records: header + _record(marshal.dumps(((0, (1, b"k")),))),
                                 "record 1 holds something other than a write"),
    "a statement number out of range": (lambda header, records: header + _record(marshal.dumps(((7, ()),))),
                                        "record 1 holds something other than a write"),
    "a row whose checksum fails": (lambda header, records: header + _record(marshal.dumps(
        ((0, (1, b"k", 1, "{}", 0)),))), "record 1: a row's checksum does not match its contents"),
    "a payload marshal cannot read": (lambda header, records: header + records[0] + _record(b"\xff\x00"),
                                      "record 2 cannot be read"),
}


@pytest.mark.parametrize("content, words", DAMAGE.values(), ids=DAMAGE)
def test_a_damaged_log_is_refused_by_every_opener_and_left_as_it_is(path, content, words):
    header, records = _logged(path)
    with open(_log(path), "wb") as file:
        file.write(content(header, records))
    before = open(_log(path), "rb").read(), open(path, "rb").read()
    message = f"its write log {_log(path)} is damaged \\({words}"
    for opening in (lambda: partiql.connect(path), lambda: partiql.connect(path, read_only=True)):
        with pytest.raises(StorageError, match=f"^cannot open {path}: {message}"):
            opening()
    report = check_file(path)
    assert not report.ok and words in report.problems[0]
    assert (open(_log(path), "rb").read(), open(path, "rb").read()) == before


def test_a_log_of_a_newer_python_is_refused(path):
    header, records = _logged(path)
    magic, generation, _, identity = write_log.HEADER.unpack(header)
    with open(_log(path), "wb") as file:
        file.write(write_log.HEADER.pack(magic, generation, marshal.version + 1, identity) + b"".join(records))
    with pytest.raises(StorageError, match="logged by a newer Python .*open it with that Python once"):
        partiql.connect(path)


_SCALARS = st.one_of(st.integers(-2**70, 2**70), st.binary(max_size=12), st.text(max_size=12), st.none(),
                    st.floats(allow_nan=False))
_VALUES = st.recursive(_SCALARS, lambda inner: st.tuples(inner, inner) | st.lists(inner, max_size=3).map(tuple),
                       max_leaves=12)
# a record's payload: bytes, or what marshal writes of a value (a row of a write, or not quite one)
_PAYLOADS = st.one_of(st.binary(min_size=1, max_size=60), _VALUES.map(marshal.dumps),
                      st.lists(st.tuples(st.integers(-1, 4), _VALUES), max_size=3).map(tuple).map(marshal.dumps))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(_PAYLOADS, max_size=3), st.binary(max_size=40), st.booleans())
def test_any_log_content_opens_or_is_refused_clearly(tmp_path_factory, payloads, tail, headed):
    """Records that pass their CRC (so their payloads are decoded) then any tail; or no header at all."""
    path = tmp_path_factory.mktemp("fuzz") / "app.db"
    db = partiql.connect(path)
    create_simple(db.engine)
    identity = db.engine.storage._log.identity
    db.close()
    header = write_log.HEADER.pack(write_log.MAGIC, 1, marshal.version, identity) if headed else b""
    with open(_log(path), "wb") as file:
        file.write(header + b"".join(map(_record, payloads)) + tail)
    try:
        with partiql.connect(path) as again:
            again.engine.scan(TableName="Items")
    except StorageError as error:
        assert str(error).startswith(f"cannot open {path}: ")


# ------------------------------------------------------------------- readers, durability

def test_readers_opened_while_the_owner_writes_and_folds_see_a_whole_prefix(path, monkeypatch):
    """Puts of 0, 1, 2, … while readers open snapshots, threads started together: each snapshot holds
    0..k for some k, whatever fold or log creation it met (the log is read before the snapshot)."""
    monkeypatch.setattr(write_log, "FOLD_BYTES", 600)
    db = partiql.connect(path)
    create_simple(db.engine)
    start, done, seen, failures = threading.Barrier(3), threading.Event(), [], []

    def write():
        start.wait()
        for n in range(300):
            db.engine.put_item(TableName="Items", Item={"pk": "n", "sk": n})
        done.set()

    def read():
        start.wait()
        while not done.is_set():
            try:
                with partiql.connect(path, read_only=True) as reader:
                    numbers = sorted(int(item["sk"]) for item in reader.execute("SELECT sk FROM Items").items)
            except Exception as error:  # (reported below, with what it was)
                failures.append(repr(error))
                return
            seen.append(numbers)

    threads = [threading.Thread(target=write), threading.Thread(target=read), threading.Thread(target=read)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    db.close()
    assert failures == []
    assert len(seen) > 5 and all(numbers == list(range(len(numbers))) for numbers in seen)
    assert len({len(numbers) for numbers in seen}) > 2  # (they saw the writes go by)


def test_durability_full_syncs_every_append_and_the_new_log_s_name(path, monkeypatch):
    synced = []
    monkeypatch.setattr(write_log.os, "fdatasync", lambda fd: synced.append("data"))
    monkeypatch.setattr(write_log.os, "fsync", lambda fd: synced.append("directory"))
    db = partiql.connect(path, durability="full")
    engine = db.engine
    create_simple(engine)
    for n in range(3):
        engine.put_item(TableName="Items", Item={"pk": "a", "sk": n})
    assert synced == ["data", "directory", "data", "data", "data"]  # (the header, then each record)
    db.close()

