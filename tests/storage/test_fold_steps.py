"""Issue 38 point 4: the write log is folded in at open in steps a nearly full disk can take.

The reference is the fold as one transaction (``write_log.fold``, unchanged): over generated writes the
stepped fold leaves the same database — items, streams, the folded generation. Stopped between steps it
folds again whole at the next open; its write-ahead log never holds more than a step; a full disk halves
the steps, and when even the smallest does not fit the open is refused with how much space is short,
the log kept. The last test uses a real filesystem of a fixed size (tmpfs), where it can be mounted.
"""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import partiql
from partiql.engine.storage import StorageError, file_format, folding, write_log
from partiql.engine.storage.rows import DELETE_ITEM, PUT_ITEM
from partiql.engine.storage.stream_rows import FOLD_RECORD

from partiql.engine.storage.integrity import check_file

from .helpers import abandon, create_simple, snapshot

STREAM = {"StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}}
WRITES = st.lists(st.tuples(st.sampled_from(["put", "update", "delete"]), st.integers(0, 60), st.integers(0, 300)),
                  min_size=1, max_size=150)


def _logged(path, writes, held: int = 0):
    """A database left by a killed process: ``held`` items in the file, then ``writes`` in its log only."""
    db = partiql.connect(path, throughput="off")
    create_simple(db.engine, **STREAM)
    for n in range(held):
        db.engine.put_item(TableName="Items", Item={"pk": f"k{n}", "sk": 0, "v": "x" * 50})
    db.close()
    db = partiql.connect(path, throughput="off")
    for kind, key, value in writes:
        item_key = {"pk": f"k{key}", "sk": 0}
        if kind == "put":
            db.engine.put_item(TableName="Items", Item={**item_key, "v": "y" * value})
        elif kind == "update":
            db.engine.update_item(TableName="Items", Key=item_key, UpdateExpression="SET n = :n",
                                  ExpressionAttributeValues={":n": value})
        else:
            db.engine.delete_item(TableName="Items", Key=item_key)
    expected = snapshot(db.engine)
    abandon(db)
    return expected


def _whole(db, path, pending):
    """The reference: the fold as one transaction."""
    with file_format.transaction(db):
        write_log.fold(db, pending)


def _contents(path) -> tuple:
    db = sqlite3.connect(path)
    try:
        return tuple(db.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
                     for table in ("items", "stream_records")) + (
            db.execute("SELECT value FROM settings WHERE name = 'folded'").fetchall(),)
    finally:
        db.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(writes=WRITES, held=st.integers(0, 80), step=st.sampled_from([1, 3, 16, 1024]))
def test_the_stepped_fold_leaves_what_one_transaction_leaves(tmp_path, monkeypatch, writes, held, step):
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    expected = _logged(folder / "a.db", [("put", 0, 1), *writes], held)  # (one write at least: a log)
    for suffix in ("", "-writes"):
        shutil.copy(f"{folder / 'a.db'}{suffix}", f"{folder / 'b.db'}{suffix}")
    monkeypatch.setattr(folding, "STEP_ROWS", step)
    with partiql.connect(folder / "a.db") as stepped:
        assert snapshot(stepped.engine) == expected
    with monkeypatch.context() as patch:
        patch.setattr(folding, "fold_in_steps", _whole)
        partiql.connect(folder / "b.db").close()
    assert _contents(folder / "a.db") == _contents(folder / "b.db")


def _records(engine) -> list:
    return list(engine.streams.records(engine.tables["Items"].stream, 0))


@pytest.mark.parametrize("stopped_in", [1, 3, 7, 12])  # (40 item rows and 54 stream records, 8 a step: 12 steps)
def test_a_fold_stopped_between_steps_is_read_whole_and_folded_again_whole(path, monkeypatch, stopped_in):
    writes = [("put", n, 10) for n in range(40)] + [("delete", n, 0) for n in range(0, 40, 3)]
    expected = _logged(path, writes)
    with partiql.connect(path, read_only=True) as before:
        records = _records(before.engine)
    monkeypatch.setattr(folding, "STEP_ROWS", 8)
    steps = []
    real = folding.item_rows.write

    def dying(db, rows):
        steps.append(len(rows))
        if len(steps) == stopped_in:
            raise KeyboardInterrupt  # (a process stopped in this step)
        real(db, rows)

    monkeypatch.setattr(folding.item_rows, "write", dying)
    with pytest.raises(KeyboardInterrupt):
        partiql.connect(path)
    assert os.path.exists(write_log.log_path(str(path)))  # (not folded: kept)
    monkeypatch.setattr(folding.item_rows, "write", real)
    with partiql.connect(path, read_only=True) as reader:  # (the file holds part of the log: read once, whole)
        assert snapshot(reader.engine) == expected and _records(reader.engine) == records
    assert check_file(path).ok
    with partiql.connect(path) as again:
        assert snapshot(again.engine) == expected and _records(again.engine) == records
    assert not os.path.exists(write_log.log_path(str(path)))


def test_the_wal_holds_one_step_at_most(path, monkeypatch):
    """Updates scattered over a table that fills many pages: one transaction's WAL holds every page changed."""
    rng = random.Random(7)
    _logged(path, [("put", rng.randrange(3000), 50) for _ in range(1500)], held=3000)
    sizes = []
    real = folding.Seen.step_written
    monkeypatch.setattr(folding.Seen, "step_written", lambda self, step: (real(self, step), sizes.append(
        os.path.getsize(f"{path}-wal"))))
    monkeypatch.setattr(folding, "STEP_ROWS", 64)
    partiql.connect(path).close()
    assert len(sizes) > 10 and max(sizes) <= 64 * 2 * 4096 + 65536  # (a leaf and an interior page a row, at most)


class _Wal:
    """A disk with room for the WAL of ``room`` item rows: a step writing more fails as SQLite does."""

    def __init__(self, room: int):
        self.room, self.steps = room, []

    def write(self, db, rows):
        items = sum(1 for statement, _ in rows if statement in (PUT_ITEM, DELETE_ITEM, FOLD_RECORD))
        self.steps.append(items)
        if items > self.room:
            raise sqlite3.OperationalError("database or disk is full")
        folding_write(db, rows)


folding_write = folding.item_rows.write


@pytest.mark.parametrize("room, steps, opens", [(10_000, [128] * 4 + [88], True), (40, [128, 64] + [32] * 18 + [24], True),
                                               (5, [128, 64, 32, 16], False)])
def test_a_full_disk_halves_the_steps_and_then_says_what_is_short(path, monkeypatch, room, steps, opens):
    writes = [("put", n, 100) for n in range(300)]
    expected = _logged(path, writes)
    disk = _Wal(room)
    monkeypatch.setattr(folding.item_rows, "write", disk.write)
    monkeypatch.setattr(folding, "STEP_ROWS", 128)
    if opens:
        with partiql.connect(path) as db:
            assert snapshot(db.engine) == expected
        assert disk.steps == steps  # (300 items and their 300 stream records; a step too large tried at half)
        return
    with pytest.raises(StorageError) as refused:
        partiql.connect(path)
    assert disk.steps == steps  # (halved down to the smallest step)
    message = str(refused.value)
    assert message.startswith(f"cannot open {path}: the disk is full: folding in its write log (")
    assert "more free space in" in message and "nothing acknowledged is lost (the log is kept)" in message
    assert os.path.exists(write_log.log_path(str(path)))
    monkeypatch.setattr(folding.item_rows, "write", folding_write)
    with partiql.connect(path) as db:  # (room again: nothing was lost)
        assert snapshot(db.engine) == expected


@pytest.fixture
def small_disk(tmp_path):
    """A tmpfs of 64 MB mounted under tmp_path (root and Linux only), resized by ``resize(kb)``."""
    mount = tmp_path / "disk"
    mount.mkdir()
    try:
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(mount)], check=True,
                       capture_output=True)
    except (OSError, subprocess.CalledProcessError) as error:
        pytest.skip(f"cannot mount a tmpfs here (root on Linux needed): {error}")

    def resize(kb: int) -> None:
        subprocess.run(["mount", "-o", f"remount,size={kb}k", str(mount)], check=True, capture_output=True)

    yield mount, resize
    subprocess.run(["umount", str(mount)], check=False)


def test_on_a_real_full_disk_the_open_says_how_much_and_then_opens(small_disk, tmp_path):
    mount, resize = small_disk
    expected = _logged(tmp_path / "big.db", [("put", n, 150) for n in range(12_000)])
    for suffix in ("", "-writes"):
        shutil.copy(f"{tmp_path / 'big.db'}{suffix}", f"{mount / 'big.db'}{suffix}")
    used = shutil.disk_usage(mount).used // 1024
    resize(used + 200)  # (200 KB free: the fold writes about 2.5 MB)
    with pytest.raises(StorageError, match=r"the disk is full: folding in its write log \(.* MB\) needs about "
                                           r"[\d.]+ MB more free space"):
        partiql.connect(mount / "big.db")
    resize(used + 200 + 4096)
    with partiql.connect(mount / "big.db") as db:
        assert snapshot(db.engine) == expected
