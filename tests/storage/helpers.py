"""Helpers of the storage tests: table requests, whole-database snapshots, what is on disk."""

from __future__ import annotations

import sqlite3

from partiql.engine import Engine
from partiql.engine.storage import write_log


def attribute_types(**types) -> list:
    return [{"AttributeName": name, "AttributeType": kind} for name, kind in types.items()]


def key_schema(hash_name: str, range_name: str | None = None) -> list:
    out = [{"AttributeName": hash_name, "KeyType": "HASH"}]
    if range_name:
        out.append({"AttributeName": range_name, "KeyType": "RANGE"})
    return out


def create_simple(engine: Engine, name: str = "Items", **extra) -> None:
    """A table keyed (pk S, sk N), on demand unless ``extra`` says otherwise."""
    extra.setdefault("BillingMode", "PAY_PER_REQUEST")
    engine.create_table(TableName=name, KeySchema=key_schema("pk", "sk"),
                        AttributeDefinitions=attribute_types(pk="S", sk="N"), **extra)


def snapshot(engine: Engine) -> dict:
    """Everything a reopen must reproduce: each table's description (partitions, counts,
    sizes, index stats, ids, times) and every item of the table and of each index, in order."""
    out = {}
    for name in engine.table_names():
        table = engine.tables[name]
        indexes = {index.name: [record.item for record in table.source(index)[0].scan(
                   table.source(index)[1])] for index in table.spec.indexes}
        out[name] = {"description": engine.describe_table(TableName=name)["Table"],
                     "items": [record.item for record in table.store.scan(None)],
                     "indexes": indexes,
                     "collections": dict(table.collection_bytes)}
    return out


def file_rows(path) -> int:
    """Item rows on disk: in the database file, read by a separate SQLite connection, with the writes
    of its write log that the file does not hold yet (read first, as every reader does: ``write_log``)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        unfolded = write_log.snapshot(db, str(path))
        overlay = write_log.Overlay(unfolded) if unfolded is not None else None
        rows = 0
        for (tid,) in db.execute("SELECT tid FROM tables").fetchall():
            stored = db.execute("SELECT key, size, item, crc FROM items WHERE tid = ? ORDER BY key", (tid,))
            rows += sum(1 for _ in (stored if overlay is None else overlay.items(tid, stored)))
        return rows
    finally:
        db.close()


def abandon(db) -> None:
    """Leave a session as a killed process would: nothing folded, the lock released by the OS."""
    storage = db.engine.storage
    storage._log.close()
    storage._db.close()
    storage._db = None
    storage._lock.release()
