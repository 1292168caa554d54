"""Damage in the write log is never taken for its end: an opener refuses it, naming the place, with
every file left byte for byte; ``partiql recover`` applies every intact record and names what it cannot
restore. The reproducer of issue 39, recovery's cases, and a property test of random flips."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

import partiql
from partiql.engine.storage import StorageError, log_format, write_log
from partiql.engine.storage.integrity import check_file
from partiql.engine.storage.recovery import recover
from partiql.shell import maintenance

from .helpers import abandon, create_simple

WRITER = textwrap.dedent("""
    import os, sys
    import partiql
    db = partiql.connect(sys.argv[1])
    db.execute("CREATE TABLE Music (Artist STRING, SongTitle STRING) PRIMARY KEY (Artist HASH, SongTitle RANGE)")
    for n in range(int(sys.argv[2])):
        db.execute("INSERT INTO Music VALUE {'Artist': ?, 'SongTitle': ?, 'Plays': ?}", [f"a{n % 37}", f"s{n}", n])
    os._exit(0)  # (ends without closing: the writes are in the log alone)
""")


def _files(path) -> dict:
    """Every file beside the database, name -> bytes (what "left as they are" compares)."""
    folder = os.path.dirname(path)
    return {name: open(os.path.join(folder, name), "rb").read() for name in sorted(os.listdir(folder))
            if not name.endswith(("-shm", "-lock"))}


def _records(data: bytes) -> list:
    """(start, end) of each record of a whole log."""
    spans, offset = [], log_format.HEADER.size
    while offset < len(data):
        head = log_format.HEAD.unpack_from(data, offset)
        end = offset + log_format.HEAD.size + head[2] + head[3]
        spans.append((offset, end))
        offset = end
    return spans


def _run(*argv) -> tuple[int, str]:
    out = io.StringIO()
    status = maintenance.main(list(argv), stdout=out, stderr=out)
    return status, out.getvalue()


def test_the_issue_s_reproducer_a_flipped_bit_at_a_tenth_of_the_log(tmp_path):
    """1,000 INSERTs, the process ends without closing, one bit flipped at 10 % of the log: check says
    damaged (exit 1), open refuses and leaves every file as it was, recover restores 999 and names the one."""
    path = str(tmp_path / "a.db")
    subprocess.run([sys.executable, "-c", WRITER, path, "1000"], check=True, timeout=120)
    log = write_log.log_path(path)
    data = bytearray(open(log, "rb").read())
    at = len(data) // 10
    data[at] ^= 0x10
    open(log, "wb").write(data)
    before = _files(path)

    status, out = _run("check", path)
    assert status == 1 and "DAMAGED" in out and "is damaged (at record" in out and "later records are intact" in out
    for opening in (lambda: partiql.connect(path), lambda: partiql.connect(path, read_only=True)):
        with pytest.raises(StorageError, match=r"is damaged \(at record \d+ \(byte \d+: it fails its checksums\): "
                                               r"\d+ later records are intact\).*partiql recover"):
            opening()
    assert _files(path) == before

    damaged = next(n for n, (start, end) in enumerate(_records(bytes(data)), 1) if start <= at < end)
    status, out = _run("recover", path)
    assert status == 0, out
    with partiql.connect(path) as db:
        items = db.execute("SELECT * FROM Music").items
    assert len(items) == 999
    titles = {item["SongTitle"] for item in items}
    missing = next(n for n in range(1000) if f"s{n}" not in titles)
    assert missing == damaged - 1  # (record 1 of the log is the first INSERT: CREATE TABLE is SQLite's)
    assert (f"not recovered: table 'Music' key {{\"Artist\": \"a{missing % 37}\", \"SongTitle\": \"s{missing}\"}}"
            in out), out
    assert f"skipped: record {damaged}" in out and "999 intact logged writes applied" in out
    assert os.path.exists(log + ".damaged") and not os.path.exists(log)
    assert _run("check", path)[0] == 0


def _abandoned(path, operations) -> dict:
    """A database whose log holds ``operations`` (("put", sk, value) / ("delete", sk)), left as a killed
    process leaves it; the items each acknowledged write left, by sort key."""
    db = partiql.connect(path)
    create_simple(db.engine)
    for operation in operations:
        if operation[0] == "put":
            db.engine.put_item(TableName="Items", Item={"pk": "p", "sk": operation[1], "v": operation[2]})
        else:
            db.engine.delete_item(TableName="Items", Key={"pk": "p", "sk": operation[1]})
    abandon(db)


def _model(operations, skipped=frozenset()) -> tuple[dict, list]:
    """The reference: sort key -> value after the operations (records ``skipped`` left out), and the
    records, in order, each the sort key it wrote (a delete of nothing writes no record)."""
    state, records = {}, []
    for operation in operations:
        if operation[0] == "delete" and operation[1] not in state:
            continue  # (no record: checked against the model without skipping, which is what ran)
        records.append(operation)
        state.pop(operation[1], None) if operation[0] == "delete" else state.__setitem__(operation[1], operation[2])
    kept = {}
    for number, operation in enumerate(records, 1):
        if number in skipped:
            continue
        kept.pop(operation[1], None) if operation[0] == "delete" else kept.__setitem__(operation[1], operation[2])
    return kept, records


def _items(db) -> dict:
    return {int(item["sk"]): int(item["v"]) for item in db.engine.scan(TableName="Items")["Items"]}


_OPERATIONS = st.lists(st.one_of(st.tuples(st.just("put"), st.integers(0, 5), st.integers(0, 10**6)),
                                 st.tuples(st.just("delete"), st.integers(0, 5))), min_size=1, max_size=8)
# a change to the log: (where, as a fraction of its length or in the first record's head, what is done there)
_CHANGES = st.tuples(st.one_of(st.floats(0, 1, exclude_max=True), st.integers(0, log_format.HEAD.size - 1)),
                     st.one_of(st.integers(0, 7).map(lambda bit: ("bit", bit)), st.integers(0, 255).map(lambda b: ("byte", b))))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_OPERATIONS, _CHANGES)
def test_any_flip_opens_with_every_acknowledged_write_or_is_refused_and_recover_keeps_every_intact_one(
        tmp_path_factory, operations, change):
    path = str(tmp_path_factory.mktemp("flip") / "app.db")
    _abandoned(path, operations)
    log = write_log.log_path(path)
    assume(os.path.exists(log))  # (deletes of nothing write nothing)
    data = bytearray(open(log, "rb").read())
    where, (kind, value) = change
    at = int(where * len(data)) if isinstance(where, float) else log_format.HEADER.size + where
    at = min(at, len(data) - 1)
    old = data[at]
    data[at] = old ^ (1 << value) if kind == "bit" else value
    open(log, "wb").write(data)
    acknowledged, records = _model(operations)
    spans = _records(_original(data, at, old))
    touched = {number for number, (start, end) in enumerate(spans, 1) if start <= at < end}
    before = _files(path)
    try:
        with partiql.connect(path) as db:
            assert data[at] == old and _items(db) == acknowledged  # (opened: the change was none)
        return
    except StorageError as error:
        assert "is damaged (" in str(error) and data[at] != old
    assert _files(path) == before and not check_file(path).ok
    report = recover(path)
    expected, _ = _model(operations, skipped=touched)
    with partiql.connect(path) as db:
        assert _items(db) == expected  # (every intact record applied, in order)
    lost = {records[n - 1][1] for n in touched
            if not any(records[later - 1][1] == records[n - 1][1] for later in range(n + 1, len(records) + 1))}
    named = {int(text.rsplit('"sk": ', 1)[1].rstrip("}")) for text in report.lost}
    assert named == lost or (report.unknown and named <= lost)


def _original(data: bytearray, at: int, old: int) -> bytes:
    restored = bytearray(data)
    restored[at] = old
    return bytes(restored)


def test_recover_applies_the_records_after_the_damage_and_names_the_keys_they_do_not_rewrite(tmp_path):
    path = str(tmp_path / "app.db")
    operations = [("put", 1, 10), ("put", 2, 20), ("put", 3, 30), ("put", 1, 11), ("put", 4, 40)]
    _abandoned(path, operations)
    log = write_log.log_path(path)
    data = bytearray(open(log, "rb").read())
    spans = _records(bytes(data))
    for number in (2, 4):  # (damage the rows of records 2 and 4: sk 2 is lost, sk 1 keeps record 1's value)
        data[spans[number - 1][1] - 2] ^= 1
    open(log, "wb").write(data)
    report = recover(path)
    assert [(d.first, d.last) for d in report.damage] == [(2, 2), (4, 4)] and report.applied == 3
    assert report.lost == ['table \'Items\' key {"pk": "p", "sk": 2}', 'table \'Items\' key {"pk": "p", "sk": 1}']
    with partiql.connect(path) as db:
        assert _items(db) == {1: 10, 3: 30, 4: 40}
    assert open(log + ".damaged", "rb").read() == bytes(data)


def test_recover_names_records_whose_keys_cannot_be_read_and_refuses_another_database_s_log(tmp_path):
    path = str(tmp_path / "app.db")
    _abandoned(path, [("put", 1, 1), ("put", 2, 2), ("put", 3, 3)])
    log = write_log.log_path(path)
    data = bytearray(open(log, "rb").read())
    start, end = _records(bytes(data))[1]
    data[start + log_format.HEAD.size:end] = bytes(end - start - log_format.HEAD.size)  # (its keys and rows zeroed)
    open(log, "wb").write(data)
    status, out = _run("check", "--repair", path)
    assert status == 0 and "not recovered: the writes of record 2, whose keys cannot be read either" in out
    with partiql.connect(path) as db:
        assert _items(db) == {1: 1, 3: 3}

    other = str(tmp_path / "other.db")
    _abandoned(other, [("put", 1, 1)])
    data = bytearray(open(write_log.log_path(other), "rb").read())
    data[-2] ^= 1
    open(log, "wb").write(data)  # (another database's damaged log beside this one)
    with pytest.raises(StorageError, match="is not this database's"):
        recover(path)
    assert _run("recover", str(tmp_path / "nothing.db"))[0] == 1


def test_recover_is_refused_while_the_database_is_open_and_says_when_there_is_nothing_to_do(tmp_path):
    path = str(tmp_path / "app.db")
    with partiql.connect(path) as db:
        create_simple(db.engine)
        with pytest.raises(StorageError, match="already open"):
            recover(path)
    status, out = _run("recover", path)
    assert status == 0 and "not damaged; nothing to recover" in out
