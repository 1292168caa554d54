"""Rebuild a table in memory from what a storage kept: spec, state, layout and items.

Items go back through ``Table.commit``, the one write path, so partitions,
LSI and GSI entries, sizes and item-collection sizes are rebuilt by the same
code that maintained them. Validation and capacity arithmetic are skipped:
every stored item passed them when it was written.
"""

from __future__ import annotations

from ..schema import TableSpec
from ..table import IndexChange, Mutation, Table


def restore_table(engine, spec: TableSpec, state: dict, layout: dict, records) -> Table:
    """Add the table to ``engine`` with its saved attributes and partitions, then its items.

    ``records`` yields (partition-key hash, ``Record``) per item, best in storage order.
    """
    table = engine.add_table(spec)
    for name, value in state.items():
        setattr(table, name, value)
    _lay_out(table, layout)
    key = spec.key
    indexes = spec.indexes
    for h, record in records:
        item = record.item
        pk = item[key.hash_name]
        sort = None if key.range_name is None else (item[key.range_name],)
        mutation = Mutation(table, h, pk, sort, None, record)
        if indexes:
            mutation.changes = [IndexChange(index, None, table.entry(index, record)) for index in indexes]
        table.commit(mutation)
    return table


def _lay_out(table: Table, layout: dict) -> None:
    """Give the (still empty) stores the partition boundaries they had."""
    if layout.get("table"):
        table.store.lay_out(layout["table"])
    for name, starts in layout.get("gsi", {}).items():
        store = table.gsi_stores.get(name)
        if store is not None and starts:
            store.lay_out(starts)
