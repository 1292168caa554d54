"""The write log folded in at open, in steps a nearly full disk can take; and how much space is short.

why steps: one transaction of the whole log puts every page it changes in
SQLite's write-ahead log, and the checkpoint copies them into the file while
the WAL still holds them. A log of 14,000 updates scattered over a 40 MB
table changed most of its pages: reopening needed 31 MB free for a 3.6 MB
log; now 117 KB (``bench/fold_space.py``). Here each step is a transaction of
at most ``STEP_ROWS`` rows (``STEP_BYTES``), checkpointed (TRUNCATE) before
the next, so the WAL holds one step's pages; a step the disk cannot take is
rolled back and tried again at half the size, down to ``MIN_ROWS``. The fold
then needs about the file's growth (what it writes) and one small step.

Stopping between steps is safe (``write_log.fold_rows``): the folded
generation is recorded with the last step, an interrupted fold is folded
again whole at the next open, every row is keyed (items and stream records:
twice ends the same), and a reader meanwhile overlays the whole log on
whatever part of it the file holds (the log's stream records after the
file's last: ``SqliteStorage._load_streams``).

When even the smallest step does not fit, the open is refused with what is
short: the rest of the fold's new rows (an update of a row the file holds
rewrites its page in place) at the file's growth per row byte, plus the
largest step's WAL, less what is free. Nothing acknowledged is lost: the log stays, the next open folds it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3

from . import file_format, rows as item_rows, write_log
from .errors import StorageError
from .rows import PUT_ITEM
from .stream_rows import FOLD_RECORD

STEP_ROWS = 1024        # item rows a step writes at most: its WAL holds at most ~4 MB of leaf pages
STEP_BYTES = 1 << 20    # and about this many bytes of rows (large items)
MIN_ROWS = 16           # the smallest step tried on a nearly full disk
GROWTH = 1.2            # file bytes per new row byte, at least (SQLite's pages and cells: 1.1 measured)
PAGE = 4096


def fold_in_steps(db: sqlite3.Connection, path: str, pending: write_log.Pending) -> None:
    """Fold ``pending`` into ``db`` (the file ``path``), a step a transaction, each checkpointed; a disk
    too full for the smallest step is a StorageError saying how much more space the rest needs."""
    rows, last = write_log.fold_rows(pending)
    seen = Seen(path)
    at, size = 0, STEP_ROWS
    while True:
        step = _step(rows, at, size)
        final = at + len(step) == len(rows)
        try:
            with file_format.transaction(db):
                item_rows.write(db, step + last if final else step)
            seen.step_written(step + last if final else step)
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.OperationalError as error:
            if "full" not in str(error):
                raise
            with contextlib.suppress(sqlite3.Error):  # (give back what the failed step's WAL took)
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            if size <= MIN_ROWS:
                raise StorageError(seen.short_of_space(_new_bytes(db, rows[at:]))) from None
            size //= 2
            continue
        if final:
            return
        at += len(step)


def _step(rows: list, at: int, size: int) -> list:
    """The rows from ``at``: at most ``size`` of them, and about ``STEP_BYTES`` (one at least)."""
    end, weight = at, 0
    while end < len(rows) and end - at < size and (weight < STEP_BYTES or end == at):
        weight += write_log.row_bytes(rows[end])
        end += 1
    return rows[at:end]


def _new_bytes(db: sqlite3.Connection, rows: list) -> int:
    """The bytes of what ``rows`` adds to the file: stream records, and items it does not hold yet (an item
    it holds is rewritten in place)."""
    return sum(write_log.row_bytes(row) for row in rows if row[0] is FOLD_RECORD or row[0] is PUT_ITEM
               and db.execute(_HELD, row[1][:2]).fetchone() is None)


_HELD = "SELECT 1 FROM items WHERE tid = ? AND key = ?"


class Seen:
    """What a fold has done so far, to say how much space the rest needs: the file's growth per new row
    byte (once a megabyte of rows measured it) and the largest step's WAL."""

    def __init__(self, path: str):
        self.path = path
        self.start, self.done, self.wal = _size(path), 0, 0

    def step_written(self, step: list) -> None:
        self.done += sum(map(write_log.row_bytes, step))
        self.wal = max(self.wal, _size(self.path + "-wal"))

    def needed(self, new: int) -> int:
        """About the free space writing ``new`` bytes of new rows takes: the file's growth, and a step's WAL."""
        measured = (_size(self.path) - self.start) / self.done if self.done >= STEP_BYTES else 0
        return int(new * max(measured, GROWTH)) + (self.wal or MIN_ROWS * PAGE)

    def short_of_space(self, new: int) -> str:
        """``cannot open FILE: the disk is full: folding in its write log needs about N MB more …``"""
        folder = os.path.dirname(os.path.abspath(self.path))
        free = shutil.disk_usage(folder).free
        return (f"cannot open {self.path}: the disk is full: folding in its write log "
                f"({_mb(_size(write_log.log_path(self.path)))}) needs about {_mb(max(self.needed(new) - free, PAGE))} "
                f"more free space in {folder} ({_mb(free)} free); nothing acknowledged is lost (the log is kept): "
                "free some space and open it again")


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _mb(count: int) -> str:
    return f"{count / (1 << 20):.1f} MB" if count >= 1 << 20 else f"{max(1, round(count / 1024))} KB"
