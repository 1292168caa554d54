"""Import items from files and export them, in the formats of ``transfer_formats``.

    report = db.import_items("Music", "music.csv")                 # all or nothing
    report = db.import_items("Music", "dump.json.gz", continue_on_error=True)
    report.imported, report.errors                                  # 998, [(7, "…"), (31, "…")]
    db.export_items("Music", "music.jsonl")                         # DynamoDB JSON lines: lossless
    db.export_items("Music", "plain.jsonl", "json")                 # plain: report.warnings says what changed

An import reads and validates every row first (DynamoDB's own checks:
keys, types, sizes, index keys, by the engine's write path), then applies
the good rows together, so they reach a file database in one storage
transaction. By default one bad row fails the whole import
(``TransferError``: nothing is written); ``continue_on_error=True`` writes
the good rows and reports the bad ones.
Rows repeating a key replace the earlier row, as consecutive PutItems
would. Files ending in ``.gz`` are read and written gzipped.

``progress(stage, done, total)`` is called every ``PROGRESS_EVERY`` rows:
stage "read" counts bytes of the file, "write" counts items (validated
against the table, then written: the last call is (total, total)), and
"commit" comes once, just before the one storage transaction. The report
says how long it took and the write units the same PutItems would cost.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from partiql.engine.capacity import Consumed
from partiql.engine.errors import DynamoDBError
from partiql.engine.keys import key_from_item
from partiql.engine.placement import key_hash
from partiql.engine.partition import MAIN
from partiql.engine.storage import collector_paused

from .transfer_formats import (FORMATS, PROGRESS_EVERY, Context, FileProblem, check_types, is_wire_item,
                               reason)

ERRORS_SHOWN = 10
DEFAULT_EXPORT = "ddb-json"  # lossless, and what DynamoDB's export to S3 writes


@dataclass
class ImportReport:
    """What an import did: rows read, items written, and each bad row's line and reason."""

    table: str
    path: str
    format: str
    rows: int = 0
    imported: int = 0
    replaced: int = 0  # rows whose key an earlier row of the file also had
    errors: list = field(default_factory=list)  # [(line, reason)]
    seconds: float = 0.0      # from the first row read to the commit
    write_units: float = 0.0  # what the same writes cost DynamoDB (PutItem each: table and indexes)

    def __str__(self) -> str:
        text = f"imported {self.imported:,} item{'s' * (self.imported != 1)} into {self.table} from {self.path}"
        if self.seconds:
            text += f" in {self.seconds:,.1f} s ({self.imported / self.seconds:,.0f} items/s)"
        if self.imported:
            text += f"; as PutItems DynamoDB would charge {self.write_units:,.0f} WCU"
        if self.errors:
            text += f"; {len(self.errors)} bad row{'s' * (len(self.errors) != 1)} skipped"
        return text + "".join(f"\n  {line}" for line in describe_errors(self.errors))


@dataclass
class ExportReport:
    """What an export wrote."""

    table: str
    path: str
    format: str
    exported: int = 0
    warnings: list = field(default_factory=list)  # what a plain format could not keep
    read_units: float = 0.0  # what a remote table's Scans consumed (a local export reads no capacity)

    def __str__(self) -> str:
        text = (f"exported {self.exported:,} item{'s' * (self.exported != 1)} of {self.table} to {self.path} "
                f"({self.format})")
        return text + (f"; the Scans consumed {self.read_units:,.1f} RCU" if self.read_units else "")


class TransferError(ValueError):
    """An import failed and wrote nothing; ``report.errors`` lists every bad row."""

    def __init__(self, message: str, report: ImportReport | None = None):
        super().__init__(message)
        self.report = report


def describe_errors(errors: list, shown: int = ERRORS_SHOWN) -> list[str]:
    """``line 7: reason`` for the first ``shown`` errors, and how many more there are."""
    lines = [f"line {line}: {why}" for line, why in errors[:shown]]
    if len(errors) > shown:
        lines.append(f"… and {len(errors) - shown} more")
    return lines


# ------------------------------------------------------------------- formats

def _named(format: str):
    found = FORMATS.get(format)
    if found is None:
        raise ValueError(f"unknown format {format!r}: use one of {', '.join(FORMATS)}")
    return found


def _suffix(path: str) -> str:
    name = path[:-3] if path.endswith(".gz") else path
    return Path(name).suffix.lower()


def _by_suffix(path: str):
    suffix = _suffix(path)
    return next((entry for entry in FORMATS.values() if suffix in entry.suffixes), None)


def import_format(path: str, format: str | None = None):
    """The format to read ``path`` with: as named, by suffix (.csv), or by its first line
    (a JSON-lines suffix cannot tell DynamoDB JSON from plain JSON)."""
    if format is not None:
        return _named(format)
    found = _by_suffix(path)
    return found if found is not None and not found.json_lines else FORMATS[_sniff(path)]


def export_format(path: str, format: str | None = None):
    """The format to write ``path`` with: as named, else by suffix (.csv), else DynamoDB JSON: a
    JSON-lines suffix (.jsonl) gets DynamoDB JSON lines too, which keep every type; plain JSON lines
    only when asked for by name."""
    if format is not None:
        return _named(format)
    found = _by_suffix(path)
    return found if found is not None and not found.json_lines else FORMATS[DEFAULT_EXPORT]


def _sniff(path: str) -> str:
    """'ddb-json' when the first non-blank line is DynamoDB JSON, else 'json'."""
    with _open_read(path) as (stream, _):
        try:
            for line in stream:
                if line.strip():
                    try:
                        return "ddb-json" if is_wire_item(json.loads(line)) else "json"
                    except (ValueError, RecursionError):
                        return "json"  # the reader reports the line
        except CUT_SHORT:
            return "json"  # (the reader reports where)
    return "json"


# -------------------------------------------------------------------- files

CUT_SHORT = (EOFError, gzip.BadGzipFile, zlib.error)  # what reading a damaged or truncated .gz raises


class _open_read:
    """A binary stream of ``path`` (gunzipped for .gz) and a position() for progress."""

    def __init__(self, path: str):
        self.raw = open(path, "rb")
        self.stream = gzip.GzipFile(fileobj=self.raw) if path.endswith(".gz") else self.raw

    def __enter__(self):
        return self.stream, self.raw.tell

    def __exit__(self, *exc_info):
        self.stream.close()
        self.raw.close()


def _write_file(path: str, write) -> None:
    """Write through ``write(text_stream)`` into a temporary file, then rename it over ``path``:
    an export that fails half-way leaves no half file."""
    temporary = f"{path}.partial"
    try:
        raw = gzip.open(temporary, "wb") if path.endswith(".gz") else open(temporary, "wb")
        with raw, io.TextIOWrapper(raw, encoding="utf-8", newline="") as text:
            write(text)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise


# ------------------------------------------------------------------- import

def import_items(engine, table_name: str, path, format: str | None = None, *, continue_on_error: bool = False,
                 types: dict | None = None, progress=None) -> ImportReport:
    """Read ``path`` into ``table_name``; see the module docstring.

    Raises ResourceNotFoundException for a missing table, ValueError for an
    unknown format or bad ``types``, OSError when the file cannot be read,
    and TransferError when rows are bad (without ``continue_on_error``) or
    the file cannot be read as that format at all.
    """
    path = os.fspath(path)
    table = engine.table(table_name)
    chosen, context, report = start_import(path, table_name, table.spec, format, types)
    started = time.perf_counter()
    with collector_paused():
        _import(engine, table, chosen.read, context, report, continue_on_error, progress)
    report.seconds = time.perf_counter() - started
    return report


def start_import(path: str, table_name: str, spec, format: str | None, types: dict | None) -> tuple:
    """(format, reader context, empty report) of an import of ``path`` into a table of ``spec``
    (a local or a remote one); ValueError for an unknown format or ``types`` it cannot take."""
    chosen = import_format(path, format)
    if types and not chosen.typed:
        raise ValueError(f"types do not apply to {chosen.name}: its values carry their types")
    return chosen, Context(spec, check_types(types or {})), ImportReport(table_name, path, chosen.name)


def stage_rows(read, context: Context, report: ImportReport, progress, keyed) -> dict:
    """Every row of ``report.path`` as ``read`` reads it: the good ones as (line, extra, item) by key — a
    later row replaces an earlier one — and the bad ones in ``report.errors``. ``keyed(item)`` gives
    (key, extra), or raises (DynamoDBError, ValueError) for a row the table cannot take."""
    path = report.path
    staged: dict = {}
    line = 0
    with _open_read(path) as (stream, position):
        total = os.path.getsize(path)
        try:
            for line, item, problem in read(stream, context):
                report.rows += 1
                if progress and report.rows % PROGRESS_EVERY == 0:
                    progress("read", position(), total)
                if problem is None:
                    try:
                        key, extra = keyed(item)
                    except (DynamoDBError, ValueError) as error:
                        problem = reason(error)
                if problem is not None:
                    report.errors.append((line, problem))
                    continue
                count = len(staged)
                staged[key] = (line, extra, item)
                report.replaced += len(staged) == count  # (one lookup, not two)
        except FileProblem as problem:
            raise TransferError(f"cannot import {path}: {problem}", report) from None
        except CUT_SHORT as error:  # (a .gz cut short or damaged: the end of what can be read)
            report.rows += 1
            report.errors.append((line + 1, f"the compressed file is cut short or damaged here ({error}); "
                                            "nothing after this line can be read"))
    return staged


def _import(engine, table, read, context: Context, report: ImportReport, continue_on_error: bool,
            progress) -> ImportReport:
    path, table_name = report.path, report.table
    key_schema = table.spec.key

    hashes: dict = {}  # partition key -> its hash, for this import's items

    def keyed(item: dict) -> tuple:
        # why its own memo: an import's items share partition keys (item collections), more of them
        # than the engine's cache of key hashes holds, and they come in any order
        hash_value, range_value = key_from_item(key_schema, item)
        h = hashes.get(hash_value)
        if h is None:
            h = hashes[hash_value] = key_hash(hash_value)
        located = table.locate(hash_value, range_value, h)
        return located, located  # (the hash rides along: one key, no copy)

    staged = stage_rows(read, context, report, progress, keyed)
    with engine.lock:  # why: prepared against the stored items, applied before anyone else writes
        if engine.tables.get(table_name) is not table:
            raise TransferError(f"cannot import {path}: table {table_name} changed during the import", report)
        consumed = Consumed(table_name)  # (every write's units, in one)
        mutations = _prepare(table, staged, report, progress, consumed)
        if report.errors and not continue_on_error:
            raise TransferError(_failure(report), report)
        if progress:
            progress("commit", len(mutations), len(mutations))
        engine.apply(mutations)  # one storage transaction for the whole file
    report.imported = len(mutations)
    report.write_units = consumed.write_units
    if progress:
        progress("write", len(mutations), len(mutations))
    return report


def _prepare(table, staged: dict, report: ImportReport, progress, consumed: Consumed) -> list:
    """The write path's own validation of each item (sizes, nesting, index keys) over what is stored;
    their units added to ``consumed``."""
    mutations, errors = [], []
    total = len(staged)
    # why: an import into an empty table (the usual one) replaces nothing; staged keys are distinct
    lookup = table.lookup if table.item_count else _nothing_stored
    for number, (line, located, item) in enumerate(staged.values(), 1):
        if progress and number % PROGRESS_EVERY == 0:
            progress("write", number, total)
        try:
            mutations.append(table.prepare(located, lookup(located), item, consumed=consumed))
        except DynamoDBError as error:
            errors.append((line, reason(error)))
    if errors:
        report.errors = sorted(report.errors + errors)
    return mutations


def _nothing_stored(located: tuple) -> None:
    return None


def _failure(report: ImportReport) -> str:
    count = len(report.errors)
    lines = "".join(f"\n  {line}" for line in describe_errors(report.errors))
    return (f"cannot import {report.path} into {report.table}: {count} bad row{'s' * (count != 1)}; "
            f"nothing was imported (continue_on_error imports the good rows){lines}")


# ------------------------------------------------------------------- export

def export_items(engine, table_name: str, path, format: str | None = None, *, progress=None) -> ExportReport:
    """Write every item of ``table_name`` (in storage order) to ``path``; see the module docstring.

    The items are those present when the export starts (a snapshot taken
    under the engine lock); the file appears only once it is complete.
    """
    path = os.fspath(path)
    chosen = export_format(path, format)
    with engine.lock:
        table = engine.table(table_name)
        items = [record.item for record in table.store.scan(MAIN)]
    context = Context(table.spec, progress=progress)
    _write_file(path, lambda text: chosen.write(text, items, context))
    report = ExportReport(table_name, path, chosen.name, len(items))
    if chosen.name != DEFAULT_EXPORT:
        report.warnings = _plain_losses(items, chosen.name)
    return report


# The engine's values a plain format writes as something else, and what they become there.
_LOSSY = ((frozenset, "sets (SS, NS, BS)", "lists"), (bytes, "binary values (B)", "base64 strings"))


def _plain_losses(items: list, format: str) -> list:
    """What writing ``items`` as ``format`` loses: how many items hold sets or binary anywhere."""
    counts = dict.fromkeys((kind for kind, _, _ in _LOSSY), 0)
    for item in items:
        found = set()
        stack = list(item.values())
        while stack and len(found) < len(counts):
            value = stack.pop()
            kind = type(value)
            if kind in counts:
                found.add(kind)
            elif kind is dict:
                stack.extend(value.values())
            elif kind is list:
                stack.extend(value)
        for kind in found:
            counts[kind] += 1
    return [f"{count:,} item{'s' * (count != 1)} hold {what}: {format} writes them as {becomes}, which an import "
            f"reads back as {becomes} unless it declares their types (ddb-json keeps them)"
            for kind, what, becomes in _LOSSY if (count := counts[kind])]
