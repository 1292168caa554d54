"""Checking a database file without changing it, and copying one safely while it is open.

``check_file(path)`` reads the file read-only: SQLite's own structural check
(``PRAGMA integrity_check``), then every table and item row against its
checksum (format 3) and through the decoder the engine uses on open, the
rows in the write log (``FILE-writes``, format 5) that the file does not
hold yet included. It never writes, migrates or creates anything.

``backup(source_db, dest)`` copies a database with SQLite's online backup
API: a consistent snapshot that includes what is still in the write-ahead
log (copying the file itself while it is open can copy an empty database:
the data is in ``FILE-wal``). ``backup_file(path, dest)`` does it for a file
given by name, and folds the owner's write log into the copy;
``SqliteStorage.backup`` does it for the one a session has open.
"""

from __future__ import annotations

import json
import os
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from . import file_format, stream_rows, write_log
from ..schema import KeySchema
from .codec import decode_item, decode_spec, item_checksum, item_row_key, table_checksum
from .errors import StorageError
from .log_format import LogDamaged

MAX_PROBLEMS = 20  # listed in a report; the count says how many more there were
PLACED_SINCE = 6  # the format since which a row key holds DynamoDB's key hash (``placement``)


@dataclass
class CheckReport:
    """What ``check_file`` found: the file's format, its tables' item counts and every problem."""

    path: str
    version: int
    tables: dict[str, int] = field(default_factory=dict)  # table name -> items read
    logged: int = 0  # writes (operations) in the write log that the file does not hold yet
    problems: list[str] = field(default_factory=list)
    more_problems: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems

    def add(self, problem: str) -> None:
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(problem)
        else:
            self.more_problems += 1


def check_file(path) -> CheckReport:
    """Check the database file ``path`` read-only; StorageError when it cannot be read at all."""
    with _opened(path, "check") as (db, version):
        report = CheckReport(os.fspath(path), version)
        try:  # (one snapshot for the rows and the log)
            unfolded = write_log.snapshot(db, report.path) if version >= 5 else None
        except StorageError as error:  # (a damaged log: a problem to report, the file is still checked)
            report.add(f"its write log {write_log.log_path(report.path)} is damaged ({error.detail}); partiql "
                       f"recover {report.path} applies every intact write" if isinstance(error, LogDamaged)
                       else str(error))
            unfolded = None
            if not db.in_transaction:
                db.execute("BEGIN")
        structure = [row[0] for row in db.execute("PRAGMA integrity_check").fetchall()]
        if structure != ["ok"]:
            for line in structure:
                report.add(f"SQLite: {line}")
            return report  # why: rows read from a damaged b-tree prove nothing
        report.logged = 0 if unfolded is None else unfolded.records
        _check_rows(db, report, None if unfolded is None else write_log.Overlay(unfolded))
        return report


def backup_file(path, dest) -> None:
    """Copy the database file ``path`` (open elsewhere or not) to the new file ``dest``, with the writes
    its owner's write log holds."""
    with _opened(path, "back up") as (db, _):
        backup(db, dest, write_log.snapshot(db, os.fspath(path)))


@contextmanager
def _opened(path, doing: str):
    """(read-only connection, format version) of the database file ``path``; closed after."""
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise StorageError(f"cannot {doing} {path}: no such file")
    file_format.check_header(path)
    db = _read_only(path)
    try:
        yield db, _identify(db, path)
    except sqlite3.DatabaseError as error:
        raise file_format.damaged(path, str(error)) from None
    finally:
        db.close()


def backup(source: sqlite3.Connection, dest, pending: write_log.Pending | None = None) -> None:
    """Copy the open database ``source`` to the new file ``dest`` (refused if it exists), and fold
    ``pending`` (a write log ``source`` does not hold) into the copy."""
    dest = os.fspath(dest)
    if os.path.lexists(dest):
        raise StorageError(f"cannot back up to {dest}: the file exists (choose a new name)")
    if not Path(dest).parent.is_dir():
        raise StorageError(f"cannot back up to {dest}: no such directory")
    try:
        target = sqlite3.connect(dest)
    except sqlite3.Error as error:
        raise StorageError(f"cannot back up to {dest}: {error}") from None
    try:
        source.backup(target)
        if pending is not None:
            with file_format.transaction(target):
                write_log.fold(target, pending)
    except sqlite3.Error as error:
        target.close()
        _remove(dest)
        raise StorageError(f"cannot back up to {dest}: {error}") from None
    target.close()


def _remove(path: str) -> None:
    for name in (path, path + "-wal", path + "-shm", path + "-journal"):
        try:
            os.remove(name)
        except FileNotFoundError:
            pass


def _read_only(path: str) -> sqlite3.Connection:
    try:
        return sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise StorageError(f"cannot read {path}: {error}") from None


def _identify(db: sqlite3.Connection, path: str) -> int:
    """The file's format version; StorageError when it is not a partiql-ddb file this version reads."""
    application = db.execute("PRAGMA application_id").fetchone()[0]
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if application != file_format.APPLICATION_ID:
        raise StorageError(f"cannot read {path}: it is an SQLite database, but not a partiql-ddb one")
    if version > file_format.FORMAT_VERSION:
        raise StorageError(f"cannot read {path}: it was written by a newer partiql-ddb (file format {version})")
    return version


def _check_rows(db: sqlite3.Connection, report: CheckReport, overlay: write_log.Overlay | None) -> None:
    checksums = report.version >= 3
    columns = "tid, name, spec, state" + (", crc" if checksums else "")
    if report.version < 2:
        report.add(f"file format {report.version}: opening it upgrades it; check it again afterwards")
        return
    for row in db.execute(f"SELECT {columns} FROM tables ORDER BY tid").fetchall():
        tid, name, spec_text, state_text = row[:4]
        if checksums and table_checksum(name, spec_text, state_text) != row[4]:
            report.add(f"table {name!r}: its definition is damaged (checksum mismatch)")
            continue
        try:
            spec = decode_spec(spec_text)
        except (ValueError, KeyError, TypeError) as error:
            report.add(f"table {name!r}: its definition cannot be read ({type(error).__name__}: {error})")
            continue
        report.tables[name] = _check_items(db, report, tid, spec, checksums, overlay)
    if report.version >= 4:
        _check_streams(db, report, overlay)


def _check_streams(db, report: CheckReport, overlay: write_log.Overlay | None) -> None:
    """Every stream description and stream record against its checksum and through its decoder."""
    keys = {}  # stream number -> (key schema, table name), None when its description is damaged
    for arn, sid, text, crc in db.execute("SELECT arn, sid, state, crc FROM streams").fetchall():
        keys[sid] = None  # (its records are not checked: the problem is reported once, here)
        if stream_rows.stream_checksum(arn, sid, text) != crc:
            report.add(f"stream {arn}: its description is damaged (checksum mismatch)")
            continue
        try:
            state = json.loads(text)
            keys[sid] = (KeySchema(*state["key"]), state["table"])
        except (ValueError, KeyError, TypeError) as error:
            report.add(f"stream {arn}: its description cannot be read ({type(error).__name__}: {error})")
    records = db.execute("SELECT seq, sid, shard, record, crc FROM stream_records ORDER BY seq")
    for seq, sid, shard, text, crc in records if overlay is None else stream_rows.then_logged(records,
                                                                                              overlay.records):
        if sid not in keys:
            report.add(f"stream record {seq}: of no stream the file describes (stream number {sid})")
            continue
        if keys[sid] is None:
            continue
        key, table = keys[sid]
        if stream_rows.record_checksum(seq, sid, shard, text) != crc:
            report.add(f"table {table!r}: stream record {seq}: damaged (checksum mismatch)")
            continue
        try:
            stream_rows.decode_change(seq, text, key)
        except (ValueError, KeyError, TypeError, IndexError) as error:
            report.add(f"table {table!r}: stream record {seq}: cannot be read ({type(error).__name__}: {error})")


def _check_items(db, report: CheckReport, tid: int, spec, checksums: bool, overlay: write_log.Overlay | None) -> int:
    columns = "key, size, item" + (", crc" if checksums else "")
    count = 0
    rows = db.execute(f"SELECT {columns} FROM items WHERE tid = ? ORDER BY key", (tid,))
    for row in rows if overlay is None else overlay.items(tid, rows):  # (the log is of format 5: checksums)
        key, size, text = row[:3]
        where = f"table {spec.name!r}: item {file_format.describe_key(spec.key, key, text)}"
        if checksums and item_checksum(key, size, text) != row[3]:
            report.add(f"{where}: damaged (checksum mismatch)")
            continue
        try:
            item = decode_item(text)
            placed = item_row_key(spec.key, item)
        except (ValueError, KeyError, TypeError) as error:
            report.add(f"{where}: cannot be read ({type(error).__name__}: {error})")
            continue
        if report.version >= PLACED_SINCE and placed != bytes(key):
            report.add(f"{where}: stored under another key (its row key is not its key's, placed by its hash)")
            continue
        count += 1
    return count
