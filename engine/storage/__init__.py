"""Persistence: the ``Storage`` interface the engine calls, and its two implementations.

=====================  ====================================================
``base``               the interface, ``MemoryStorage``, ``collector_paused``
``errors``             ``StorageError``, ``DatabaseLocked``
``sqlite``             ``SqliteStorage``: one SQLite file (loaded lazily)
``file_format``        the file's schema, version and migrations
``codec``              items, specs and states as stored rows
``file_lock``          one owner per file
``restore``            rebuild a table from stored rows
``integrity``          ``check_file`` (read-only) and the online ``backup``
=====================  ====================================================

Imports point one way: ``sqlite`` → ``file_format`` / ``codec`` /
``file_lock`` / ``restore`` → ``base`` / ``errors``; nothing imports this
package's ``__init__`` but the engine's users.
"""

from __future__ import annotations

from .base import MemoryStorage, Storage, collector_paused
from .errors import DatabaseLocked, StorageError

__all__ = ["DatabaseLocked", "MemoryStorage", "Storage", "StorageError", "collector_paused", "open_storage"]


def open_storage(path: str | None, **options) -> Storage:
    """``MemoryStorage`` for None, else a ``SqliteStorage`` on ``path`` (see its options)."""
    if path is None:
        return MemoryStorage()
    from .sqlite import SqliteStorage  # why: sqlite3 is imported only for file databases
    return SqliteStorage(path, **options)
