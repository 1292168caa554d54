"""``partiql recover FILE``: apply what a damaged write log still holds, and name what it cannot restore.

Opening a database whose write log is damaged is refused (``write_log``),
the files left as they are, because applying the log's readable part would
lose the writes after the damage silently. Recovery is the explicit step:
it takes the file as its owner (nobody else may have it open), checks the
SQLite file's structure, then folds every intact record of the log — those
before the damage and those after it, in order — into the file in one
transaction, and moves the log aside (``FILE-writes.damaged``) rather than
deleting it. A key whose last logged write was in a damaged record is
reported as not recovered (it holds its previous value: the file's, or an
earlier record's); a damaged record whose key part is unreadable too is
reported by its number. It never runs implicitly.
"""

from __future__ import annotations

import base64
import json
import os
import sqlite3
from dataclasses import dataclass, field

from . import file_format, write_log
from .codec import decode_spec, row_key_reader
from .errors import StorageError
from .file_lock import OwnerLock
from .vanished import free_name


@dataclass
class RecoveryReport:
    """What ``recover`` did: the records applied, the damage skipped, the keys not recovered, where the
    damaged log went (None: there was nothing to recover)."""

    path: str
    applied: int = 0
    damage: list = field(default_factory=list)  # log_format.Damage
    lost: list = field(default_factory=list)  # "table 'T' key {...}" of each key not recovered
    unknown: list = field(default_factory=list)  # (first, last) record numbers whose keys are unreadable
    kept_as: str | None = None
    already_folded: bool = False  # (a log the file holds already, left by a crash: nothing applied)


def recover(path) -> RecoveryReport:
    """Recover the database file ``path`` from its damaged write log; StorageError when it cannot."""
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise StorageError(f"cannot recover {path}: no such file")
    file_format.check_header(path)
    lock = OwnerLock(path)  # (DatabaseLocked, saying who has it open)
    try:
        pending = write_log.read(path, salvage=True)
        report = RecoveryReport(path)
        if pending is None or not (pending.damage or pending.header_damaged):
            return report  # (nothing damaged: opening the file folds the log in as usual)
        db = _open(path)
        try:
            _apply(db, path, pending, report)
        except sqlite3.Error as error:
            raise StorageError(f"cannot recover {path}: {error}") from None
        finally:
            db.close()
        report.kept_as = _set_aside(path)
        return report
    finally:
        lock.release()


def _open(path: str) -> sqlite3.Connection:
    try:
        db = sqlite3.connect(path, isolation_level=None)
    except sqlite3.Error as error:
        raise StorageError(f"cannot recover {path}: {error}") from None
    try:
        file_format.check_structure(db, path)
        version = db.execute("PRAGMA user_version").fetchone()[0]
        application = db.execute("PRAGMA application_id").fetchone()[0]
    except sqlite3.DatabaseError as error:
        db.close()
        raise file_format.damaged(path, str(error)) from None
    except StorageError:
        db.close()
        raise
    formats = file_format.LOGGED_FORMATS  # (a log of an earlier format is applied to its file; opening upgrades it)
    if application != file_format.APPLICATION_ID or version not in formats:
        db.close()
        raise StorageError(f"cannot recover {path}: it is not a partiql-ddb database of file format "
                           f"{formats[0]} to {formats[-1]}")
    return db


def _apply(db: sqlite3.Connection, path: str, pending: write_log.Pending, report: RecoveryReport) -> None:
    """Fold ``pending``'s intact records into ``db`` (when they are its and not folded yet), and fill in
    what could not be recovered."""
    folded = write_log.folded(db, path)
    _check_ours(pending, write_log.identity(db, path), folded, path)
    if pending.header_trusted and pending.generation <= folded:
        report.already_folded = True  # (a fold that committed before the log could be set aside)
        return
    # why: an unfolded log's generation is always one past the file's (a header damaged past repair
    # may say otherwise; the only log at the file's own is one whose fold committed, and damaged too)
    pending.generation = folded + 1
    tables = _tables(db)
    with file_format.transaction(db):
        write_log.fold(db, pending)
    report.applied, report.damage = pending.records, pending.damage
    for damage in pending.damage:
        if damage.keys is None:
            report.unknown.append((damage.first, damage.last))
        report.lost += [_describe(tables, tid, key) for tid, key in sorted(damage.lost)]


def _check_ours(pending: write_log.Pending, identity: int, folded: int, path: str) -> None:
    """StorageError unless the log is the database's: its identity, or, for a header damaged past repair,
    its identity or its generation (one past the file's) as the file's."""
    if pending.identity == identity or (not pending.header_trusted and pending.generation == folded + 1):
        return
    raise StorageError(f"cannot recover {path}: its write log {write_log.log_path(path)} is not this "
                       "database's (its header names another); move it aside to open the database without it")


def _tables(db: sqlite3.Connection) -> dict:
    """table id -> (name, key schema), of the tables whose definitions still read."""
    tables = {}
    for tid, name, spec_text in db.execute("SELECT tid, name, spec FROM tables").fetchall():
        try:
            tables[tid] = name, decode_spec(spec_text).key
        except (ValueError, KeyError, TypeError):
            tables[tid] = name, None
    return tables


def _describe(tables: dict, tid: int, key: bytes) -> str:
    """``table 'Music' key {"Artist": "Acme", "SongTitle": "Hi"}``; key bytes where the key does not read."""
    name, schema = tables.get(tid, (f"#{tid}", None))
    try:
        stored = row_key_reader(schema)(key)
        values = [stored[1]] + ([stored[2][0] if isinstance(stored[2], tuple) else stored[2]]
                                if len(stored) > 2 else [])
        names = [schema.hash_name] + ([schema.range_name] if schema.range_name is not None else [])
        text = "{" + ", ".join(f"{json.dumps(name, ensure_ascii=False)}: {_text(value)}"
                               for name, value in zip(names, values)) + "}"
    except (AttributeError, ValueError, KeyError, TypeError, IndexError):
        text = f"(row key bytes {key.hex()})"
    return f"table {name!r} key {text}"


def _text(value) -> str:
    """A key value as JSON shows it: a string, a number, or a binary value's base64 in a string."""
    if isinstance(value, (bytes, bytearray)):
        return json.dumps("base64:" + base64.b64encode(bytes(value)).decode("ascii"))
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _set_aside(path: str) -> str:
    """Move the damaged log to a new name beside the database (kept, not deleted); that name."""
    log = write_log.log_path(path)
    dest = free_name(f"{log}.damaged")
    os.replace(log, dest)
    return dest
