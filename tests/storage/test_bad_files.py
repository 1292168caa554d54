"""Bad files get a clear error naming the file, and are left exactly as they were."""

from __future__ import annotations

import os
import random
import sqlite3

import pytest

import partiql
from partiql.engine.storage import StorageError
from partiql.engine.storage.file_format import FORMAT_VERSION

from .helpers import create_simple


def _random_bytes(path):
    path.write_bytes(random.Random(5).randbytes(50_000))


def _text(path):
    path.write_text("Artist,Song\nAcme,Hi\n")


def _database(path, items: int = 2000):
    with partiql.connect(path) as db:
        create_simple(db.engine)
        db.engine.batch_write_item(RequestItems={"Items": [
            {"PutRequest": {"Item": {"pk": f"p{n}", "sk": n, "pad": "x" * 200}}} for n in range(25)]})
        for start in range(25, items, 25):
            db.engine.batch_write_item(RequestItems={"Items": [
                {"PutRequest": {"Item": {"pk": f"p{n}", "sk": n, "pad": "x" * 200}}}
                for n in range(start, start + 25)]})


def _truncated(path):
    _database(path)
    size = os.path.getsize(path)
    with open(path, "r+b") as file:
        file.truncate(size // 2)


def _header_only(path):
    _database(path)
    with open(path, "r+b") as file:
        file.truncate(60)


def _newer(path):
    _database(path, items=50)
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {FORMAT_VERSION + 1}")
    db.close()


def _foreign(path):
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY, name TEXT)")
    db.execute("INSERT INTO accounts (name) VALUES ('someone else''s data')")
    db.commit()
    db.close()


def _scribbled(path):
    """Pages in the middle overwritten: SQLite finds the damage while the items load."""
    _database(path)
    size = os.path.getsize(path)
    with open(path, "r+b") as file:
        file.seek(size // 2)
        file.write(random.Random(7).randbytes(8192))


BAD_FILES = {
    "random bytes": (_random_bytes, "not an SQLite file"),
    "a text file": (_text, "not an SQLite file"),
    "truncated": (_truncated, "truncated"),
    "cut inside the header": (_header_only, "truncated"),
    "a newer format": (_newer, "newer partiql-ddb"),
    "another application's database": (_foreign, "not a partiql-ddb one"),
    "damaged pages": (_scribbled, "damaged"),
}


@pytest.mark.parametrize("make,expected", BAD_FILES.values(), ids=BAD_FILES.keys())
def test_a_bad_file_is_refused_and_left_untouched(path, make, expected):
    make(path)
    before = path.read_bytes()
    with pytest.raises(StorageError) as caught:
        partiql.connect(path)
    message = str(caught.value)
    assert str(path) in message and expected in message and "left as it is" in message
    assert path.read_bytes() == before
    with pytest.raises(StorageError):  # refused again: the failed open released the file
        partiql.connect(path)


def test_an_empty_file_becomes_a_new_database(path):
    path.write_bytes(b"")
    with partiql.connect(path) as db:
        create_simple(db.engine)
    with partiql.connect(path) as db:
        assert db.table_names() == ["Items"]


def test_a_directory_or_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(StorageError, match="missing"):
        partiql.connect(tmp_path / "missing" / "app.db")
    with pytest.raises(StorageError, match=str(tmp_path)):
        partiql.connect(tmp_path)
