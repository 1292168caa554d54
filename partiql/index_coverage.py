"""What a new GSI holds once backfilled, said when it is surprising (issue #13 point 1).

An index skips every item that lacks one of its key attributes, or holds it
with another type. That is DynamoDB's sparse index, and often the point; but
an index that ends up with none of the table's items usually means a
misspelt key, a key typed NUMBER over string data, or a path into a map
(``Ship.City``) where only a top-level attribute can be a key.
"""

from __future__ import annotations

from partiql.engine.partition import MAIN
from partiql.engine.types import type_of

TYPE_WORDS = {"S": "STRING", "N": "NUMBER", "B": "BINARY"}


def empty_index_warnings(engine, table_name: str, index_name: str) -> list[str]:
    """Warnings for an index that holds none of its table's items (empty when it holds some, or the
    table is empty)."""
    with engine.lock:
        table = engine.table(table_name)
        index = table.spec.index(index_name)
        total = table.item_count
        if index is None or total == 0 or table.index_stats(index)[0]:
            return []
        present = {name: 0 for name in index.key.names}
        typed = dict(present)
        for record in table.store.scan(MAIN):
            for name, kind in index.key.types.items():
                if name in record.item:
                    present[name] += 1
                    typed[name] += type_of(record.item[name]) == kind
    return [_reason(index_name, total, name, kind, present[name], typed[name])
            for name, kind in index.key.types.items() if typed[name] < total][:1]


def _reason(index: str, total: int, name: str, kind: str, present: int, typed: int) -> str:
    if not present:
        return (f"{index} is empty: 0 of {total:,} items have {name} (an index key is a top-level attribute; "
                f"a value inside a map, like Ship.City, cannot key an index)")
    return (f"{index} is empty: {present:,} of {total:,} items have {name}, but {'none' if not typed else typed} "
            f"as {TYPE_WORDS[kind]} (an item whose key attribute has another type is left out of the index)")
