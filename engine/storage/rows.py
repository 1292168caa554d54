"""The SQL rows an operation's item writes become, and writing a list of rows in one go.

A row is ``(statement, parameters)``: ``PUT_ITEM`` / ``DELETE_ITEM`` here,
the stream statements in ``stream_rows``. ``SqliteStorage`` writes them in a
transaction, or appends the rows of a small operation to the write log
(``write_log``), which folds them in later with the same ``write``.
"""

from __future__ import annotations

from itertools import groupby
from operator import itemgetter

PUT_ITEM = "INSERT OR REPLACE INTO items (tid, key, size, item, crc) VALUES (?, ?, ?, ?, ?)"
DELETE_ITEM = "DELETE FROM items WHERE tid = ? AND key = ?"
# why item rows are written in key order past a few thousand: the rows of a bulk write (an import,
# a fold of the write log) come in the order they were made, random in key order, and a table larger
# than SQLite's page cache then rewrites its pages over and over; in key order each page is written once.
KEYED = frozenset({PUT_ITEM, DELETE_ITEM})
ROW_KEY = itemgetter(0, 1)  # (tid, key): the items table's primary key
# why the key bytes alone: a run is nearly always one table's (an import), and sorting a million rows by
# their bytes takes 0.6 s, by (tid, key) tuples 2 s; rows of two tables interleave, each table in order
KEY_BYTES = itemgetter(1)
SORT_ABOVE = 4096


def write(db, rows: list) -> None:
    """Execute ``rows`` in their order, a run of one statement as one ``executemany`` (within the
    caller's transaction)."""
    for statement, group in groupby(rows, key=itemgetter(0)):  # in order, in runs
        parameters = [parameters for _, parameters in group]
        if statement in KEYED and len(parameters) > SORT_ABOVE:
            parameters.sort(key=KEY_BYTES)  # (stable: a key written twice keeps its order)
        db.executemany(statement, parameters)
