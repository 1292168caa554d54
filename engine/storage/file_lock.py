"""One owner at a time: an exclusive lock on ``<database>-lock`` that records the owner's pid.

A database file is served from memory by the process that opened it, so a
second process writing the same file would leave the first one reading
stale data. The first opener takes an exclusive ``flock`` on a sidecar file
and writes its pid there; any later opener (another process, or another
connection in the same process) fails at once with an error naming the
file and that pid.

why a sidecar and not the database itself: SQLite takes its own POSIX
locks on the database file, and where ``flock`` is emulated with POSIX
locks (NFS) the two would interfere. The OS releases the lock when the
owner exits, however it exits; a clean ``release`` also deletes the sidecar.
why that is safe: a process that opened the sidecar just before it was
deleted could lock the deleted file and believe it owns the database, so
whoever takes the lock checks that the path still names the file it locked
(same inode), and starts over when it does not. (POSIX only: on Windows,
without ``flock``, the lock is not enforced.)

``holder(database)`` tells, without taking anything, which pid holds a
database (a read-only snapshot names it in its messages). A holder that
serves the database (``partiql serve``) writes its URL on the sidecar's
second line (``announce``): ``DatabaseLocked.url`` gives it to a later
opener, which can connect through the server instead.
"""

from __future__ import annotations

import os
import weakref

from .errors import DatabaseLocked, StorageError

try:
    import fcntl
except ImportError:  # why: no flock on Windows; there the lock is not enforced
    fcntl = None

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # (Windows has none; ``_open`` refuses a link by lstat there)


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
        while True:
            self.fd = _open(database, self.path)
            if not _try_lock(self.fd):
                holder, url = _pid(self.fd), _url(self.fd)
                os.close(self.fd)
                raise DatabaseLocked(_locked_message(database, holder), _who(holder), url)
            if _names(self.path, self.fd):
                break
            os.close(self.fd)  # the owner deleted it as we opened it: lock the new one
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, f"{os.getpid()}\n".encode("ascii"), 0)
        # why: a connection the program never closed still deletes its sidecar when the interpreter exits
        self._release = weakref.finalize(self, _release, self.path, self.fd)

    def announce(self, url: str | None) -> None:
        """Record (or, with None, forget) the URL the database is served at, beside the pid."""
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, f"{os.getpid()}\n{url or ''}\n".encode("utf-8"), 0)

    def release(self) -> None:
        """Give the file up: delete the sidecar while still holding it, then drop the lock."""
        self._release()


def _release(path: str, fd: int) -> None:
    if _names(path, fd):
        try:
            os.unlink(path)
        except OSError:
            pass  # a read-only directory: the lock still drops with the descriptor
    os.close(fd)


def holder(database: str) -> tuple[bool, int | None]:
    """(whether a process holds ``database``, its pid when it wrote one), taking nothing."""
    try:
        fd = os.open(database + "-lock", os.O_RDONLY | _NOFOLLOW)
    except OSError:
        return False, None
    try:
        if fcntl is None:
            return False, None
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True, _pid(fd)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False, None
    finally:
        os.close(fd)


def _open(database: str, path: str) -> int:
    """The lock file, created if there is none; never through a symbolic link (a planted link must not
    make this process truncate another file)."""
    for _ in range(100):  # (an owner that lets go deletes the file between the two opens: start over)
        try:
            return os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o644)
        except FileExistsError:  # (left by an owner that died, or held now: its lock tells)
            pass
        except OSError as error:
            raise _unopenable(database, path, error) from None
        try:
            return os.open(path, os.O_RDWR | _NOFOLLOW)
        except FileNotFoundError:
            continue
        except OSError as error:
            raise _unopenable(database, path, error) from None
    raise StorageError(f"cannot open {database}: its lock file {path} keeps appearing and vanishing")


def _unopenable(database: str, path: str, error: OSError) -> StorageError:
    if os.path.islink(path):
        return StorageError(f"cannot open {database}: its lock file {path} is a symbolic link (refused: a "
                            "sidecar is never followed elsewhere); remove the link")
    return StorageError(f"cannot open {database}: cannot create its lock file {path}: {error.strerror}")


def _names(path: str, fd: int) -> bool:
    """Whether ``path`` still names the file open as ``fd``."""
    try:
        return os.stat(path).st_ino == os.fstat(fd).st_ino
    except FileNotFoundError:
        return False


def _lines(fd: int) -> list[str]:
    try:
        return os.pread(fd, 4096, 0).decode("utf-8", "replace").splitlines()
    except OSError:
        return []


def _pid(fd: int) -> int | None:
    try:
        return int(_lines(fd)[0].strip())
    except (IndexError, ValueError):
        return None  # the owner has the lock but has not written its pid yet


def _url(fd: int) -> str | None:
    """The URL the holder serves the database at, or None."""
    lines = _lines(fd)
    return lines[1].strip() or None if len(lines) > 1 else None


def _who(pid: int | None) -> str:
    if pid is None:
        return "another process"
    if pid == os.getpid():
        return f"another connection of this process (pid {pid})"
    return f"another process (pid {pid})"


def _locked_message(database: str, pid: int | None) -> str:
    return (f"cannot open {database}: it is already open in {_who(pid)}. To read a snapshot of it, open it "
            f"read-only (partiql.connect(path, read_only=True), or partiql --read-only); to share it between "
            f"programs, serve it (partiql serve {database}) and point them at the server; or close it there "
            "first")
