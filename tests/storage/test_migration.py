"""Opening a file of an older format migrates it, atomically; a failed migration changes nothing."""

from __future__ import annotations

import json
import sqlite3

import pytest

import partiql
from partiql.engine.schema import IndexSpec, KeySchema, Projection, TableSpec
from partiql.engine.storage import StorageError
from partiql.engine.storage.codec import encode_item, encode_spec
from partiql.engine.storage.file_format import FORMAT_VERSION, create_version
from partiql.engine.types import from_python

SPEC = TableSpec("Music", KeySchema("Artist", "S", "Song", "S"), {"Artist": "S", "Song": "S", "Year": "N"},
                 indexes=(IndexSpec("ByYear", "GSI", KeySchema("Year", "N"), Projection("KEYS_ONLY")),))
STATE = {"created_at": 1700000000.5, "table_id": "0b7f3c1e-6d2a-4c55-9c1e-1f2e3d4c5b6a", "status": "ACTIVE",
         "stream_label": None, "layout": {"table": None, "gsi": {}}}


def _version_1(path, items: list, broken: bool = False) -> None:
    """A format-1 file as the prototype wrote it: items keyed by table name and key bytes."""
    db = sqlite3.connect(path, isolation_level=None)
    create_version(db, 1)
    db.execute("INSERT INTO tables (name, spec, state) VALUES (?, ?, ?)",
               ("Music", encode_spec(SPEC), json.dumps(STATE)))
    for item in items:
        key = f"{item['Artist']}\x00{item['Song']}".encode()
        db.execute("INSERT INTO items (tbl, key, item) VALUES (?, ?, ?)",
                   ("Music", key, encode_item(from_python(item))))
    if broken:
        db.execute("INSERT INTO items (tbl, key, item) VALUES ('Music', x'00', '{not json')")
    db.execute("INSERT INTO settings (name, value) VALUES ('scan_policy', '\"warn\"')")
    db.close()


ITEMS = [{"Artist": f"a{n % 3}", "Song": f"s{n}", **({"Year": 2000 + n} if n % 2 else {})} for n in range(30)]


def _version(path) -> int:
    db = sqlite3.connect(path)
    try:
        return db.execute("PRAGMA user_version").fetchone()[0]
    finally:
        db.close()


def test_a_version_1_file_is_migrated_and_everything_is_there(path):
    _version_1(path, ITEMS)
    with partiql.connect(path) as db:
        assert db.scan_policy == "allow"  # the policy version 1 stored is no longer imposed (issue 13.6)
        table = db.engine.tables["Music"]
        assert table.table_id == STATE["table_id"] and table.created_at == STATE["created_at"]
        assert table.item_count == 30
        assert table.index_stats(table.spec.index("ByYear"))[0] == 15
        found = db.execute("SELECT * FROM Music WHERE Artist = 'a1'").items
        assert sorted(item["Song"] for item in found) == sorted(f"s{n}" for n in range(30) if n % 3 == 1)
        db.execute("INSERT INTO Music VALUE {'Artist': 'new', 'Song': 'one'}")
    assert _version(path) == FORMAT_VERSION
    with partiql.connect(path) as db:
        assert db.engine.tables["Music"].item_count == 31


def test_a_migration_that_fails_leaves_the_old_file(path):
    _version_1(path, ITEMS, broken=True)
    with pytest.raises(StorageError) as caught:
        partiql.connect(path)
    message = str(caught.value)
    assert str(path) in message and "from file format 1" in message and "left as it is" in message
    assert _version(path) == 1
    db = sqlite3.connect(path)
    assert db.execute("SELECT count(*) FROM items").fetchone()[0] == 31
    assert [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")] \
        == ["items", "settings", "tables"]
    db.close()
