"""A database in one SQLite file: every write reaches it atomically before the call returns.

    from partiql.engine import Engine
    from partiql.engine.storage.sqlite import SqliteStorage
    db = Engine(storage=SqliteStorage("app.db"))      # opens (creating if needed) and loads
    ...
    db.storage.close()

An item operation's rows are appended to the write log beside the file
(``write_log``: one ``write`` instead of an SQLite commit), which every
transaction folds in first; anything else, and any write larger than an
item operation's (an import), is an SQLite transaction, the file in WAL
mode. ``durability="normal"`` (the default, SQLite's ``synchronous=NORMAL``)
makes each write a write into a log: it survives the process being killed
at any instant (SIGKILL, a crash, Ctrl-C); a power cut or OS crash may
lose the last few writes, never consistency. ``durability="full"``
(``synchronous=FULL``, and an ``fdatasync`` of each append) also syncs
every write, so power cuts lose nothing acknowledged either, at the cost
of a sync per write.

One ``SqliteStorage`` owns its file (see ``file_lock``); everything it does
runs under the engine lock and its own mutex, in one connection.
``read_only=True`` takes no ownership: it loads a consistent snapshot of
what has been committed (one SQLite read transaction, so a writer in
another process is neither blocked nor half-seen), closes the file, and
refuses every write, saying who holds the file and how to share it.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from contextlib import contextmanager
from urllib.parse import quote

from . import file_format, folding, integrity, rows as item_rows, stream_rows, write_log
from .file_lock import OwnerLock, holder
from .vanished import GONE, deleted, recovery_path
from .restore import StoredRecord, restore_table
from .base import Storage, collector_paused
from .errors import KEPT_IN_LOG, StorageError
from .codec import (decode_spec, decode_state, encode_item, encode_spec, encode_state, item_checksum,
                    row_key, row_key_reader, table_checksum)

DURABILITY = {"normal": "NORMAL", "full": "FULL"}
CHECKPOINT_PAGES = 10_000


class SqliteStorage(Storage):
    """The tables and items of one engine, kept in the SQLite file ``path``."""

    def __init__(self, path, durability: str = "normal", read_only: bool = False):
        if durability not in DURABILITY:
            raise ValueError(f"durability must be one of {', '.join(DURABILITY)}, not {durability!r}")
        self.path = os.fspath(path)
        self.durability = durability
        self.read_only = read_only
        self._mutex = threading.RLock()
        self._tids: dict[str, int] = {}  # table name -> row id in ``tables``
        self._shapes: dict[str, tuple] = {}  # table name -> partition counts last saved
        self._touched: set = set()  # tables the last write touched (their partitions may split)
        self._engine = None
        self._unsaved: dict = {}  # table name -> a table whose change could not be saved (a full disk): retried
        self._gone: str | None = None  # which file was deleted or replaced while open: writes are refused
        self.recovered_to: str | None = None  # where ``close`` wrote a database whose file was deleted
        self._lock = None if read_only else OwnerLock(self.path)
        self._db = None
        self._file: int | None = None  # a descriptor of the database file, to tell it was deleted (``fstat``)
        self._log: write_log.WriteLog | None = None
        self._found_log = False  # a log was beside the file at open: deleted once its writes are in
        self._unfolded: write_log.Pending | None = None  # the log's writes the file does not hold, at open
        self._overlay: write_log.Overlay | None = None  # a snapshot's view of them while it loads
        try:
            self._db = self._open_read_only() if read_only else self._open()
        except BaseException:
            self._release()
            raise

    @property
    def durable(self) -> bool:
        return not self.read_only

    def _open(self) -> sqlite3.Connection:
        """Open the file and read its write log; nothing is written to a file that already held a
        database until ``load`` has checked it whole (``_settle``)."""
        file_format.check_writable(self.path)
        file_format.check_header(self.path)
        pending = write_log.read(self.path)  # (a damaged log is refused before SQLite touches the file)
        try:
            # why check_same_thread=False: the engine's lock, not the thread, serialises access.
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as error:
            raise StorageError(f"cannot open {self.path}: {error}") from None
        try:
            file_format.check_structure(db, self.path)
            # (a log an earlier release left beside a file of its format is folded in as the file is upgraded)
            file_format.prepare(db, self.path, fold_log=lambda db: write_log.fold_unfolded(db, pending, self.path))
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(f"PRAGMA synchronous={DURABILITY[self.durability]}")
            # why: each checkpoint syncs the file; folding the log in every 10,000
            # pages (~40 MB) rather than SQLite's 1,000 keeps single writes cheap.
            db.execute(f"PRAGMA wal_autocheckpoint={CHECKPOINT_PAGES}")
            self._found_log = pending is not None
            self._unfolded = write_log.unfolded(pending, db, self.path)
            self._file = os.open(self.path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except sqlite3.OperationalError as error:  # read-only, no space, no such directory…
            db.close()
            raise StorageError(f"cannot open {self.path}: {error}") from None
        except sqlite3.DatabaseError as error:  # not a database, malformed
            db.close()
            raise file_format.damaged(self.path, str(error)) from None
        except BaseException:
            db.close()
            raise
        return db

    def _settle(self) -> None:
        """After every check passed: fold in the writes a process that died left in the write log, and
        open the log for this session."""
        db = self._db
        if self._unfolded is not None:
            folding.fold_in_steps(db, self.path, self._unfolded)  # (steps: a nearly full disk can take them)
            self._unfolded = None
        if self._found_log:
            write_log.discard(self.path)  # (folded, or another database's: see write_log.identity)
        identity = write_log.claim_identity(db, self.path)
        self._log = write_log.WriteLog(self.path, identity, write_log.folded(db, self.path) + 1,
                                       sync=self.durability == "full")

    def _open_read_only(self) -> sqlite3.Connection:
        if not os.path.isfile(self.path):
            raise StorageError(f"cannot open {self.path} read-only: no such database file")
        file_format.check_header(self.path)
        try:
            db = sqlite3.connect(f"file:{quote(os.path.abspath(self.path))}?mode=ro", uri=True,
                                 isolation_level=None, check_same_thread=False)
            file_format.accept(db, self.path)
        except sqlite3.Error as error:
            raise StorageError(f"cannot open {self.path} read-only: {error}") from None
        return db

    # ------------------------------------------------------------------ load
    def load(self, engine) -> None:
        """Rebuild every table of the file in ``engine`` (called by ``Engine.__init__``); read-only,
        from one snapshot, after which the file is closed."""
        with self._mutex:
            self._engine = engine
            try:
                if self.read_only:
                    # one read transaction: a consistent snapshot of the commits, and of the write log
                    unfolded = write_log.snapshot(self._db, self.path)
                    file_format.check_structure(self._db, self.path)
                else:
                    unfolded = self._unfolded
                self._overlay = None if unfolded is None else write_log.Overlay(unfolded)
                rows = self._db.execute("SELECT tid, name, spec, state, crc FROM tables ORDER BY tid").fetchall()
                for tid, name, spec_text, state_text, crc in rows:
                    if table_checksum(name, spec_text, state_text) != crc:
                        raise file_format.damaged_table(self.path, name)
                    self._load_table(engine, tid, name, spec_text, state_text)
                self._load_streams(engine.streams)
                self._overlay = None
                if not self.read_only:
                    self._settle()
            except StorageError:
                self._release()  # why: the caller never gets an engine to close
                raise
            except sqlite3.OperationalError as error:  # (folding the log in: no space, read-only file…)
                self._release()
                raise StorageError(f"cannot open {self.path}: {error}") from None
            except (sqlite3.Error, ValueError, KeyError, TypeError, ArithmeticError) as error:  # (a bad N key)
                self._release()
                raise file_format.damaged(self.path, f"{type(error).__name__}: {error}") from None
            if self.read_only:
                self._release()  # why: the snapshot is in memory; an open reader would hold back checkpoints

    def _load_table(self, engine, tid: int, name: str, spec_text: str, state_text: str) -> None:
        spec, (state, layout) = decode_spec(spec_text), decode_state(state_text)
        # why the text as bytes: an item stays its row's text until first read (``StoredRecord``); as
        # bytes it is neither decoded here nor encoded again for its checksum, and it takes less memory
        rows = self._db.execute("SELECT key, size, CAST(item AS BLOB), crc FROM items WHERE tid = ? ORDER BY key",
                                (tid,))
        if self._overlay is not None:
            rows = self._overlay.items(tid, rows, utf8=True)
        records = self._records(spec, rows)
        with collector_paused():
            table = restore_table(engine, spec, state, layout, records)
        self._tids[table.name] = tid
        self._shapes[table.name] = _shape(table)

    def _load_streams(self, streams) -> None:
        """Every stream the file keeps, then its records in sequence order."""
        numbered = {}
        for arn, sid, text, crc in self._db.execute("SELECT arn, sid, state, crc FROM streams").fetchall():
            if stream_rows.stream_checksum(arn, sid, text) != crc:
                raise StorageError(f"cannot open {self.path}: the description of stream {arn} is damaged (its "
                                   "checksum does not match its contents); the file was left as it is")
            numbered[sid] = streams.restore(arn, json.loads(text))
        shards: dict = {}
        rows = self._db.execute("SELECT seq, sid, shard, record, crc FROM stream_records ORDER BY seq")
        if self._overlay is not None:  # (the log's records are newer than the file's)
            rows = stream_rows.then_logged(rows, self._overlay.records)
        for seq, sid, number, text, crc in rows:
            stream = numbered[sid]
            if stream_rows.record_checksum(seq, sid, number, text) != crc:
                raise StorageError(f"cannot open {self.path}: table {stream.table_name!r}: stream record {seq} "
                                   "is damaged (its checksum does not match its contents); the file was left as "
                                   "it is")
            shard = shards.get((sid, number)) or shards.setdefault((sid, number), stream.shard_numbered(number))
            streams.restore_change(shard, stream_rows.decode_change(seq, text, stream.key_schema))

    def _records(self, spec, rows):
        """A keyed ``StoredRecord`` of each stored item row, once its checksum holds."""
        read_key = row_key_reader(spec.key)
        for key, size, text, crc in rows:
            if item_checksum(key, size, text) != crc:
                raise file_format.damaged_item(self.path, spec.name, spec.key, key, text)
            yield StoredRecord(text, size, read_key(key))

    # ---------------------------------------------------------------- writes
    def persist(self, mutations: list, changes: list | None = None) -> None:
        """Make one operation's mutations and their stream records durable, all or none: the rows of
        an item operation as one record of the write log, anything larger (an import), or anything
        that also saves a table's layout or a stream's description, in one SQLite transaction."""
        with self._mutex:
            self.check_writable()
            if changes:
                rows = self._rows_with_records(mutations, changes)
            else:
                rows = [row for row in map(self._row, mutations) if row is not None]
            stale = self._stale(self._touched)
            unsaved = self._engine is not None and bool(self._engine.streams.unsaved)
            if not stale and not unsaved and len(rows) <= write_log.LOGGED_AT_MOST:
                if rows:
                    self._append(rows)
            else:
                with self._transaction():
                    item_rows.write(self._db, rows)
                    for table in stale:
                        self._write_table(table)
                    written = self._save_streams()
                _saved(written)
            self._touched = {mutation.table for mutation in mutations}

    def _append(self, rows: list) -> None:
        """Append one operation's rows to the write log, folding the log in first when it is full
        (first: a failed fold must leave this operation unwritten, as it leaves it unapplied)."""
        if self._log.size >= write_log.FOLD_BYTES:
            self._fold()
        try:
            self._log.append(rows)
        except OSError as error:
            message = f"cannot write {write_log.log_path(self.path)}: {error.strerror or error}"
            if self._log.broken:  # (its end is unknown: the next write folds what memory holds first)
                message += " (and its end could not be restored: the next write folds the log into the file first)"
            raise StorageError(message) from None

    def _row(self, mutation) -> tuple | None:
        """(SQL, parameters) writing one mutation; None for deleting an item that was not there."""
        tid = self._tids[mutation.table.name]
        if mutation.new is not None:
            key, size, text = row_key(mutation.h, mutation.pk, mutation.sort), mutation.new.size, \
                encode_item(mutation.new.item)
            return item_rows.PUT_ITEM, (tid, key, size, text, item_checksum(key, size, text))
        if mutation.old is not None:
            return item_rows.DELETE_ITEM, (tid, row_key(mutation.h, mutation.pk, mutation.sort))
        return None

    def _rows_with_records(self, mutations: list, changes: list) -> list:
        """The mutations' rows, then their ``stream_records`` rows (a new image's JSON is its item row's)."""
        rows, texts = [], {}
        for mutation in mutations:
            row = self._row(mutation)
            if row is not None:
                rows.append(row)
                if row[0] is item_rows.PUT_ITEM:
                    texts[id(mutation.new.item)] = row[1][3]
        rows += [(stream_rows.ADD_RECORD, stream_rows.record_row(stream, shard, change, texts.get(id(change.new))))
                 for stream, shard, change in changes]
        return rows

    def _stale(self, tables) -> list:
        """Those of ``tables`` whose partitions split since their layout was saved (checked
        after the fact: a split happens when a write is applied, after ``persist``)."""
        current = self._engine.tables if self._engine is not None else {}
        return [table for table in tables  # (a table dropped since, or replaced, is not current)
                if current.get(table.name) is table and _shape(table) != self._shapes.get(table.name)]

    def save_table(self, table) -> None:
        """Record a created or updated table. On failure (a full disk) the change stays in memory and is
        saved by the next write that can reach the file: why, an InternalServerError leaves a request's
        outcome unknown to the caller, and the table is what DescribeTable and a retry will find."""
        with self._mutex:
            self.check_writable()
            self._unsaved[table.name] = table
            with self._transaction():
                self._write_unsaved()
                written = self._save_streams()
            _saved(written)

    def _write_table(self, table) -> None:
        spec, state = encode_spec(table.spec), encode_state(table)
        crc = table_checksum(table.name, spec, state)
        tid = self._tids.get(table.name)
        if tid is None:
            cursor = self._db.execute("INSERT INTO tables (name, spec, state, crc) VALUES (?, ?, ?, ?)",
                                      (table.name, spec, state, crc))
            tid = cursor.lastrowid
        else:
            self._db.execute("UPDATE tables SET spec = ?, state = ?, crc = ? WHERE tid = ?",
                             (spec, state, crc, tid))
        self._tids[table.name] = tid
        self._shapes[table.name] = _shape(table)

    def drop_table(self, name: str) -> None:
        """Delete a table and its items (before the engine forgets it, so failure changes nothing)."""
        with self._mutex:
            self.check_writable()
            tid = self._tids.get(name)
            if tid is None:
                return
            with self._transaction():
                self._db.execute("DELETE FROM items WHERE tid = ?", (tid,))
                self._db.execute("DELETE FROM tables WHERE tid = ?", (tid,))
                written = self._save_streams()  # (its stream, closed, stays readable for a day)
            _saved(written)
            del self._tids[name]
            self._shapes.pop(name, None)

    def announce(self, url: str | None) -> None:
        """Record the URL the file is served at in its lock (``file_lock``), for later openers."""
        with self._mutex:
            if self._lock is not None and self._db is not None:
                self._lock.announce(url)

    # ---------------------------------------------------------------- backup
    def backup(self, dest) -> None:
        """Copy the database, as it is now (the write-ahead log included), to the new file ``dest``."""
        with self._mutex:
            if self.read_only:
                raise StorageError(self._read_only_refusal("back up"))
            if self._db is None:
                raise StorageError(f"cannot back up {self.path}: the database is closed")
            self._fold()  # (the copy is of the SQLite file alone)
            integrity.backup(self._db, dest)

    # ----------------------------------------------------------------- close
    def close(self) -> None:
        """Fold in the write log, save split partition layouts, close the file (SQLite folds its own
        log in) and unlock it. A database whose file was deleted while open is written to a new file
        beside it instead (``recovered_to``), and StorageError says where."""
        with self._mutex:
            if self._db is None:
                return
            try:
                if self._engine is not None and self._log is not None:
                    if self._database_gone():
                        self._recover_to(recovery_path(self.path))
                    self._write_everything()
            except StorageError as error:  # (a full disk: what the file could not take stays in the log)
                if self.recovered_to is not None or self._log is None:
                    raise
                raise StorageError(f"{error}; {KEPT_IN_LOG.format(log=self._log.path)}") from None
            finally:
                self._release()
            if self.recovered_to is not None:
                raise StorageError(f"{self.path} was deleted or replaced while open: everything it held, every "
                                   f"acknowledged write included, was written to {self.recovered_to}; rename "
                                   f"it to {self.path} to go on with it")

    def _write_everything(self) -> None:
        """Write what memory holds that the file does not: the write log, split layouts, unsaved tables
        and streams."""
        stale = self._stale(self._engine.tables.values())
        if stale or self._unsaved or self._engine.streams.unsaved or self._log.size or self._log.broken:
            with self._transaction():
                for table in stale:
                    self._write_table(table)
                self._write_unsaved()
                written = self._save_streams()
            _saved(written)

    def _database_gone(self) -> bool:
        """Whether the database file was deleted or replaced (renamed over) since it was opened."""
        return self._gone == "database" or (self._file is not None and deleted(self._file))

    def _recover_to(self, dest: str) -> None:
        """Copy the database this connection still reads (the deleted file's contents) to ``dest`` and
        make the rest of ``close`` write there."""
        integrity.backup(self._db, dest)
        self._db.close()
        self._db = sqlite3.connect(dest, isolation_level=None, check_same_thread=False)
        self.recovered_to = dest

    def _release(self) -> None:
        if self._log is not None:
            self._log.close()
        if self._file is not None:
            os.close(self._file)
            self._file = None
        if self._db is not None:
            self._db.close()
            self._db = None
        if self._lock is not None:
            self._lock.release()

    def _save_streams(self):
        """Within a transaction: write what the engine's streams have not yet saved. The streams, for
        ``_saved`` once the transaction committed (None: nothing was written)."""
        streams = self._engine.streams if self._engine is not None else None
        if streams is None or not streams.unsaved:
            return None
        stream_rows.save(self._db, streams)
        return streams

    # --------------------------------------------------------------- helpers
    def check_writable(self) -> None:
        """StorageError unless a write can reach the file now (read-only, closed, its files deleted); what
        an earlier failure left unwritten (a table's change, a log whose end is unknown) is written first."""
        if self.read_only:
            raise StorageError(self._read_only_refusal("write"))
        if self._db is None or self._log is None:
            raise StorageError(f"cannot write {self.path}: the database is closed")
        if self._gone is None:
            if self._database_gone():
                self._gone = "database"
            elif self._log.gone():
                self._gone = "log"
        if self._gone is not None:
            raise StorageError(GONE[self._gone].format(path=self.path, log=self._log.path))
        if self._unsaved or self._log.broken:
            self._catch_up()

    def _catch_up(self) -> None:
        """Write what an earlier failure left in memory alone; StorageError while it still cannot be."""
        pending = ", ".join([f"the definition of table {name!r}" for name in self._unsaved] +
                            ["the write log, whose end an earlier failure left unknown"] * self._log.broken)
        try:
            self._write_everything()
        except StorageError as error:
            raise StorageError(f"{error} (not yet saved: {pending}; writes resume once it can be)") from None

    def _read_only_refusal(self, what: str) -> str:
        held, pid = holder(self.path)
        who = (f"; it is open for writing in {'another process' if pid is None else f'process {pid}'}"
               if held else "")
        return (f"cannot {what} {self.path}: this connection reads a snapshot of it, opened read-only{who}. "
                f"To share one database between programs, serve it (partiql serve {self.path}) and point them "
                "at the server")

    def _failing(self, what: str) -> "_Failing":
        """Report SQLite's errors as StorageError naming the file."""
        return _Failing(what, self.path)

    @contextmanager
    def _transaction(self):
        """An SQLite transaction that first folds in the write log, from memory (so the file's changes
        keep their order); the log is deleted once it committed. A failed one leaves the table ids,
        layouts and unsaved tables as they were."""
        folding = self._log.size > 0 or self._log.broken
        kept = dict(self._tids), dict(self._shapes), dict(self._unsaved)
        try:
            with self._failing("write"), file_format.transaction(self._db):
                if folding:
                    write_log.fold(self._db, self._log.pending())
                yield
        except BaseException:
            self._tids, self._shapes, self._unsaved = kept
            raise
        if folding:
            self._log.reset()

    def _write_unsaved(self) -> None:
        """Within a transaction: the tables whose change could not be saved before (still current)."""
        for name, table in self._unsaved.items():
            if self._engine is None or self._engine.tables.get(name) is table:
                self._write_table(table)
        self._unsaved.clear()  # (``_transaction`` puts them back if it fails)

    def _fold(self) -> None:
        """Fold the write log into the SQLite file now (nothing when it is empty)."""
        if self._log.size:
            with self._transaction():
                pass  # (a transaction folds the log first)

    def __repr__(self) -> str:
        return f"SqliteStorage({self.path!r}, durability={self.durability!r})"


class _Failing:
    """``SqliteStorage._failing``'s context: SQLite's errors leave as StorageError naming the file."""

    __slots__ = ("what", "path")

    def __init__(self, what: str, path: str):
        self.what, self.path = what, path

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, error, trace) -> bool:
        if kind is not None and issubclass(kind, sqlite3.Error):
            raise StorageError(f"cannot {self.what} {self.path}: {error}") from None
        return False


def _saved(streams) -> None:
    """After a commit: the streams ``_save_streams`` wrote need not be written again (a failed
    transaction leaves them to the next one)."""
    if streams is not None:
        streams.saved()


def _shape(table) -> tuple:
    """Partition counts of a table's stores: they only grow, so a change means a split."""
    return (len(table.store.partitions), tuple(len(store.partitions) for store in table.gsi_stores.values()))
