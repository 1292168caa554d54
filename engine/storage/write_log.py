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
on close, and on the next open after a crash.

The log: a header (``MAGIC``, the log's generation, the ``marshal``
format it was written in), then one record per operation: the length and
CRC-32 of its payload, then the payload, the operation's rows as
``(statement number, parameters)`` tuples. A record cut short, empty, or
failing its CRC ends the log: it is an operation that never returned.

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
import struct
import zlib
from dataclasses import dataclass

from . import rows as item_rows
from .errors import StorageError
from .rows import DELETE_ITEM, PUT_ITEM, ROW_KEY
from .codec import item_checksum
from .stream_rows import ADD_RECORD, record_checksum

SUFFIX = "-writes"
MAGIC = b"PQDDLOG1"
HEADER = struct.Struct("<8sQIQ")  # magic, generation, marshal format, the database's identity
RECORD = struct.Struct("<II")    # payload length, CRC-32 of the payload
FOLD_BYTES = 4 << 20  # ~30,000 small writes; their fold at a million items: ~0.5 s (~18 µs a row, SQLite)
LOGGED_AT_MOST = 256  # rows: any item operation (≤ 100 items with their stream records); an import goes to SQLite

# The statements a log may hold, by number, with their parameters' types and the checksum a row's last
# parameter must be (None: none): what a record is checked against before anything of it is written.
STATEMENTS = (PUT_ITEM, DELETE_ITEM, ADD_RECORD)
SHAPES = ((int, bytes, int, str, int), (int, bytes), (int, int, int, str, int))
CHECKSUMS = (lambda tid, key, size, text: item_checksum(key, size, text), None, record_checksum)
CODES = {statement: number for number, statement in enumerate(STATEMENTS)}

_SETTING = "SELECT value FROM settings WHERE name = ?"
_SET_FOLDED = "INSERT OR REPLACE INTO settings (name, value) VALUES ('folded', ?)"
_SET_IDENTITY = "INSERT INTO settings (name, value) VALUES ('identity', ?)"


def log_path(database: str) -> str:
    return database + SUFFIX


@dataclass
class Pending:
    """What a log holds: its generation, its rows in order, how many records, and the bytes after the
    last whole record (an append that never completed)."""

    generation: int
    rows: list
    records: int = 0
    tail: int = 0
    identity: int = 0  # the database's (``identity``): a log left by a deleted file of that name is not its

    def latest(self) -> tuple[dict, list]:
        """((tid, key) -> the last item row written for that key, the stream record rows in order)."""
        items, records = {}, []
        for row in self.rows:
            if row[0] is ADD_RECORD:
                records.append(row[1])
            else:
                items[ROW_KEY(row[1])] = row
        return items, records


def read(database: str) -> Pending | None:
    """The log of ``database`` as it is now; None when there is none. StorageError when it is damaged
    (a header or a record that passed its CRC but is not what this program writes)."""
    path = log_path(database)
    try:
        with open(path, "rb") as file:
            data = file.read()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise StorageError(f"cannot read {path}: {error.strerror}") from None
    if len(data) < HEADER.size:  # (created, its header not yet written: nothing in it)
        if not (MAGIC.startswith(data) or data.startswith(MAGIC)):
            raise damaged(database, "it does not begin as a write log does")
        return Pending(0, [], tail=len(data))
    magic, generation, version, identity = HEADER.unpack_from(data)
    if magic != MAGIC:
        raise damaged(database, "it does not begin as a write log does")
    if version > marshal.version:
        raise StorageError(f"cannot open {database}: its newest writes, in {path}, were logged by a newer Python "
                           f"(marshal format {version}; this one reads up to {marshal.version}); open it with "
                           "that Python once, to fold them in. The files were left as they are")
    pending = Pending(generation, [], identity=identity)
    offset = HEADER.size
    while offset + RECORD.size <= len(data):
        length, crc = RECORD.unpack_from(data, offset)
        payload = data[offset + RECORD.size:offset + RECORD.size + length]
        if not length or len(payload) < length or zlib.crc32(payload) != crc:
            break  # (no record is empty: zeros, as a file extended and never written holds, end it too)
        pending.rows += _decoded(database, payload, pending.records)
        pending.records += 1
        offset += RECORD.size + length
    pending.tail = len(data) - offset
    return pending


def _decoded(database: str, payload: bytes, number: int) -> list:
    """The rows of one record, each checked against ``SHAPES``."""
    try:
        data = marshal.loads(payload)
    except (ValueError, EOFError, TypeError) as error:
        raise damaged(database, f"record {number + 1} cannot be read ({error})") from None
    decoded = []
    for row in data if type(data) is tuple else (None,):
        if not (type(row) is tuple and len(row) == 2 and type(row[0]) is int and 0 <= row[0] < len(SHAPES)
                and type(row[1]) is tuple and tuple(map(type, row[1])) == SHAPES[row[0]]):
            raise damaged(database, f"record {number + 1} holds something other than a write")
        checksum = CHECKSUMS[row[0]]
        if checksum is not None and checksum(*row[1][:-1]) != row[1][-1]:
            raise damaged(database, f"record {number + 1}: a row's checksum does not match its contents")
        decoded.append((STATEMENTS[row[0]], row[1]))
    return decoded


def damaged(database: str, detail: str) -> StorageError:
    return StorageError(f"cannot open {database}: its write log {log_path(database)} is damaged ({detail}); "
                        "the files were left as they are")


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
    """``db``'s identity, given one now if it has none (its owner, at open)."""
    number = identity(db, database)
    if not number:
        number = int.from_bytes(os.urandom(8), "big") >> 1 or 1
        db.execute(_SET_IDENTITY, (str(number),))
    return number


def discard(database: str) -> None:
    """Delete the log of ``database`` (folded, or holding nothing)."""
    # why errors are let pass: a log left behind is of a folded generation, skipped by every reader
    # and truncated by the next append
    with contextlib.suppress(OSError):
        os.remove(log_path(database))


def fold(db, pending: Pending) -> None:
    """Within a transaction on ``db``: write what ``pending`` holds and record it folded. Only the
    last write of each key is written (deletes, then puts, each in key order: every page once)."""
    items, records = pending.latest()
    latest = sorted(items.values(), key=_row_key_bytes)  # (each row a different item: any order ends the same)
    deletes = [row for row in latest if row[0] is DELETE_ITEM]
    puts = [row for row in latest if row[0] is PUT_ITEM]
    item_rows.write(db, deletes + puts + [(ADD_RECORD, record) for record in records])
    db.execute(_SET_FOLDED, (str(pending.generation),))


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
    """The owner's log: appends whole records, created with its first; ``reset`` after a fold."""

    def __init__(self, database: str, identity: int, generation: int, sync: bool):
        self.database, self.path = database, log_path(database)
        self.identity, self.generation = identity, generation
        self.sync = sync
        self.size = 0  # bytes written, the header included; 0: no log file
        self.broken = False  # an append failed and could not be taken back: the log's end is unknown
        self._fd: int | None = None

    def append(self, rows: list) -> None:
        """Write one operation's rows as one record; OSError when it could not be written (taken back
        from the file, unless ``broken``)."""
        payload = marshal.dumps(tuple([(CODES[statement], parameters) for statement, parameters in rows]))
        record = RECORD.pack(len(payload), zlib.crc32(payload)) + payload
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

    def _create(self) -> None:
        # why O_TRUNC: a log left behind is one already folded (``reset`` could not delete it)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND | getattr(os, "O_CLOEXEC", 0),
                     0o666)
        try:
            _write_all(fd, HEADER.pack(MAGIC, self.generation, marshal.version, self.identity))
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

    def reset(self) -> None:
        """The log was folded: close and delete it; the next append starts the next generation."""
        self.close()
        discard(self.database)
        self.generation += 1
        self.size = 0

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
