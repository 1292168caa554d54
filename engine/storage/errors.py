"""The storage layer's errors; they depend on nothing."""

from __future__ import annotations


# A file that could not take what memory holds at close (a full disk): the write log still holds it.
KEPT_IN_LOG = "nothing acknowledged is lost: the write log {log} is folded in at the next open"


class StorageError(OSError):
    """A database file cannot be opened or written; the message names the file.

    An ``OSError`` because, like one, it is about the environment (a file,
    a lock, a disk), not about a request: callers that already report
    ``OSError`` s (the shell does) report these too.
    """


class DatabaseLocked(StorageError):
    """The database file is open in another process (or another connection of this one);
    ``holder`` says which (``another process (pid 123)``), ``url`` where it serves the file
    (``partiql serve``), or None."""

    def __init__(self, message: str, holder: str = "another process", url: str | None = None):
        super().__init__(message)
        self.holder = holder
        self.url = url
