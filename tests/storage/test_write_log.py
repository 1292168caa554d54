"""The write log beside a database file (``FILE-writes``): item writes go there first, fold into the
SQLite file whole, and every opener sees the log and the file as one database."""

from __future__ import annotations

import marshal
import os
import re
import struct
import shutil
import sqlite3
import threading
import zlib
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import partiql
from partiql.engine.storage import StorageError, log_format, write_log
from partiql.engine.placement import key_hash
from partiql.engine.storage.codec import item_checksum, row_key
from partiql.engine.storage.integrity import check_file

from .helpers import abandon, create_simple, file_rows, snapshot


def _log(path) -> str:
    return write_log.log_path(str(path))


def _sqlite_rows(path) -> int:
    """Item rows in the SQLite file alone."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return db.execute("SELECT count(*) FROM items").fetchone()[0]
    finally:
        db.close()



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
    abandon(db)
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
    abandon(db)
    with partiql.connect(path) as again:
        assert again.engine.scan(TableName="Items")["Items"] == []


def test_a_log_left_by_a_deleted_database_is_not_folded_into_a_new_one(path):
    db = partiql.connect(path)
    create_simple(db.engine)
    db.engine.put_item(TableName="Items", Item={"pk": "old", "sk": 1})
    abandon(db)
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

def _logged(path, writes: int = 3) -> tuple[bytes, list]:
    """The log's header and its records' bytes, after ``writes`` puts."""
    db = partiql.connect(path)
    create_simple(db.engine)
    for n in range(writes):
        db.engine.put_item(TableName="Items", Item={"pk": "a", "sk": n})
    abandon(db)
    data = open(_log(path), "rb").read()
    records, offset = [], log_format.HEADER.size
    while offset < len(data):
        head = log_format.HEAD.unpack_from(data, offset)
        end = offset + log_format.HEAD.size + head[2] + head[3]
        records.append(data[offset:end])
        offset = end
    return data[:log_format.HEADER.size], records


def _record(payload: bytes, number: int = 1, keys: bytes = marshal.dumps(())) -> bytes:
    return log_format.frame(number, keys, payload)


def _flip(data: bytes, at: int, bit: int = 0) -> bytes:
    return data[:at] + bytes([data[at] ^ (1 << bit)]) + data[at + 1:]


TAILS = {  # what follows two whole records -> the items an opener finds
    "the third record": (lambda third: third, 3),
    "half the third record": (lambda third: third[:len(third) // 2], 2),
    "the third record's head, cut short": (lambda third: third[:20], 2),
    "the third record's head alone": (lambda third: third[:log_format.HEAD.size], 2),
    "the third record but its last byte": (lambda third: third[:-1], 2),
    "zeros (a file extended, never written)": (lambda third: bytes(4096), 2),
    "the third record's head, then zeros": (lambda third: third[:log_format.HEAD.size] + bytes(3), 2),
}


@pytest.mark.parametrize("tail, found", TAILS.values(), ids=TAILS)
def test_a_record_cut_short_ends_the_log(path, tail, found):
    """An append cut short (a prefix of what was written, or zeros) is an operation that never returned."""
    header, records = _logged(path)
    with open(_log(path), "wb") as file:
        file.write(header + records[0] + records[1] + tail(records[2]))
    report = check_file(path)
    assert report.ok and report.tables == {"Items": found} and report.logged == found
    with partiql.connect(path, read_only=True) as reader:
        assert reader.engine.scan(TableName="Items")["Count"] == found
    with partiql.connect(path) as again:
        assert again.engine.scan(TableName="Items")["Count"] == found


_HEAD, _HEADER = log_format.HEAD.size, log_format.HEADER.size
DAMAGE = {  # a log replaced by -> what every opener says
    "another file": (lambda header, records: b"hello, world\n" * 3, "it does not begin as a write log does"),
    "its generation flipped": (lambda header, records: _flip(header, 8) + b"".join(records),
                               "its header (byte 0) fails its checksum; 3 records are intact"),
    "its identity flipped": (lambda header, records: _flip(header, 20) + b"".join(records),
                             "its header (byte 0) fails its checksum; 3 records are intact"),
    "a byte of the middle record's rows flipped": (
        lambda header, records: header + records[0] + _flip(records[1], len(records[1]) - 3) + records[2],
        f"at record 2 (byte {_HEADER} + 1 record: it fails its checksums): 1 later record is intact"),
    "the middle record's length field flipped": (
        lambda header, records: header + records[0] + _flip(records[1], 16, 3) + records[2],
        f"at record 2 (byte {_HEADER} + 1 record: it fails its checksums): 1 later record is intact"),
    "the first record's number flipped": (
        lambda header, records: header + _flip(records[0], 4) + records[1] + records[2],
        f"at record 1 (byte {_HEADER}: it fails its checksums): 2 later records are intact"),
    "a byte of the last record flipped": (
        lambda header, records: header + records[0] + records[1] + _flip(records[2], len(records[2]) - 1),
        f"at record 3 (byte {_HEADER} + 2 records: it fails its checksums): 0 later records are intact"),
    "the middle record missing": (
        lambda header, records: header + records[0] + records[2],
        f"at record 2 (byte {_HEADER} + 1 record: records missing before it): 1 later record is intact"),
    "a record of something else": (lambda header, records: header + _record(marshal.dumps(("DROP TABLE items",))),
                                   f"at record 1 (byte {_HEADER}: it holds something other than a write)"),
    "a row of the wrong shape": (lambda header, records: header + _record(marshal.dumps(((0, (1, b"k")),))),
                                 "at record 1 (byte 32: it holds something other than a write)"),
    "a statement number out of range": (lambda header, records: header + _record(marshal.dumps(((7, ()),))),
                                        "at record 1 (byte 32: it holds something other than a write)"),
    "a row whose checksum fails": (lambda header, records: header + _record(marshal.dumps(
        ((0, (1, b"k", 1, "{}", 0)),))), "at record 1 (byte 32: it holds something other than a write)"),
    "a payload marshal cannot read": (lambda header, records: header + records[0] + _record(b"\xff\x00", 2),
                                      "at record 2 (byte "),
}


def _words(words: str, records: list) -> str:
    """``words`` with "byte 32 + N record(s)" worked out from the records' sizes."""
    for n in (2, 1):
        words = words.replace(f"{_HEADER} + {n} record{'s' if n > 1 else ''}", str(_HEADER + sum(map(len, records[:n]))))
    return words


@pytest.mark.parametrize("content, words", DAMAGE.values(), ids=DAMAGE)
def test_a_damaged_log_is_refused_by_every_opener_and_left_as_it_is(path, content, words):
    header, records = _logged(path)
    words = _words(words, records)
    with open(_log(path), "wb") as file:
        file.write(content(header, records))
    before = open(_log(path), "rb").read(), open(path, "rb").read()
    message = f"its write log {_log(path)} is damaged \\({re.escape(words)}"
    for opening in (lambda: partiql.connect(path), lambda: partiql.connect(path, read_only=True)):
        with pytest.raises(StorageError, match=f"^cannot open {path}: {message}"):
            opening()
    report = check_file(path)
    assert not report.ok and words in report.problems[0]
    assert (open(_log(path), "rb").read(), open(path, "rb").read()) == before


def test_a_log_of_a_newer_python_is_refused(path):
    header, records = _logged(path)
    magic, generation, _, identity, _ = log_format.HEADER.unpack(header)
    with open(_log(path), "wb") as file:
        file.write(log_format.HEADER.pack(magic, generation, marshal.version + 1, identity, 0)[:-4])
    fields = open(_log(path), "rb").read()
    with open(_log(path), "wb") as file:
        file.write(fields + struct.pack("<I", zlib.crc32(fields)) + b"".join(records))
    with pytest.raises(StorageError, match="logged by a newer Python .*open it with that Python once"):
        partiql.connect(path)


def _v1_log(identity: int, payloads: list, tail: bytes = b"") -> bytes:
    return log_format.HEADER_V1.pack(log_format.MAGIC_V1, 1, marshal.version, identity) + b"".join(
        log_format.RECORD_V1.pack(len(p), zlib.crc32(p)) + p for p in payloads) + tail


def test_a_log_of_the_first_format_is_folded_in_and_its_damage_refused(path):
    """A log the previous release left after a crash: its records fold in; a bad record followed by
    more than its own length (not a torn tail) is refused."""
    db = partiql.connect(path)
    create_simple(db.engine)
    identity = db.engine.storage._log.identity
    db.close()
    rows = [((0, (1, key, 10, text, item_checksum(key, 10, text))),) for key, text in (
        (row_key(key_hash("a"), "a", (Decimal(1),)), '{"pk":{"S":"a"},"sk":{"N":"1"}}'),
        (row_key(key_hash("a"), "a", (Decimal(2),)), '{"pk":{"S":"a"},"sk":{"N":"2"}}'))]
    payloads = [marshal.dumps(row) for row in rows]
    damaged = _v1_log(identity, [payloads[0], _flip(payloads[1], 3), payloads[1]])
    with open(_log(path), "wb") as file:
        file.write(damaged)
    with pytest.raises(StorageError, match="is damaged \\(at record 2"):
        partiql.connect(path)
    with open(_log(path), "wb") as file:
        file.write(_v1_log(identity, payloads, tail=b"\x07\x00"))
    with partiql.connect(path) as again:
        assert again.engine.scan(TableName="Items")["Count"] == 2


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
    header = log_format.header(1, identity) if headed else b""
    with open(_log(path), "wb") as file:
        file.write(header + b"".join(_record(payload, n + 1) for n, payload in enumerate(payloads)) + tail)
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

