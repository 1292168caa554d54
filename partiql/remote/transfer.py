"""Import into and export from a remote table within its capacity (issue 18 point 4).

An import reads and checks every row first (keys and their types, item
size), as a local import does: a bad row fails the whole import unless
``continue_on_error``, and nothing is sent then. The good rows (one per key:
a later row replaces an earlier one) go in BatchWriteItem requests of 25; the
items the service leaves unprocessed (throttled) are sent again after an
exponential backoff with full jitter, as AWS's SDKs do, until all are in.
``max_wcu`` paces the writes by the units they cost (a token bucket of one
second); ``max_rcu`` paces an export's Scan pages likewise. An export scans
``segments`` parallel Scan segments and writes the file when all are read.
``progress(stage, done, total)`` reports as a local transfer does, and the
report carries the capacity the service says it consumed.
"""

from __future__ import annotations

import math
import os
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from partiql.engine import limits
from partiql.engine.errors import THROTTLES, ResourceNotFoundException
from partiql.engine.keys import key_from_item
from partiql.engine.types import item_size

from ..transfer import (DEFAULT_EXPORT, ExportReport, ImportReport, TransferError, _failure, _plain_losses,
                        _write_file, export_format, stage_rows, start_import)
from ..transfer_formats import Context
from .values import item_from_botocore, to_botocore

BATCH = 25                 # BatchWriteItem's most items
BACKOFF_BASE = 0.05        # seconds: the first retry waits up to this
BACKOFF_CAP = 5.0          # seconds: no retry waits longer
GIVE_UP_AFTER = 12         # retries in a row that wrote nothing
SEGMENTS = 4               # an export's parallel Scan segments


class Pace:
    """A token bucket of ``rate`` units a second (one second of burst); None: no limit. Thread-safe."""

    def __init__(self, rate: float | None, clock=time.monotonic, sleep=time.sleep):
        self.rate = rate
        self.clock, self.sleep = clock, sleep
        self.level = rate or 0.0
        self.last = clock()
        self.lock = threading.Lock()

    def take(self, units: float) -> None:
        """Wait until ``units`` may be spent, then spend them (more than a second's worth: a second's)."""
        if not self.rate:
            return
        with self.lock:
            now = self.clock()
            self.level = min(self.rate, self.level + (now - self.last) * self.rate)
            self.last = now
            wanted = min(units, self.rate)
            if self.level < wanted:
                self.sleep((wanted - self.level) / self.rate)
                self.last = self.clock()
                self.level = wanted
            self.level -= wanted


def _write_units(item: dict) -> int:
    return max(1, math.ceil(item_size(item) / 1024))


# ------------------------------------------------------------------ import

def import_items(connection, table_name: str, path, format: str | None = None, *,
                 continue_on_error: bool = False, types: dict | None = None, progress=None,
                 max_wcu: float | None = None, sleep=time.sleep) -> ImportReport:
    """Load ``path`` into the remote ``table_name`` (see the module's docstring)."""
    path = os.fspath(path)
    table = connection.catalog.get(table_name)
    if table is None:
        raise ResourceNotFoundException(f"Requested resource not found: Table: {table_name} not found")
    chosen, context, report = start_import(path, table_name, table.spec, format, types)
    started = time.perf_counter()
    key_schema = table.spec.key

    def keyed(item: dict) -> tuple:
        key_from_item(key_schema, item)  # (its key attributes, with their types)
        if item_size(item) > limits.MAX_ITEM_BYTES:
            raise ValueError("Item size has exceeded the maximum allowed size")
        return tuple(item[name] for name in key_schema.names), None

    staged = stage_rows(chosen.read, context, report, progress, keyed)
    if report.errors and not continue_on_error:
        raise TransferError(_failure(report), report)
    writer = _Writer(connection, table_name, Pace(max_wcu, sleep=sleep), sleep, progress, len(staged))
    items = [item for _, _, item in staged.values()]
    for start in range(0, len(items), BATCH):
        writer.write(items[start:start + BATCH])
    report.imported = len(items)
    report.write_units = writer.consumed
    report.seconds = time.perf_counter() - started
    return report


class _Writer:
    """BatchWriteItem in batches of 25, resending what comes back unprocessed (see the module)."""

    def __init__(self, connection, table: str, pace: Pace, sleep, progress, total: int):
        self.connection, self.table, self.pace, self.sleep = connection, table, pace, sleep
        self.progress, self.total = progress, total
        self.done = 0
        self.consumed = 0.0
        self.random = random.Random()

    def write(self, items: list) -> None:
        pending = [{"PutRequest": {"Item": {name: to_botocore(value) for name, value in item.items()}}}
                   for item in items]
        each = sum(map(_write_units, items)) / len(items)  # (a resent item costs what the batch's average does)
        idle = 0
        while pending:
            self.pace.take(each * len(pending))
            try:
                response = self.connection.call("batch_write_item", self.table, RequestItems={self.table: pending},
                                                 ReturnConsumedCapacity="TOTAL")
            except THROTTLES:  # nothing was written: the whole batch waits and goes again
                left = pending
            else:
                self.consumed += sum(entry.get("CapacityUnits", 0.0) for entry in response.get("ConsumedCapacity", []))
                left = response.get("UnprocessedItems", {}).get(self.table, [])
            written = len(pending) - len(left)
            self.done += written
            if self.progress and written:
                self.progress("write", self.done, self.total)
            idle = 0 if written else idle + 1
            if idle > GIVE_UP_AFTER:
                raise TransferError(f"cannot import into {self.table}: the service took none of {len(left)} items "
                                    f"in {GIVE_UP_AFTER} tries; {self.done:,} items were written")
            if left:  # full jitter (why: many writers backing off in step would collide again)
                self.sleep(self.random.uniform(0, min(BACKOFF_CAP, BACKOFF_BASE * 2 ** idle)))
            pending = left


# ------------------------------------------------------------------ export

def export_items(connection, table_name: str, path, format: str | None = None, *, progress=None,
                 segments: int = SEGMENTS, max_rcu: float | None = None, sleep=time.sleep) -> ExportReport:
    """Write every item of the remote ``table_name`` to ``path`` (see the module's docstring)."""
    path = os.fspath(path)
    chosen = export_format(path, format)
    table = connection.catalog.get(table_name)
    if table is None:
        raise ResourceNotFoundException(f"Requested resource not found: Table: {table_name} not found")
    pace = Pace(max_rcu, sleep=sleep)
    counted = _Counter(progress, table.item_count)
    with ThreadPoolExecutor(max_workers=segments) as pool:
        parts = list(pool.map(lambda segment: _scan_segment(connection, table_name, segment, segments, pace,
                                                            counted), range(segments)))
    items = [item for part in parts for item in part]
    context = Context(table.spec, progress=progress)
    _write_file(path, lambda text: chosen.write(text, items, context))
    report = ExportReport(table_name, path, chosen.name, len(items))
    report.read_units = counted.units
    if chosen.name != DEFAULT_EXPORT:
        report.warnings = _plain_losses(items, chosen.name)
    return report


class _Counter:
    """Items read and units consumed by every segment, reported as ``progress("scan", items, total)``."""

    def __init__(self, progress, total: int):
        self.progress, self.total = progress, total
        self.items, self.units = 0, 0.0
        self.lock = threading.Lock()

    def add(self, items: int, units: float) -> None:
        with self.lock:
            self.items += items
            self.units += units
            if self.progress:
                self.progress("scan", self.items, max(self.total, self.items))


def _scan_segment(connection, table: str, segment: int, segments: int, pace: Pace, counted: _Counter) -> list:
    items, start = [], None
    last_units = 0.5
    while True:
        pace.take(last_units)  # (a page's cost is known after it is read: pace by the last one)
        request = {"TableName": table, "Segment": segment, "TotalSegments": segments,
                   "ReturnConsumedCapacity": "TOTAL"}
        if start is not None:
            request["ExclusiveStartKey"] = start
        page = connection.call("scan", table, **request)
        found = [item_from_botocore(item) for item in page.get("Items", [])]
        last_units = (page.get("ConsumedCapacity") or {}).get("CapacityUnits", 0.5)
        counted.add(len(found), last_units)
        items += found
        start = page.get("LastEvaluatedKey")
        if start is None:
            return items
