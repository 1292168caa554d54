"""Persistence behind the partitions: what the engine calls at its few write points.

The engine serves every read from its in-memory partitions; a ``Storage``
only has to make writes durable and to rebuild the tables when a database
is opened. The engine calls it, always holding the engine lock:

================================  ==========================================
``load(engine)``                  once, from ``Engine.__init__``: rebuild the
                                  tables, their indexes and partitions
``persist(mutations, changes)``   every write operation, *before* it is
                                  applied in memory: all its mutations (1 for
                                  PutItem, N for a transaction or batch) and
                                  their stream records in one atomic storage
                                  transaction
``save_table(table)``             after CreateTable / UpdateTable changed a
                                  table's spec or state
``drop_table(name)``              DeleteTable, before the catalog forgets it
``close()``                       flush and release the file
``backup(dest)``                  copy the database to a new file (a file
                                  storage only; not called by the engine)
================================  ==========================================

Because ``persist`` runs before the in-memory commit and raises on failure,
a write the caller saw succeed is on disk, and a write that failed to reach
the disk never becomes visible. ``MemoryStorage`` (the default) does
nothing; ``partiql.engine.storage.sqlite.SqliteStorage`` keeps a single
SQLite file.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager

from .errors import StorageError


class Storage:
    """The interface; every method is a no-op here (an in-memory database)."""

    path: str | None = None  # the database file, None in memory
    durable = False          # whether it keeps the streams (``engine.streams.Streams.unsaved``)

    def load(self, engine) -> None:
        """Rebuild the engine's tables, indexes, partitions and items."""

    def persist(self, mutations: list, changes: list | None = None) -> None:
        """Make the mutations of one operation durable, all or none, before they are applied, with
        the stream records of ``changes`` ([(stream, shard, Change)], ``Streams.prepare``)."""

    def save_table(self, table) -> None:
        """Record a created or updated table (spec, state, partition layout)."""

    def drop_table(self, name: str) -> None:
        """Forget a table and all its items."""

    def check_writable(self) -> None:
        """StorageError when writes cannot be kept now: table operations ask first, so that
        nothing is changed in memory that the file would refuse."""

    def announce(self, url: str | None) -> None:
        """Tell later openers of the file that it is served at ``url`` (None: no longer)."""

    def close(self) -> None:
        """Flush and release the database; later writes raise StorageError."""

    def backup(self, dest) -> None:
        """Copy the database, as it is now, to the new file ``dest``."""
        raise StorageError("an in-memory database has no file to back up: connect to a database file, "
                           "or export its tables")


class MemoryStorage(Storage):
    """Nothing is kept: the database lives and dies with the process."""


@contextmanager
def collector_paused():
    """Pause Python's cyclic garbage collector during a bulk load (a reopen, an import).

    why: such a load allocates hundreds of thousands of long-lived containers
    (items, sorted groups) and no garbage cycles; the collector would walk the
    growing heap again and again, nearly doubling the time it takes. And
    what it made goes straight to the oldest generation (a freeze undone at
    once: two list splices): left in the youngest, the first collection
    after the load would walk all of it (~0.2 s for a million items), and
    the next generation's again, to learn that it lives on.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:  # (so none of the process's own frozen objects is thawed)
            gc.freeze()
            gc.unfreeze()
        if was_enabled:
            gc.enable()

