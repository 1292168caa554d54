"""A database's files deleted or replaced while it is open: how that is told, and what is said.

A user may take ``FILE-writes`` for a temporary file, or delete the database
itself, while a server has it open. The open descriptors still reach the
files' contents, so nothing acknowledged is lost — unless writes go on into
files that no longer have a name. The owner asks ``deleted`` of both
descriptors on each write (one ``fstat`` each: a file deleted, or replaced by
a rename over it, has no link left) and refuses writes from then on with
``GONE``'s words; ``close`` writes what it holds where it can be found.
"""

from __future__ import annotations

import itertools
import os

GONE = {  # a file deleted or replaced while open: why writes are refused from then on
    "database": "cannot write {path}: the database file was deleted or replaced while open; writes are refused "
                "so that none is acknowledged into a file that is gone. Reads go on; every write acknowledged so "
                "far is kept, and closing the database writes all of it to a new file beside it",
    "log": "cannot write {path}: its write log {log} was deleted or replaced while open; writes are refused so "
           "that none is acknowledged into a file that is gone. Reads go on; every write acknowledged so far "
           "is kept, and closing the database writes it into {path}",
}


def recovery_path(path: str) -> str:
    """A new name beside ``path`` for what a session held of a database whose file was deleted."""
    return free_name(f"{path}.recovered")


def free_name(name: str) -> str:
    """``name``, or ``name-2``, ``name-3``, … : the first that names nothing (a file kept, never replaced)."""
    candidates = (name if n == 1 else f"{name}-{n}" for n in itertools.count(1))
    return next(candidate for candidate in candidates if not os.path.lexists(candidate))


def deleted(fd: int) -> bool:
    """Whether the file open as ``fd`` has lost its last name (deleted, or another file renamed over it)."""
    return os.fstat(fd).st_nlink == 0
