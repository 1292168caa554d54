"""A database file made by an earlier release (file format 5, our earlier key hash; format 6, before
multi-attribute GSI keys) opens with every item, index and stream record intact, re-placed by DynamoDB's key
hash in one transaction (recorded-2026-11 A11), and in today's format.

The files in ``release_files`` were made by that release with ``release_files/make.py``; the same writes,
made again here by today's engine in memory, are what each file must hold.
"""

from __future__ import annotations

import importlib.util
import shutil
import sqlite3
import time
import types
from decimal import Decimal
from pathlib import Path

import pytest

import partiql
from partiql.engine import clock as clock_module
from partiql.engine.placement import key_hash
from partiql.engine.requests import OPERATIONS
from partiql.engine.storage import StorageError
from partiql.engine.storage.file_format import FORMAT_VERSION
from partiql.engine.storage.recovery import recover

FILES = Path(__file__).parent / "release_files"
MADE = 1795741020.0  # epoch seconds the newest files were made (2026-11-27): their stream records are a day's
_spec = importlib.util.spec_from_file_location("release_make", FILES / "make.py")
make = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make)


@pytest.fixture(autouse=True)
def made_an_hour_ago(monkeypatch):
    """Epoch time an hour after the files were made, so their stream records are within the retention."""
    monkeypatch.setattr(clock_module, "time", types.SimpleNamespace(time=lambda: MADE + 3600,
                                                                     monotonic=time.monotonic))


def _copy(tmp_path, name: str) -> str:
    assert (FILES / name).is_file(), f"{FILES / name} is missing (release_files/make.py makes it)"
    for found in FILES.glob(f"{name}*"):
        shutil.copy(found, tmp_path / found.name)
    return str(tmp_path / name)


def _expected(writes: list) -> partiql.Connection:
    db = partiql.connect()
    for table in make.TABLES:
        OPERATIONS["CreateTable"](db.engine, table)
    for first, last in writes:
        make.write(db.engine, first, last)
    return db


SOURCES = [("Music", None), ("Music", "ByPlays"), ("Music", "ByYear"), ("Music", "ByGenre"),
           ("Music", "Everything"), ("Readings", None), ("Blobs", None)]


def _contents(db) -> dict:
    """Every table's and index's entries (in a canonical order), and every stream record."""
    found = {}
    for table, index in SOURCES:
        found[table, index] = sorted(_scan(db, table, index), key=_canonical)
    stream = db.engine.streams.stream_of("Music")
    found["stream"] = [(c.sequence, c.name, c.pk, c.sort, c.old, c.new) for c in stream.after(0)]
    return found


def _canonical(item: dict) -> str:
    """A sort key for items that equal numbers share (1E+20 and 100000000000000000000 are one N value)."""
    return repr(sorted((name, value.normalize() if isinstance(value, Decimal) else value)
                       for name, value in item.items()))


def _scan(db, table: str, index: str | None = None) -> list:
    page = db.engine.scan_page(table, index)
    assert page.last_key is None
    return [record.item for record in page.records]


def _version(path: str) -> int:
    db = sqlite3.connect(path)
    try:
        return db.execute("PRAGMA user_version").fetchone()[0]
    finally:
        db.close()


@pytest.mark.parametrize("name, writes", [(f"format-{version}{log}.db", [(0, 120)] + ([(120, 150)] if log else []))
                                          for version in (5, 6) for log in ("", "-log")])  # (30 in a log)
def test_a_file_of_an_earlier_release_opens_with_everything_re_placed(tmp_path, name, writes):
    path = _copy(tmp_path, name)
    assert _version(path) == int(name.split("-")[1][0])
    expected = _contents(_expected(writes))
    assert len(expected["stream"]) > 150 and len(expected["Readings", None]) == writes[-1][1]
    with partiql.connect(path) as db:
        assert _contents(db) == expected
        for table in ("Music", "Readings", "Blobs"):  # in DynamoDB's order now: the key hash's
            key = db.engine.tables[table].spec.key
            scanned = _scan(db, table)
            placed = sorted(scanned, key=lambda item: (key_hash(item[key.hash_name]), item[key.hash_name]))
            assert [item[key.hash_name] for item in scanned] == [item[key.hash_name] for item in placed]
    assert _version(path) == FORMAT_VERSION and not Path(path + "-writes").exists()
    with partiql.connect(path, read_only=True) as db:
        assert _contents(db) == expected


def test_a_file_whose_upgrade_finds_a_damaged_item_is_left_as_it_was(tmp_path):
    path = _copy(tmp_path, "format-5-log.db")
    db = sqlite3.connect(path)
    db.execute("UPDATE items SET crc = crc + 1 WHERE key = (SELECT max(key) FROM items WHERE tid = 2)")
    db.commit()
    before = db.execute("SELECT * FROM items ORDER BY tid, key").fetchall()
    db.close()
    log = Path(path + "-writes").read_bytes()
    with pytest.raises(StorageError) as refused:
        partiql.connect(path)
    assert "upgrading it from file format 5 failed" in str(refused.value) and "is damaged" in str(refused.value)
    assert _version(path) == 5 and Path(path + "-writes").read_bytes() == log
    db = sqlite3.connect(path)
    assert db.execute("SELECT * FROM items ORDER BY tid, key").fetchall() == before
    db.close()


def test_a_damaged_log_of_the_previous_release_is_recovered_and_the_file_then_upgraded(tmp_path):
    path = _copy(tmp_path, "format-5-log.db")
    log = Path(path + "-writes")
    data = bytearray(log.read_bytes())
    data[len(data) // 2] ^= 0x10
    log.write_bytes(data)
    with pytest.raises(StorageError, match="is damaged"):
        partiql.connect(path)
    report = recover(path)
    assert report.applied > 0 and report.damage
    with partiql.connect(path) as db:
        assert db.engine.tables["Readings"].item_count > 120
    assert _version(path) == FORMAT_VERSION
