"""The database file's format: its SQLite schema, version number, checks and migrations.

A database is an SQLite file whose ``application_id`` is ``APPLICATION_ID``
and whose ``user_version`` is the format version. Opening one goes:

1. ``check_header`` reads the first 100 bytes itself, so a file that is not
   SQLite at all, or was cut short, is refused before SQLite touches it.
2. ``prepare`` reads the two numbers: a new (empty) file gets the current
   schema; a file of another application, or of a newer format, is refused
   before anything is written; an older format is migrated, every step in
   one transaction, so a crash mid-migration leaves the old file intact.

Format history (``SCHEMAS`` keeps each one, so tests can build old files):

* 1 — the prototype's layout: items keyed by table *name* and by their key
  bytes alone, without their sizes.
* 2 — items keyed by a small integer table id and by (hash, key bytes), in
  the engine's storage order, with their sizes: a 100,000-item file opens
  in about a second, and a table dropped and created again under the same
  name never shares rows.
* 3 — every item and table row carries a CRC-32 of its contents
  (``codec.item_checksum`` / ``table_checksum``), verified on open and by
  ``partiql check``: SQLite checks its pages' structure, not the values in
  them.
* 4 — DynamoDB Streams: ``streams`` keeps each stream's description (its
  shards and their lineage) by ARN with a small stream number,
  ``stream_records`` each change record by sequence number with its stream
  and shard numbers, both with checksums; a record is written in the
  transaction of the item it records.
* 5 — the newest writes of a session may wait in a write log beside the
  file, ``FILE-writes`` (``write_log``), until they are folded in; the
  ``settings`` row ``folded`` names the last log folded. No table changed:
  the number tells an older version, which would not read the log, to keep
  its hands off.
* 6 — items placed by DynamoDB's own key hash (``placement``: the MD5
  digest of ``Outliers`` and the key's bytes) instead of our earlier one:
  each row key's first eight bytes change, so Scan order, parallel-Scan
  segments and partitions are DynamoDB's (recorded-2026-11 A11). The
  migration folds in a write log the earlier release left (its rows carry
  the old keys), checks every item's checksum, and re-keys every item, in
  one transaction; partition layouts and streams are unchanged.
* 7 — a GSI may be keyed on several HASH and RANGE attributes
  (multi-attribute-keys.md): a table's spec may hold key attributes an
  older version would drop without a word. No table changed: the number
  tells an older version to keep its hands off.
"""

from __future__ import annotations

import json
import os
import sqlite3
from decimal import Decimal

from ..placement import digest_hash, number_bytes
from .errors import StorageError
from .codec import ROW_KEY_HEAD, decode_item, decode_spec, item_checksum, item_row_key, table_checksum
from ..types import item_size

APPLICATION_ID = 0x50514444  # "PQDD"
FORMAT_VERSION = 7
LOGGED_FORMATS = range(5, FORMAT_VERSION + 1)  # the formats whose files may have a write log
SQLITE_MAGIC = b"SQLite format 3\x00"
HEADER_BYTES = 100

# The settings table is part of every format. Since the scan policy became a connection's (issue 13.6:
# a file shared by two programs must not impose one's policy) it holds only the write log's ``folded``.
SCHEMAS = {
    1: ["CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
        "CREATE TABLE tables (name TEXT PRIMARY KEY, spec TEXT NOT NULL, state TEXT NOT NULL)",
        "CREATE TABLE items (tbl TEXT NOT NULL, key BLOB NOT NULL, item TEXT NOT NULL, "
        "PRIMARY KEY (tbl, key)) WITHOUT ROWID"],
    2: ["CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
        "CREATE TABLE tables (tid INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, spec TEXT NOT NULL, "
        "state TEXT NOT NULL)",
        "CREATE TABLE items (tid INTEGER NOT NULL, key BLOB NOT NULL, size INTEGER NOT NULL, "
        "item TEXT NOT NULL, PRIMARY KEY (tid, key)) WITHOUT ROWID"],
    3: ["CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
        "CREATE TABLE tables (tid INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, spec TEXT NOT NULL, "
        "state TEXT NOT NULL, crc INTEGER NOT NULL)",
        "CREATE TABLE items (tid INTEGER NOT NULL, key BLOB NOT NULL, size INTEGER NOT NULL, "
        "item TEXT NOT NULL, crc INTEGER NOT NULL, PRIMARY KEY (tid, key)) WITHOUT ROWID"],
}
STREAM_SCHEMA = [
    "CREATE TABLE streams (arn TEXT PRIMARY KEY, sid INTEGER NOT NULL UNIQUE, state TEXT NOT NULL, "
    "crc INTEGER NOT NULL) WITHOUT ROWID",
    "CREATE TABLE stream_records (seq INTEGER PRIMARY KEY, sid INTEGER NOT NULL, shard INTEGER NOT NULL, "
    "record TEXT NOT NULL, crc INTEGER NOT NULL)",
]
SCHEMAS[4] = SCHEMAS[3] + STREAM_SCHEMA
SCHEMAS[5] = SCHEMAS[4]
SCHEMAS[6] = SCHEMAS[5]
SCHEMAS[7] = SCHEMAS[6]


READ_ONLY_FILE = ("cannot open {path} for writing: the file is read-only to this user; read a snapshot of it "
                  "with --read-only (partiql.connect(path, read_only=True)), or make it writable")


def check_writable(path: str) -> None:
    """Refuse, before anything is acknowledged, to own a file this process may not write.

    why (issue 38): SQLite opens a read-only file; its writes went to the write log and were acknowledged,
    and only folding them in failed, at close, after a server had said yes."""
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise StorageError(READ_ONLY_FILE.format(path=path))


def _v1_to_v2(db: sqlite3.Connection) -> None:
    db.execute("ALTER TABLE tables RENAME TO tables_v1")
    db.execute("ALTER TABLE items RENAME TO items_v1")
    for statement in SCHEMAS[2][1:]:
        db.execute(statement)
    db.execute("INSERT INTO tables (name, spec, state) SELECT name, spec, state FROM tables_v1 ORDER BY name")
    for tid, spec_text in db.execute("SELECT tid, spec FROM tables").fetchall():
        key = decode_spec(spec_text).key
        rows = db.execute("SELECT i.item FROM items_v1 i JOIN tables t ON t.name = i.tbl WHERE t.tid = ?",
                          (tid,))
        db.executemany("INSERT INTO items (tid, key, size, item) VALUES (?, ?, ?, ?)",
                       (_v2_row(tid, key, text) for (text,) in rows))
    db.execute("DROP TABLE items_v1")
    db.execute("DROP TABLE tables_v1")


def _v2_row(tid: int, key, text: str) -> tuple:
    item = decode_item(text)
    return tid, item_row_key(key, item), item_size(item), text


def _v2_to_v3(db: sqlite3.Connection) -> None:
    db.create_function("item_crc", 3, item_checksum, deterministic=True)
    db.create_function("table_crc", 3, table_checksum, deterministic=True)
    db.execute("ALTER TABLE tables RENAME TO tables_v2")
    db.execute("ALTER TABLE items RENAME TO items_v2")
    for statement in SCHEMAS[3][1:]:
        db.execute(statement)
    db.execute("INSERT INTO tables (tid, name, spec, state, crc) "
               "SELECT tid, name, spec, state, table_crc(name, spec, state) FROM tables_v2")
    db.execute("INSERT INTO items (tid, key, size, item, crc) "
               "SELECT tid, key, size, item, item_crc(key, size, item) FROM items_v2")
    db.execute("DROP TABLE items_v2")
    db.execute("DROP TABLE tables_v2")


def _v3_to_v4(db: sqlite3.Connection) -> None:
    for statement in STREAM_SCHEMA:
        db.execute(statement)


def _v4_to_v5(db: sqlite3.Connection) -> None:
    """Nothing to change: a format-4 file has no write log, and ``folded`` is 0 until one is folded."""


def _v5_to_v6(db: sqlite3.Connection) -> None:
    """Every item re-keyed by DynamoDB's key hash, once its checksum has held (a damaged item must not be
    given a new, good checksum)."""
    db.create_function("item_crc", 3, item_checksum, deterministic=True)
    tables = {tid: decode_spec(text) for tid, text in db.execute("SELECT tid, spec FROM tables")}
    bad = db.execute("SELECT tid, key, item FROM items WHERE item_crc(key, size, item) != crc LIMIT 1").fetchone()
    if bad is not None:
        tid, key, text = bad
        raise ValueError(f"table {tables[tid].name!r}: the item with key {describe_key(tables[tid].key, key, text)} "
                         "is damaged (its checksum does not match its contents)")
    readers = {tid: _HASHED[spec.key.hash_type] for tid, spec in tables.items()}
    db.create_function("placed", 2, lambda tid, key: _placed(readers[tid], key), deterministic=True)
    db.execute("ALTER TABLE items RENAME TO items_v5")
    db.execute(SCHEMAS[6][2])
    db.execute("INSERT INTO items (tid, key, size, item, crc) SELECT tid, new, size, item, item_crc(new, size, item) "
               "FROM (SELECT tid, placed(tid, key) AS new, size, item FROM items_v5) ORDER BY tid, new")
    db.execute("DROP TABLE items_v5")


# The bytes DynamoDB hashes, from a partition-key value's bytes in a row key (``codec.row_key``).
_HASHED = {"S": bytes, "B": bytes, "N": lambda data: number_bytes(Decimal(data.decode("ascii")))}


def _placed(hashed, key: bytes) -> bytes:
    """A row key with the hash DynamoDB gives its partition-key value (``placement``)."""
    end = 10 + int.from_bytes(key[8:10], "big")
    return ROW_KEY_HEAD(digest_hash(hashed(key[10:end])), end - 10) + key[10:]


def _v6_to_v7(db: sqlite3.Connection) -> None:
    """Nothing to change: a format-6 file's key schemas read as they are (one HASH and one RANGE at most)."""


# MIGRATIONS[n] turns format n into format n + 1.
MIGRATIONS = {1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4, 4: _v4_to_v5, 5: _v5_to_v6, 6: _v6_to_v7}


def damaged(path: str, detail: str) -> StorageError:
    return StorageError(f"cannot open {path}: not a partiql-ddb database, or a damaged one ({detail}); "
                        "the file was left as it is")


def damaged_table(path: str, table: str) -> StorageError:
    return StorageError(f"cannot open {path}: the definition of table {table!r} is damaged (its checksum does "
                        "not match its contents); the file was left as it is")


def damaged_item(path: str, table: str, key_schema, row: bytes, text: str) -> StorageError:
    return StorageError(f"cannot open {path}: table {table!r}: the item with key "
                        f"{describe_key(key_schema, row, text)} is damaged (its checksum does not match its "
                        "contents); the file was left as it is")


def describe_key(key_schema, row: bytes, text: str) -> str:
    """A stored item's key for a message: its key attributes while its text still reads, else the row's key bytes."""
    try:
        item = json.loads(text)
        key = {name: item[name] for name in (key_schema.hash_name, key_schema.range_name) if name is not None}
    except (ValueError, TypeError, KeyError):
        return f"(row key bytes {row.hex()})"
    return json.dumps(key, separators=(",", ":"), ensure_ascii=False)


def check_header(path: str) -> None:
    """Refuse a non-SQLite or visibly truncated file before SQLite opens it."""
    try:
        size = os.path.getsize(path)
    except FileNotFoundError:
        return  # a new database
    if size == 0:
        return  # SQLite treats an empty file as an empty database
    try:
        with open(path, "rb") as file:
            header = file.read(HEADER_BYTES)
    except OSError as error:  # a directory, no permission
        raise StorageError(f"cannot open {path}: {error.strerror}") from None
    if not header.startswith(SQLITE_MAGIC):
        raise damaged(path, "it is not an SQLite file")
    if len(header) < HEADER_BYTES:
        raise damaged(path, "the file is truncated")
    promised = _promised_size(path, header)
    if size < promised:
        raise damaged(path, f"the file is truncated: {size} bytes of the {promised} its header promises")


def _promised_size(path: str, header: bytes) -> int:
    """The size the header says the file has (0 when it cannot tell)."""
    # why the -wal test: after a crash mid-checkpoint the file can lag its
    # header until SQLite replays the log; only a file without one must add up.
    if os.path.exists(path + "-wal") and os.path.getsize(path + "-wal") > 0:
        return 0
    if header[24:28] != header[92:96]:  # the header's own test of its page count
        return 0
    page_size = int.from_bytes(header[16:18], "big")
    return int.from_bytes(header[28:32], "big") * (65536 if page_size == 1 else page_size)


def check_structure(db: sqlite3.Connection, path: str) -> None:
    """Refuse a file whose SQLite structure is damaged, before anything reads or writes its rows. why:
    SQLite reads past a damaged b-tree page without a word (a lost pointer loses its rows); its
    structural check costs ~3 % of a load."""
    structure = db.execute("PRAGMA quick_check(1)").fetchone()[0]
    if structure != "ok":
        raise damaged(path, f"SQLite: {structure}")


def prepare(db: sqlite3.Connection, path: str, fold_log=None) -> None:
    """Create, accept or migrate the open file's schema; refuse anything else untouched. ``fold_log(db)``
    folds in the file's write log: an older format's log holds rows of that format, so it is folded in the
    first migration's transaction, before anything changes."""
    application = db.execute("PRAGMA application_id").fetchone()[0]
    version = db.execute("PRAGMA user_version").fetchone()[0]
    objects = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    if application == 0 and version == 0 and objects == 0:
        create_version(db, FORMAT_VERSION)
        return
    if application != APPLICATION_ID:
        raise StorageError(f"cannot open {path}: it is an SQLite database, but not a partiql-ddb one; "
                           "the file was left as it is")
    if version > FORMAT_VERSION:
        raise StorageError(f"cannot open {path}: it was written by a newer partiql-ddb (file format "
                           f"{version}; this version reads formats up to {FORMAT_VERSION}); "
                           "the file was left as it is")
    if version < FORMAT_VERSION:
        try:
            migrate(db, version, fold_log)
        except (ValueError, KeyError, TypeError) as error:  # rows the migration cannot read
            raise StorageError(f"cannot open {path}: upgrading it from file format {version} failed "
                               f"({type(error).__name__}: {error}); the file was left as it is") from None


def accept(db: sqlite3.Connection, path: str) -> None:
    """Accept a file opened read-only as it is: the current format, or a clear refusal."""
    application = db.execute("PRAGMA application_id").fetchone()[0]
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if application != APPLICATION_ID:
        raise StorageError(f"cannot open {path} read-only: it is not a partiql-ddb database")
    if version != FORMAT_VERSION:
        newer = version > FORMAT_VERSION
        raise StorageError(f"cannot open {path} read-only: it is in file format {version}, this version reads "
                           f"{FORMAT_VERSION}" + ("" if newer else "; open it once for writing to upgrade it"))


def migrate(db: sqlite3.Connection, version: int, fold_log=None) -> None:
    """Bring a format-``version`` file up to ``FORMAT_VERSION``, one atomic step at a time (the first
    folding in the file's write log, with ``fold_log``)."""
    while version < FORMAT_VERSION:
        with transaction(db):
            if fold_log is not None and version in LOGGED_FORMATS:
                fold_log(db)
                fold_log = None
            MIGRATIONS[version](db)
            version += 1
            _stamp(db, version)


def create_version(db: sqlite3.Connection, version: int) -> None:
    """Lay out an empty database in format ``version`` (the current one, or an old one for tests)."""
    db.execute("PRAGMA journal_mode=WAL")
    with transaction(db):
        for statement in SCHEMAS[version]:
            db.execute(statement)
        _stamp(db, version)


def _stamp(db: sqlite3.Connection, version: int) -> None:
    db.execute(f"PRAGMA application_id={APPLICATION_ID}")
    db.execute(f"PRAGMA user_version={version}")


class transaction:
    """BEGIN … COMMIT on an autocommit connection; ROLLBACK if anything fails."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, error, trace):
        if kind is None:
            try:
                self.db.execute("COMMIT")
                return False
            except BaseException:
                self._rollback()
                raise
        self._rollback()
        return False

    def _rollback(self) -> None:
        if self.db.in_transaction:  # why: SQLite may already have rolled back (I/O error, full disk)
            self.db.execute("ROLLBACK")
