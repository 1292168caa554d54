"""Rebuild a table in memory from what a storage kept: spec, state, layout and items.

Each item's index entries come from ``Table.entry``, as the write path makes
them; then each store is filled in one step per partition (``Store.load``)
instead of one insert per item (issue 19: opening a file is the bulk of a
session's start). Validation and capacity arithmetic are skipped: every
stored item passed them when it was written.
"""

from __future__ import annotations

from ..partition import MAIN
from ..schema import TableSpec
from ..table import Table


def restore_table(engine, spec: TableSpec, state: dict, layout: dict, records) -> Table:
    """Add the table to ``engine`` with its saved attributes and partitions, then its items.

    ``records`` yields (partition-key hash, ``Record``) per item, best in storage order.
    """
    table = engine.add_table(spec)
    for name, value in state.items():
        setattr(table, name, value)
    _lay_out(table, layout)
    key = spec.key
    hash_name, range_name = key.hash_name, key.range_name
    items, entries = [], {index.name: [] for index in spec.indexes}
    collections = table.collection_bytes if table.has_lsis else None
    for h, record in records:
        item = record.item
        pk = item[hash_name]
        items.append((h, pk, None if range_name is None else (item[range_name],), record))
        for index in spec.indexes:
            entry = table.entry(index, record)
            if entry is not None:
                entries[index.name].append(entry)
                if collections is not None and index.kind == "LSI":
                    collections[pk] = collections.get(pk, 0) + entry[3].size
        if collections is not None:
            collections[pk] = collections.get(pk, 0) + record.size
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
