"""A database file's newest writes, appended to ``FILE-writes`` until they are folded into the file.

why: a PutItem committed as an SQLite transaction of its own costs SQLite
~28 µs (twelve system calls: its locks, the log's frames) and, every
10,000 pages, a checkpoint's stall; at a million items that held PutItem to
a file near 12,000/s (issue 19). The rows of a small operation appended to
a file of our own cost one ``write``, under the same promise: the write
is in the operating system's hands before the call returns, so it
survives the process being killed at any instant (a power cut may lose
the last few, as with SQLite's own log); with ``durability="full"`` an
``fdatasync`` follows each append, as SQLite's ``synchronous=FULL`` syncs
each commit. ``SqliteStorage`` folds the log into the SQLite file in one
transaction when it passes ``FOLD_BYTES``, before any other transaction,
on close, and on the next open after a crash. The owner folds from the
rows it keeps in memory, never by reading the log back by its name (a log
deleted while open must not take its writes with it).

The log (``MAGIC``): a header (the log's generation, the ``marshal`` format
it was written in, the database's identity, and a CRC-32 of them), then one
record per operation: a head (``MARK``, the record's number — 1, 2, … in
each generation —, the lengths and CRC-32s of its two parts, and a CRC-32
of the head itself), the keys the operation writes (``(table id, key
bytes)`` pairs), then its rows as ``(statement number, parameters)``
tuples. The keys are there twice (in their part and in the rows) so that a
record whose rows are damaged can still be named.

Damage, or a torn tail (``scan``): a record that fails a check ends the log
only when it can be an append cut short — fewer bytes than a head, a head
that passes its CRC but whose parts reach past the end of the file, or
zeros (a file extended, never written) — and nothing readable follows it.
Anything else is damage: a flipped bit in an acknowledged record must never
pass for the end of the log, or every write acknowledged after it would be
lost silently. The head's CRC makes a flipped length field damage, not a
new end; ``MARK`` lets a reader find the intact records after a damaged
one, and the numbers say how many records the damage took. A damaged log
is refused by every opener (``LogDamaged``) and left as it is; ``partiql
check`` reports it; ``recovery`` applies its intact records, on request.
A log of the first format (``MAGIC_V1``, left by an earlier release after
a crash) is still read, to be folded in once.

Identity and generations: a log's header carries its database's identity
(a random number in ``settings``, given by its first owner): a log of
another database, left by a file since deleted, is not folded in. The
SQLite file names, in ``settings``, the last generation
folded into it (``folded``), in the transaction that folded it. A log not
newer than that was folded and only not yet deleted; it is skipped. A
reader that does not own the file (a read-only snapshot, ``partiql check``,
a backup) reads the log *before* it begins its SQLite snapshot: if the
snapshot's folded generation is below the log's, the owner has not folded
it, nor written anything to SQLite since it began (every transaction
folds the log first), so the snapshot plus the log is the database as it
was when the log was read; if not, the snapshot holds all of it already.
"""

from __future__ import annotations

import contextlib
import marshal
import os

from . import rows as item_rows
from .errors import StorageError
from .log_format import CODES, HEADER, RECORD_CODE, LogDamaged, Pending, frame, header, log_path, scan
from .rows import DELETE_ITEM, PUT_ITEM
from .stream_rows import FOLD_RECORD
from .vanished import deleted

FOLD_BYTES = 4 << 20  # ~25,000 small writes; their fold at a million items: ~0.5 s (~18 µs a row, SQLite)
LOGGED_AT_MOST = 256  # rows: any item operation (≤ 100 items with their stream records); an import goes to SQLite
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # (Windows has none: there a planted link is refused by lstat)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)

_SETTING = "SELECT value FROM settings WHERE name = ?"
_SET_FOLDED = "INSERT OR REPLACE INTO settings (name, value) VALUES ('folded', ?)"
_SET_IDENTITY = "INSERT INTO settings (name, value) VALUES ('identity', ?)"


def read(database: str, salvage: bool = False) -> Pending | None:
    """The log of ``database`` as it is now; None when there is none. ``LogDamaged`` when it holds
    damage (with ``salvage``: its intact records, the damage listed), StorageError when it cannot be read."""
    data = _contents(database)
    if data is None:
        return None
    pending = scan(database, data)
    if (pending.damage or pending.header_damaged) and not salvage:
        raise LogDamaged(database, pending.describe_damage())
    return pending


def _contents(database: str) -> bytes | None:
    path = log_path(database)
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as error:
        if os.path.islink(path):
            raise StorageError(f"cannot open {database}: its write log {path} is a symbolic link (refused: "
                               "a sidecar is never followed elsewhere); the files were left as they are") from None
        raise StorageError(f"cannot read {path}: {error.strerror}") from None
    with os.fdopen(fd, "rb") as file:
        return file.read()


def _setting(db, name: str, database: str) -> int:
    """The number ``settings`` holds under ``name`` in ``database``, open as ``db`` (0: none)."""
    row = db.execute(_SETTING, (name,)).fetchone()
    if row is None:
        return 0
    if not (isinstance(row[0], str) and row[0].isascii() and row[0].isdigit()):
        raise StorageError(f"cannot open {database}: its setting {name!r} is damaged ({row[0]!r} is not a "
                           "number); the file was left as it is")
    return int(row[0])


def folded(db, database: str) -> int:
    """The generation of the last log folded into ``database``, open as ``db`` (0: none yet)."""
    return _setting(db, "folded", database)


def identity(db, database: str) -> int:
    """The random number that ties a log to its database (0: none yet). why: a log left by a session
    that died on a file since deleted must not be folded into a new file of the same name."""
    return _setting(db, "identity", database)


def unfolded(pending: Pending | None, db, database: str) -> Pending | None:
    """``pending`` (read before ``db``'s read began) when it is ``db``'s log and ``db`` does not hold it
    yet, else None."""
    if pending is None or not pending.rows or pending.identity != identity(db, database):
        return None
    return pending if pending.generation > folded(db, database) else None


def snapshot(db, database: str) -> Pending | None:
    """For a reader that does not own ``database``: begin a read transaction on ``db`` and return the
    log it does not hold yet (None: it holds everything). The log is read first: see the module docstring."""
    pending = read(database)
    db.execute("BEGIN")
    return unfolded(pending, db, database)


def claim_identity(db, database: str) -> int:
    """``db``'s identity, given one now if it has none (its owner, after its checks passed)."""
    number = identity(db, database)
    if not number:
        number = int.from_bytes(os.urandom(8), "big") >> 1 or 1
        db.execute(_SET_IDENTITY, (str(number),))
    return number


def discard(database: str) -> None:
    """Delete the log of ``database`` (folded, holding nothing, or another database's)."""
    # why errors are let pass: a log left behind is of a folded generation, skipped by every reader
    # and replaced by the next append
    with contextlib.suppress(OSError):
        os.remove(log_path(database))


def fold(db, pending: Pending) -> None:
    """Within a transaction on ``db``: write what ``pending`` holds and record it folded. Only the
    last write of each key is written (deletes, then puts, each in key order: every page once)."""
    items, last = fold_rows(pending)
    item_rows.write(db, items + last)


def fold_rows(pending: Pending) -> tuple[list, list]:
    """What ``fold`` writes: the item rows and the stream records, then the row that comes last, the
    folded generation — so that a fold made in steps (``folding``) and stopped between them leaves the
    log unfolded, to be folded again whole (every row is keyed: twice ends the same)."""
    items, records = pending.latest()
    latest = sorted(items.values(), key=_row_key_bytes)  # (each row a different item: any order ends the same)
    ordered = [row for row in latest if row[0] is DELETE_ITEM] + [row for row in latest if row[0] is PUT_ITEM]
    return ordered + [(FOLD_RECORD, record) for record in records], [(_SET_FOLDED, (str(pending.generation),))]


def row_bytes(row: tuple) -> int:
    """About what a row takes in the file: its texts and keys, and SQLite's cell overhead."""
    return sum(len(value) for value in row[1] if isinstance(value, (str, bytes))) + 24


def fold_unfolded(db, pending: Pending | None, database: str) -> None:
    """Within a transaction on ``db``: fold ``pending`` in when it is ``db``'s log and ``db`` does not hold
    it yet (``unfolded``)."""
    pending = unfolded(pending, db, database)
    if pending is not None:
        fold(db, pending)


class Overlay:
    """A reader's view of a log its snapshot does not hold: item rows by table, stream record rows."""

    def __init__(self, pending: Pending):
        items, self.records = pending.latest()
        self._tables: dict = {}  # tid -> {key: (size, text, crc), or None for a delete}
        for (tid, key), (statement, parameters) in items.items():
            self._tables.setdefault(tid, {})[key] = parameters[2:] if statement is PUT_ITEM else None

    def items(self, tid: int, stored, utf8: bool = False):
        """``stored`` rows ``(key, size, text, crc)`` in key order, with the log's writes to table ``tid``
        (their texts as UTF-8 bytes if ``utf8``, as the stored rows read)."""
        changes = sorted(self._tables.get(tid, {}).items())
        position = 0
        for row in stored:
            while position < len(changes) and changes[position][0] < row[0]:
                yield from _kept(changes[position], utf8)
                position += 1
            if position < len(changes) and changes[position][0] == row[0]:
                yield from _kept(changes[position], utf8)
                position += 1
                continue
            yield row
        for change in changes[position:]:
            yield from _kept(change, utf8)


def _row_key_bytes(row: tuple) -> bytes:
    """An item row's key bytes: sorting by them is three times faster than by (tid, key) (``rows``)."""
    return row[1][1]


def _kept(change: tuple, utf8: bool):
    """The stored row a logged change leaves: none for a delete."""
    key, kept = change
    if kept is not None:
        size, text, crc = kept
        yield key, size, text.encode("utf-8", "surrogatepass") if utf8 else text, crc


class WriteLog:
    """The owner's log: appends whole records, created with its first, and keeps their rows in memory
    (``pending``: what a fold writes); ``reset`` after a fold."""

    def __init__(self, database: str, identity: int, generation: int, sync: bool):
        self.database, self.path = database, log_path(database)
        self.identity, self.generation = identity, generation
        self.sync = sync
        self.size = 0  # bytes written, the header included; 0: no log file
        self.broken = False  # an append failed and could not be taken back: the log's end is unknown
        self.rows: list = []  # every row appended in this generation, in order
        self.records = 0
        self._fd: int | None = None

    def pending(self) -> Pending:
        """What this generation holds, for a fold."""
        return Pending(self.generation, self.rows, self.records, identity=self.identity)

    def append(self, rows: list) -> None:
        """Write one operation's rows as one record; OSError when it could not be written (taken back
        from the file, unless ``broken``)."""
        coded = tuple([(CODES[statement], parameters) for statement, parameters in rows])
        keys = marshal.dumps(tuple([parameters[:2] for code, parameters in coded if code != RECORD_CODE]))
        record = frame(self.records + 1, keys, marshal.dumps(coded))
        if self._fd is None:
            self._create()
        try:
            _write_all(self._fd, record)
            if self.sync:
                _sync(self._fd)
        except OSError:
            self._take_back()
            raise
        self.size += len(record)
        self.records += 1
        self.rows += rows

    def _create(self) -> None:
        # why O_EXCL and O_NOFOLLOW: a planted link must not make this process write another file; a log
        # left behind is one already folded (``reset`` could not delete it), removed first
        discard(self.database)
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | _NOFOLLOW | _CLOEXEC, 0o666)
        except FileExistsError:
            raise OSError(f"{self.path} appeared as it was created (another program writes beside the "
                          "database)") from None
        try:
            _write_all(fd, header(self.generation, self.identity))
            if self.sync:
                _sync(fd)
                _sync_directory(self.path)
        except OSError:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.remove(self.path)
            raise
        self._fd, self.size = fd, HEADER.size

    def _take_back(self) -> None:
        try:
            os.ftruncate(self._fd, self.size)
        except OSError:
            self.broken = True

    def gone(self) -> bool:
        """Whether the log file was deleted or replaced while open (its name no longer leads to it)."""
        return self._fd is not None and deleted(self._fd)

    def reset(self) -> None:
        """The log was folded: close and delete it (when its name still leads to it); the next append
        starts the next generation."""
        if self._fd is not None and not self.gone():
            discard(self.database)
        self.close()
        self.generation += 1
        self.size = self.records = 0
        self.rows = []
        self.broken = False

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _sync(fd: int) -> None:
    """Make what was written to ``fd`` durable (``fdatasync``; ``fsync`` where there is none: macOS)."""
    getattr(os, "fdatasync", os.fsync)(fd)


def _sync_directory(path: str) -> None:
    """Make a new file's name durable (durability "full"; POSIX: Windows cannot open a directory)."""
    if os.name == "nt":
        return
    fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
