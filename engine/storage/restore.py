"""Rebuild a table in memory from what a storage kept: spec, state, layout and items.

Each item's index entries come from ``Table.entry``, as the write path makes
them; then each store is filled in one step per partition (``Store.load``)
instead of one insert per item (issue 19: opening a file is the bulk of a
session's start). Validation and capacity arithmetic are skipped: every
stored item passed them when it was written.

An item is kept as its row's text until something reads it (``StoredRecord``):
why, decoding every item is most of an open's time and a decoded small item
takes four to five times the memory of its text; most sessions read a
fraction of a large table. A table with indexes reads every item to build
their entries, so its items are decoded on open.
"""

from __future__ import annotations

from ..errors import InternalServerError
from ..partition import MAIN, Record, stored_key
from ..schema import TableSpec
from ..table import Table
from ..types import shallow_containers
from .codec import decode_item


class StoredRecord(Record):
    """A ``Record`` read from a file and not decoded yet: its ``shallow`` holds the row's JSON text
    (its UTF-8 bytes) until the first read of ``item`` decodes it (under the engine lock, as every
    read of a stored record is). A write of its key fills it as any stored record."""

    __slots__ = ()

    def __init__(self, text: bytes, size: int, key: tuple):  # (Record's own would decode the item)
        self.shallow = text
        self.size = size
        self.key = key

    def __getattr__(self, name: str):
        if name != "item":  # (reached only for an attribute that is not set)
            raise AttributeError(name)
        try:
            item = decode_item(self.shallow.decode("utf-8"))
        except (ValueError, KeyError, TypeError) as error:  # (its checksum held: a file written by other means)
            raise InternalServerError(f"a stored item cannot be read ({type(error).__name__}: {error}): run "
                                      "`partiql check` on the database file") from None
        self.item, self.shallow = item, shallow_containers(item)
        return item


def restore_table(engine, spec: TableSpec, state: dict, layout: dict, records) -> Table:
    """Add the table to ``engine`` with its saved attributes and partitions, then its items.

    ``records`` yields each item's ``Record``, keyed as the table's partitions store it
    (``partition.stored_key``), best in storage order.
    """
    table = engine.add_table(spec)
    for name, value in state.items():
        setattr(table, name, value)
    _lay_out(table, layout)
    if not spec.indexes:  # the rows straight into the partitions
        table.store.load(MAIN, records)
        return table
    items, entries = [], {index.name: [] for index in spec.indexes}
    collections = table.collection_bytes if table.has_lsis else None
    for record in records:
        items.append(record)
        collection_bytes = record.size  # (the item and its LSI entries)
        for index in spec.indexes:
            entry = table.entry(index, record)
            if entry is not None:
                h, pk, sort, projected = entry
                projected.key = stored_key(h, pk, sort)
                entries[index.name].append(projected)
                if index.kind == "LSI":
                    collection_bytes += projected.size
        if collections is not None:
            pk = record.key[1]
            collections[pk] = collections.get(pk, 0) + collection_bytes
    table.store.load(MAIN, items)
    for index in spec.indexes:
        store, space = table._index_store(index)
        store.load(space, entries[index.name])
    return table


def _lay_out(table: Table, layout: dict) -> None:
    """Give the (still empty) stores the partition boundaries they had."""
    if layout.get("table"):
        table.store.lay_out(layout["table"])
    for name, starts in layout.get("gsi", {}).items():
        store = table.gsi_stores.get(name)
        if store is not None and starts:
            store.lay_out(starts)
