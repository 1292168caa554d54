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
import struct
import zlib
from dataclasses import dataclass, field

from . import rows as item_rows
from .errors import StorageError
from .rows import DELETE_ITEM, PUT_ITEM, ROW_KEY
from .codec import item_checksum
from .stream_rows import ADD_RECORD, record_checksum

SUFFIX = "-writes"
MAGIC = b"PQDDLOG2"
HEADER = struct.Struct("<8sQIQI")  # magic, generation, marshal format, the database's identity, CRC-32 of those
MARK = b"\xa7REC"
HEAD = struct.Struct("<4sQIIIII")  # MARK, number, keys' length, rows' length, their CRC-32s, the head's CRC-32
MAGIC_V1 = b"PQDDLOG1"
HEADER_V1 = struct.Struct("<8sQIQ")  # magic, generation, marshal format, identity
RECORD_V1 = struct.Struct("<II")     # payload length, CRC-32 of the payload
FOLD_BYTES = 4 << 20  # ~25,000 small writes; their fold at a million items: ~0.5 s (~18 µs a row, SQLite)
LOGGED_AT_MOST = 256  # rows: any item operation (≤ 100 items with their stream records); an import goes to SQLite
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # (Windows has none: there a planted link is refused by lstat)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)

# The statements a log may hold, by number, with their parameters' types and the checksum a row's last
# parameter must be (None: none): what a record is checked against before anything of it is written.
STATEMENTS = (PUT_ITEM, DELETE_ITEM, ADD_RECORD)
SHAPES = ((int, bytes, int, str, int), (int, bytes), (int, int, int, str, int))
CHECKSUMS = (lambda tid, key, size, text: item_checksum(key, size, text), None, record_checksum)
CODES = {statement: number for number, statement in enumerate(STATEMENTS)}
_RECORD_CODE = CODES[ADD_RECORD]

_SETTING = "SELECT value FROM settings WHERE name = ?"
_SET_FOLDED = "INSERT OR REPLACE INTO settings (name, value) VALUES ('folded', ?)"
_SET_IDENTITY = "INSERT INTO settings (name, value) VALUES ('identity', ?)"


def log_path(database: str) -> str:
    return database + SUFFIX


class LogDamaged(StorageError):
    """A write log holds damage, not a torn tail: opening the database would lose acknowledged writes.
    ``detail`` says where (for ``partiql check``)."""

    def __init__(self, database: str, detail: str):
        super().__init__(f"cannot open {database}: its write log {log_path(database)} is damaged ({detail}); "
                         f"the files were left as they are. partiql recover {database} applies every intact "
                         "write and names those it cannot restore")
        self.detail = detail


@dataclass
class Damage:
    """Records a scan could not read: from record ``first`` (byte ``offset``) to ``last``; the keys they
    wrote as ``(table id, key bytes)`` where their key parts still read (None: unknown)."""

    first: int
    last: int
    offset: int
    keys: list | None = None
    why: str = ""
    lost: set = field(default_factory=set)  # its keys that no intact record after it writes again


@dataclass
class Pending:
    """What a log holds: its generation, its rows in order, how many records, the bytes after the
    last whole record (an append that never completed), and, read for recovery, its damage."""

    generation: int
    rows: list
    records: int = 0
    tail: int = 0
    identity: int = 0  # the database's (``identity``): a log left by a deleted file of that name is not its
    damage: list = field(default_factory=list)  # ``Damage``s, in order (a plain ``read`` raises instead)
    intact_after: int = 0  # intact records after the first damage
    header_damaged: bool = False  # its header failed its CRC
    header_trusted: bool = True  # its header passed, or was one flipped bit away from passing (corrected)

    def latest(self) -> tuple[dict, list]:
        """((tid, key) -> the last item row written for that key, the stream record rows in order)."""
        items, records = {}, []
        for row in self.rows:
            if row[0] is ADD_RECORD:
                records.append(row[1])
            else:
                items[ROW_KEY(row[1])] = row
        return items, records

    def describe_damage(self) -> str:
        """Where the first damage is, and what is intact after it."""
        if self.header_damaged:
            return f"its header (byte 0) fails its checksum; {self.records} records are intact"
        first = self.damage[0]
        return (f"at record {first.first} (byte {first.offset}: {first.why}): {self.intact_after} later "
                f"record{' is' if self.intact_after == 1 else 's are'} intact")


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


def scan(database: str, data: bytes) -> Pending:
    """Every record of the log ``data``; damage is listed, not raised (see the module docstring)."""
    if data.startswith(MAGIC_V1):
        return _scan_v1(data)
    if len(data) < HEADER.size:  # (created, its header not yet written: nothing in it)
        if not (MAGIC.startswith(data) or data.startswith(MAGIC)):
            raise LogDamaged(database, "it does not begin as a write log does")
        return Pending(0, [], tail=len(data))
    magic, generation, version, identity, crc = HEADER.unpack_from(data)
    if sum(a != b for a, b in zip(magic, MAGIC)) > 1:  # (one byte off: a damaged header, told below)
        raise LogDamaged(database, "it does not begin as a write log does")
    header_damaged = magic != MAGIC or zlib.crc32(data[:HEADER.size - 4]) != crc
    corrected = _corrected_header(data[:HEADER.size]) if header_damaged else None
    if corrected is not None:
        magic, generation, version, identity, crc = corrected
    if version > marshal.version and (corrected is not None or not header_damaged):
        raise StorageError(f"cannot open {database}: its newest writes, in {log_path(database)}, were logged by a "
                           f"newer Python (marshal format {version}; this one reads up to {marshal.version}); "
                           "open it with that Python once, to fold them in. The files were left as they are")
    pending = Pending(generation, [], identity=identity, header_damaged=header_damaged,
                      header_trusted=corrected is not None or not header_damaged)
    offset, expected = HEADER.size, 1
    while offset < len(data):
        record = _record_at(data, offset)
        if record is not None:
            number, keys, rows, end = record
            if number > expected:  # (whole records are missing before it)
                _damaged(pending, expected, number - 1, offset, None, "records missing before it")
            decoded = _decoded(rows) if number >= expected else None
            if decoded is None:  # (passed its checksums, yet not what this program writes, or out of order)
                _damaged(pending, number, number, offset, _keys(keys), "it holds something other than a write")
            else:
                _take(pending, decoded)
            offset, expected = end, max(expected, number + 1)
            continue
        following = _next_record(data, offset + 1)
        if following is None and _torn(data, offset):
            pending.tail = len(data) - offset
            break
        last = expected if following is None else max(expected, _record_at(data, following)[0] - 1)
        _damaged(pending, expected, last, offset, _damaged_keys(data, offset, following), "it fails its checksums")
        if following is None:
            break
        offset, expected = following, last + 1
    return pending


def _corrected_header(header: bytes) -> tuple | None:
    """The fields of a header that fails its CRC by one flipped bit, that bit put back (CRC-32 tells a
    single flipped bit's place in so short a text); None when no single bit explains it."""
    for bit in range(len(header) * 8):
        candidate = bytearray(header)
        candidate[bit // 8] ^= 1 << (bit % 8)
        if zlib.crc32(candidate[:HEADER.size - 4]) == int.from_bytes(candidate[HEADER.size - 4:], "little"):
            fields = HEADER.unpack(bytes(candidate))
            return fields if fields[0] == MAGIC else None
    return None


def _take(pending: Pending, rows: list) -> None:
    """An intact record's rows join ``pending``."""
    pending.rows += rows
    pending.records += 1
    if pending.damage:
        pending.intact_after += 1
        written = {ROW_KEY(parameters) for statement, parameters in rows if statement is not ADD_RECORD}
        for damage in pending.damage:
            damage.lost -= written


def _damaged(pending: Pending, first: int, last: int, offset: int, keys: list | None, why: str) -> None:
    pending.damage.append(Damage(first, last, offset, keys, why, set(keys or ())))


def _record_at(data: bytes, offset: int) -> tuple | None:
    """(number, keys' bytes, rows' bytes, end) of the record at ``offset`` when it passes every check."""
    if offset + HEAD.size > len(data):
        return None
    mark, number, keys_length, rows_length, keys_crc, rows_crc, crc = HEAD.unpack_from(data, offset)
    if mark != MARK or zlib.crc32(data[offset:offset + HEAD.size - 4]) != crc:
        return None
    start = offset + HEAD.size
    middle, end = start + keys_length, start + keys_length + rows_length
    if end > len(data) or not rows_length:
        return None
    keys, rows = data[start:middle], data[middle:end]
    if zlib.crc32(keys) != keys_crc or zlib.crc32(rows) != rows_crc:
        return None
    return number, keys, rows, end


def _next_record(data: bytes, start: int) -> int | None:
    """The offset of the first intact record at or after ``start``."""
    position = data.find(MARK, start)
    while position >= 0:
        if _record_at(data, position) is not None:
            return position
        position = data.find(MARK, position + 1)
    return None


def _torn(data: bytes, offset: int) -> bool:
    """Whether the bytes from ``offset`` on can be an append cut short (or a file extended, never written)."""
    rest = data[offset:]
    if len(rest) < HEAD.size or not rest.strip(b"\x00"):
        return True
    mark, number, keys_length, rows_length, keys_crc, rows_crc, crc = HEAD.unpack_from(rest)
    if mark != MARK or zlib.crc32(rest[:HEAD.size - 4]) != crc:
        return False  # (a prefix of what was written passes its checks: this was changed after)
    if HEAD.size + keys_length + rows_length <= len(rest):
        return False  # whole, yet failing: damaged
    keys = rest[HEAD.size:HEAD.size + keys_length]
    return len(keys) < keys_length or zlib.crc32(keys) == keys_crc


def _damaged_keys(data: bytes, offset: int, end: int | None) -> list | None:
    """The keys of the records in ``data[offset:end]`` (None: unknown): from a head that passes its CRC,
    its key part or else its rows, whichever passes its own; from a damaged head, the key part as it reads."""
    region = data[offset:end]
    keys, position = [], 0
    while 0 <= position < len(region):
        read = _keys_at(region, position)
        if read is None:
            return None
        keys += read
        position = region.find(MARK, position + 1)
    return keys


def _keys_at(region: bytes, position: int) -> list | None:
    start = position + HEAD.size
    if start > len(region):
        return None
    mark, number, keys_length, rows_length, keys_crc, rows_crc, crc = HEAD.unpack_from(region, position)
    if mark != MARK or zlib.crc32(region[position:start - 4]) != crc:
        return _keys(region[start:])
    keys, rows = region[start:start + keys_length], region[start + keys_length:start + keys_length + rows_length]
    if zlib.crc32(keys) == keys_crc:
        return _keys(keys)
    decoded = _decoded(rows) if zlib.crc32(rows) == rows_crc else None
    return None if decoded is None else [ROW_KEY(row[1]) for row in decoded if row[0] is not ADD_RECORD]


def _keys(data: bytes) -> list | None:
    """A record's key part as ``[(table id, key bytes), …]``; None when it does not read as one (it may
    be followed by anything: marshal reads one value)."""
    try:
        keys = marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        return None
    if type(keys) is not tuple or not all(type(key) is tuple and len(key) == 2 and type(key[0]) is int
                                          and type(key[1]) is bytes for key in keys):
        return None
    return list(keys)


def _decoded(payload: bytes) -> list | None:
    """The rows of one record, each checked against ``SHAPES``; None when they are not writes."""
    try:
        data = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    decoded = []
    for row in data if type(data) is tuple else (None,):
        if not (type(row) is tuple and len(row) == 2 and type(row[0]) is int and 0 <= row[0] < len(SHAPES)
                and type(row[1]) is tuple and tuple(map(type, row[1])) == SHAPES[row[0]]):
            return None
        checksum = CHECKSUMS[row[0]]
        if checksum is not None and checksum(*row[1][:-1]) != row[1][-1]:
            return None
        decoded.append((STATEMENTS[row[0]], row[1]))
    return decoded


def _scan_v1(data: bytes) -> Pending:
    """A log of the first format: records end at the first that fails, which must be the last thing in
    the file (what follows its declared length, if anything, zeros); else it is damage."""
    if len(data) < HEADER_V1.size:
        return Pending(0, [], tail=len(data))
    magic, generation, version, identity = HEADER_V1.unpack_from(data)
    pending = Pending(generation, [], identity=identity)
    offset = HEADER_V1.size
    while offset + RECORD_V1.size <= len(data):
        length, crc = RECORD_V1.unpack_from(data, offset)
        payload = data[offset + RECORD_V1.size:offset + RECORD_V1.size + length]
        if not length or len(payload) < length or zlib.crc32(payload) != crc:
            break
        decoded = _decoded(payload)
        if decoded is None:
            break
        _take(pending, decoded)
        offset += RECORD_V1.size + length
    rest = data[offset:]
    cut_short = len(rest) < RECORD_V1.size or RECORD_V1.size + RECORD_V1.unpack_from(rest)[0] >= len(rest)
    if rest and not cut_short and rest.strip(b"\x00"):
        _damaged(pending, pending.records + 1, pending.records + 1, offset, None, "it fails its checksum")
    else:
        pending.tail = len(rest)
    return pending


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


def header(generation: int, identity: int) -> bytes:
    """A log's header."""
    fields = HEADER.pack(MAGIC, generation, marshal.version, identity, 0)[:-4]
    return fields + struct.pack("<I", zlib.crc32(fields))


def frame(number: int, keys: bytes, rows: bytes) -> bytes:
    """Record ``number`` of a log, of its two parts: the keys it writes and its rows (``marshal``)."""
    head = HEAD.pack(MARK, number, len(keys), len(rows), zlib.crc32(keys), zlib.crc32(rows), 0)[:-4]
    return b"".join((head, struct.pack("<I", zlib.crc32(head)), keys, rows))


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
        keys = marshal.dumps(tuple([parameters[:2] for code, parameters in coded if code != _RECORD_CODE]))
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
        return self._fd is not None and os.fstat(self._fd).st_nlink == 0

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
