"""The write log's bytes: its header and records (``header``, ``frame``), and reading them (``scan``).

The format, and how damage is told from a torn tail, is ``write_log``'s module docstring; this module
holds the structures and the reading, which owns nothing and touches no file.
"""

from __future__ import annotations

import marshal
import struct
import zlib
from dataclasses import dataclass, field

from .codec import item_checksum
from .errors import StorageError
from .rows import DELETE_ITEM, PUT_ITEM, ROW_KEY
from .stream_rows import ADD_RECORD, record_checksum

SUFFIX = "-writes"
MAGIC = b"PQDDLOG2"
HEADER = struct.Struct("<8sQIQI")  # magic, generation, marshal format, the database's identity, CRC-32 of those
MARK = b"\xa7REC"
HEAD = struct.Struct("<4sQIIIII")  # MARK, number, keys' length, rows' length, their CRC-32s, the head's CRC-32
MAGIC_V1 = b"PQDDLOG1"
HEADER_V1 = struct.Struct("<8sQIQ")  # magic, generation, marshal format, identity
RECORD_V1 = struct.Struct("<II")     # payload length, CRC-32 of the payload
# The statements a log may hold, by number, with their parameters' types and the checksum a row's last
# parameter must be (None: none): what a record is checked against before anything of it is written.
STATEMENTS = (PUT_ITEM, DELETE_ITEM, ADD_RECORD)
SHAPES = ((int, bytes, int, str, int), (int, bytes), (int, int, int, str, int))
CHECKSUMS = (lambda tid, key, size, text: item_checksum(key, size, text), None, record_checksum)
CODES = {statement: number for number, statement in enumerate(STATEMENTS)}
RECORD_CODE = CODES[ADD_RECORD]



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


def header(generation: int, identity: int) -> bytes:
    """A log's header."""
    fields = HEADER.pack(MAGIC, generation, marshal.version, identity, 0)[:-4]
    return fields + struct.pack("<I", zlib.crc32(fields))


def frame(number: int, keys: bytes, rows: bytes) -> bytes:
    """Record ``number`` of a log, of its two parts: the keys it writes and its rows (``marshal``)."""
    head = HEAD.pack(MARK, number, len(keys), len(rows), zlib.crc32(keys), zlib.crc32(rows), 0)[:-4]
    return b"".join((head, struct.pack("<I", zlib.crc32(head)), keys, rows))
