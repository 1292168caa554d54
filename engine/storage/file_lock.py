"""One owner at a time: an exclusive lock on ``<database>-lock`` that records the owner's pid.

A database file is served from memory by the process that opened it, so a
second process writing the same file would leave the first one reading
stale data. The first opener takes an exclusive ``flock`` on a sidecar file
and writes its pid there; any later opener (another process, or another
connection in the same process) fails at once with an error naming the
file and that pid.

why a sidecar and not the database itself: SQLite takes its own POSIX
locks on the database file, and where ``flock`` is emulated with POSIX
locks (NFS) the two would interfere. The sidecar is never deleted: removing
a lock file while another process waits on it lets two processes "own" it.
The OS releases the lock when the owner exits, however it exits. (POSIX
only: on Windows, without ``flock``, the lock is not enforced.)
"""

from __future__ import annotations

import os

from .errors import DatabaseLocked, StorageError

try:
    import fcntl
except ImportError:  # why: no flock on Windows; there the lock is not enforced
    fcntl = None


def _try_lock(fd: int) -> bool:
    """Take the exclusive lock without waiting; False when someone holds it."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


class OwnerLock:
    """The exclusive right to a database file, held until ``release`` (or process exit)."""

    def __init__(self, database: str):
        self.database = database
        self.path = database + "-lock"
        try:
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise StorageError(f"cannot open {database}: cannot create its lock file {self.path}: "
                               f"{error.strerror}") from None
        if not _try_lock(self.fd):
            holder = self._holder()
            os.close(self.fd)
            raise DatabaseLocked(_locked_message(database, holder))
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, f"{os.getpid()}\n".encode("ascii"), 0)

    def _holder(self) -> int | None:
        try:
            return int(os.pread(self.fd, 32, 0).decode("ascii").strip())
        except (OSError, ValueError):
            return None  # the owner has the lock but has not written its pid yet

    def release(self) -> None:
        """Give the file up (closing the descriptor drops the lock)."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _locked_message(database: str, pid: int | None) -> str:
    if pid is None:
        who = "another process"
    elif pid == os.getpid():
        who = f"another connection of this process (pid {pid})"
    else:
        who = f"another process (pid {pid})"
    return f"cannot open {database}: it is already open in {who}; close it there first"
