"""File formats for import and export: one registry feeds dispatch, detection and help.

=========  ================================================================
ddb-json   DynamoDB JSON lines, as DynamoDB's export to S3 writes them:
           ``{"Item": {"pk": {"S": "a"}, "n": {"N": "5"}}}``; lossless. A
           bare item (``{"pk": {"S": "a"}}``) per line is read too.
json       plain JSON lines: ``{"pk": "a", "n": 5}``. Strings, numbers,
           booleans, null, lists and maps; binary is written as base64 and
           sets as lists (declare ``types`` to read them back as B / SS…).
csv        a header row of attribute names, then one item per row. An empty
           cell means "no attribute". Key attributes take the table's types;
           other cells are numbers when they read as plain numbers
           (``12``, ``-1.5``, ``2e3``; not ``007``) and strings otherwise, or
           take the type ``types`` declares (S, N, B, BOOL, NULL, L, M, SS,
           NS, BS; L, M and sets as JSON text). Exports write booleans as
           ``true``/``false``, null as ``null``, binary as base64 and lists,
           maps and sets as JSON.
=========  ================================================================

A reader yields ``(line, item, None)`` or ``(line, None, reason)`` per row,
so one bad row never stops the file and always has its line number; it
raises ``FileProblem`` when no row can be read at all.
"""

from __future__ import annotations

import base64
import collections
import csv
import json
import re
from dataclasses import dataclass, field
from decimal import Decimal
from sys import intern
from typing import Callable, Iterator

from partiql.engine.errors import DynamoDBError
from partiql.engine.schema import TableSpec, all_key_names
from partiql.engine.types import ALL_TYPES, NESTING, checked_number, int_number, number_text, parse_number
from partiql.engine.wire_values import from_wire, item_from_wire, item_to_wire


PROGRESS_EVERY = 1000  # rows between two progress reports


@dataclass(frozen=True)
class Context:
    """What a reader or writer knows: the table's spec, the declared types, the progress hook."""

    spec: TableSpec
    types: dict = field(default_factory=dict)
    progress: Callable | None = None  # progress("write", done, total)

    def each(self, items: list):
        """``items`` one by one, reporting progress every PROGRESS_EVERY of them."""
        if self.progress is None:
            yield from items
            return
        total = len(items)
        for number, item in enumerate(items, 1):
            if number % PROGRESS_EVERY == 0:
                self.progress("write", number, total)
            yield item


@dataclass(frozen=True)
class Format:
    """A file format: how to read rows and write items, and the file suffixes it owns."""

    name: str
    summary: str
    read: Callable[[object, Context], Iterator[tuple]]  # (binary stream, context) -> rows
    write: Callable[[object, list, Context], None]  # (text stream, items, context)
    suffixes: tuple = ()
    typed: bool = True  # whether ``types`` means anything to it
    json_lines: bool = False  # one JSON object a line: told apart from its kin by the first line


FORMATS: dict[str, Format] = {}


class FileProblem(ValueError):
    """The file as a whole cannot be read (a CSV header naming no columns, say): no row can be."""


def register(entry: Format) -> Format:
    FORMATS[entry.name] = entry
    return entry


def reason(error: Exception) -> str:
    """The text of a row's problem (DynamoDB's message for DynamoDB errors)."""
    return error.message if isinstance(error, DynamoDBError) else str(error)


# ------------------------------------------------------------ plain values

def from_plain(value):
    """A plain JSON value (numbers parsed as Decimal, or integers as int) as an engine value."""
    kind = type(value)
    if kind is int:  # (not a bool: its type is bool)
        return int_number(value)
    if kind is Decimal:
        return checked_number(value)
    if isinstance(value, list):
        return [from_plain(member) for member in value]
    if isinstance(value, dict):
        return {name: from_plain(member) for name, member in value.items()}
    return value  # str, bool, None


def _plain_text(value) -> str:
    """Exact JSON text of an engine value: numbers keep every digit, bytes become base64,
    sets become sorted lists."""
    kind = type(value)
    if kind is Decimal:
        return number_text(value)
    if kind is dict:
        return "{" + ",".join(f"{json.dumps(name)}:{_plain_text(member)}" for name, member in value.items()) + "}"
    if kind is list or kind is frozenset:
        members = sorted(value) if kind is frozenset else value
        return "[" + ",".join(_plain_text(member) for member in members) + "]"
    if kind is bytes:
        return json.dumps(base64.b64encode(value).decode("ascii"))
    return json.dumps(value)  # str, bool, None


def _no_constant(name: str):
    """why: Python's JSON reads NaN, Infinity and -Infinity, which are not JSON, as floats; DynamoDB
    stores no such number. A line holding one is that line's problem."""
    raise ValueError(f"{name} is not a JSON number (DynamoDB stores finite numbers only)")


# why one decoder: json.loads with parse_float builds a new JSONDecoder for every line
_PLAIN_DECODER = json.JSONDecoder(parse_float=Decimal, parse_int=Decimal, parse_constant=_no_constant)
_PLAIN_JSON, _PLAIN_SCAN = _PLAIN_DECODER.decode, _PLAIN_DECODER.scan_once
# why integers as int where ``from_plain`` converts every value: the scanner parses an int itself
# and calls Decimal for nothing else, a tenth of a plain JSON import's reading
_INT_SCAN = json.JSONDecoder(parse_float=Decimal, parse_constant=_no_constant).scan_once


# why a line's scanner first: a decoder's ``decode`` (and ``json.loads``) wraps it in two Python calls
# and two regex matches, a tenth of an import's time; a line it does not read whole (leading blanks, bad
# JSON, more after the value, an integer past int's digit limit) goes through the decoder, for its errors
_UNREAD = object()


def _scanned(text: str, scan):
    """The value ``scan`` reads from the whole of ``text`` (JSON's blanks may follow it), or ``_UNREAD``."""
    try:
        value, end = scan(text, 0)
    except (StopIteration, ValueError):
        return _UNREAD
    if end != len(text) and text[end:].strip(" \t\n\r"):
        return _UNREAD
    return value


def _load_json(text, scan=_PLAIN_SCAN):
    """The value of a line of JSON text (integers as Decimal; as int with ``scan=_INT_SCAN``)."""
    if type(text) is not str:
        text = text.decode("utf-8")
    value = _scanned(text, scan)
    return _PLAIN_JSON(text) if value is _UNREAD else value


_WIRE_SCAN = json.JSONDecoder(parse_constant=_no_constant).scan_once


def _load_wire_json(data):
    """``json.loads(data)`` of a line of DynamoDB JSON, through its scanner when the line is UTF-8 (the
    rest — a byte-order mark, UTF-16, an encoded surrogate — as ``json.loads`` reads bytes)."""
    try:
        text = data if type(data) is str else data.decode("utf-8")
    except UnicodeDecodeError:
        return json.loads(data, parse_constant=_no_constant)
    value = _scanned(text, _WIRE_SCAN)
    return json.loads(data, parse_constant=_no_constant) if value is _UNREAD else value


# ----------------------------------------------------------- declared types

def _number_member(value) -> str:
    return number_text(value) if isinstance(value, Decimal) else value


def _declared_wire(kind: str, value):
    """Through DynamoDB's own wire conversion, so messages are DynamoDB's."""
    if kind == "N":
        value = _number_member(value)
    elif kind == "NS" and isinstance(value, list):
        value = [_number_member(member) for member in value]
    return from_wire({kind: value})


def _declared_container(kind: str, value):
    expected = list if kind == "L" else dict
    if not isinstance(value, expected):
        raise ValueError(f"expected a JSON {'array' if kind == 'L' else 'object'} for type {kind}")
    return from_plain(value)


def _declared_bool(value) -> bool:
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, found {value!r}")
    return value


def _declared_null(value) -> None:
    if value is not None and not (isinstance(value, str) and value.strip().lower() == "null"):
        raise ValueError(f"expected null, found {value!r}")
    return None


_JSON_TEXT_TYPES = ("L", "M", "SS", "NS", "BS")
_DECLARED = {
    "S": lambda value: value if isinstance(value, str) else _plain_text(from_plain(value)),
    "N": lambda value: _declared_wire("N", value),
    "B": lambda value: _declared_wire("B", value),
    "BOOL": _declared_bool,
    "NULL": _declared_null,
    "L": lambda value: _declared_container("L", value),
    "M": lambda value: _declared_container("M", value),
    "SS": lambda value: _declared_wire("SS", value),
    "NS": lambda value: _declared_wire("NS", value),
    "BS": lambda value: _declared_wire("BS", value),
}


def check_types(types: dict) -> dict:
    """Validate a ``types`` mapping (attribute name -> DynamoDB type) once, up front."""
    unknown = {name: kind for name, kind in types.items() if kind not in _DECLARED}
    if unknown:
        raise ValueError(f"unknown types {unknown}: use one of {', '.join(ALL_TYPES)}")
    return dict(types)


def declared(kind: str, value, from_text: bool):
    """``value`` converted to the declared type ``kind`` (a CSV cell holds L, M and sets as JSON)."""
    if from_text and kind in _JSON_TEXT_TYPES:
        try:
            value = _load_json(value)
        except ValueError as error:
            raise ValueError(f"expected JSON text for type {kind}: {error}") from None
        except RecursionError:
            raise ValueError(f"expected JSON text for type {kind}: {NESTING}") from None
    return _DECLARED[kind](value)


# --------------------------------------------------------------- ddb-json

_WIRE_TAGS = frozenset(ALL_TYPES)
_BOM = "\ufeff".encode("utf-8")


def _json_items(stream, loads, convert) -> Iterator[tuple]:
    """The rows of a JSON-lines file: each non-blank line an object that ``convert`` makes an item. A
    UTF-8 byte-order mark that begins the file is not part of its first line (as a CSV file's is not)."""
    for line, text in enumerate(stream, 1):
        if line == 1 and text.startswith(_BOM):
            text = text[len(_BOM):]
        if not text.strip():
            continue
        try:
            value = loads(text)
        except json.JSONDecodeError as error:
            yield line, None, f"not valid JSON: {error.msg} at column {error.colno}"
            continue
        except ValueError as error:  # bad UTF-8
            yield line, None, f"not valid JSON: {error}"
            continue
        except RecursionError:  # (nested past Python's stack: far past DynamoDB's 32 levels)
            yield line, None, NESTING
            continue
        if not isinstance(value, dict):
            yield line, None, f"expected a JSON object, found {type(value).__name__}"
            continue
        try:
            yield line, convert(value), None
        except (DynamoDBError, ValueError) as error:
            yield line, None, reason(error)
        except RecursionError:
            yield line, None, NESTING


def is_wire_item(value) -> bool:
    """Whether a parsed line is DynamoDB JSON: ``{"Item": {...}}`` or attribute -> {"S": ...}."""
    if isinstance(value, dict) and _wrapped(value) and isinstance(value["Item"], dict):
        return True
    return isinstance(value, dict) and bool(value) and all(
        isinstance(member, dict) and len(member) == 1 and next(iter(member)) in _WIRE_TAGS
        for member in value.values())


def _wrapped(line: dict) -> bool:
    """Whether a line of DynamoDB JSON is an export's ``{"Item": …}`` (else a bare item)."""
    return len(line) == 1 and "Item" in line


def _read_ddb_json(stream, context: Context):
    # json.loads's reading (``_load_wire_json``): DynamoDB JSON carries numbers as strings, and a bare
    # number where one belongs gets DynamoDB's own complaint from from_wire.
    return _json_items(stream, _load_wire_json, lambda line: item_from_wire(line["Item"] if _wrapped(line) else line))


def _write_ddb_json(stream, items, context: Context) -> None:
    encode = json.JSONEncoder(separators=(",", ":")).encode
    for item in context.each(items):
        stream.write(encode({"Item": item_to_wire(item)}) + "\n")


# ------------------------------------------------------------------ json

def _read_json(stream, context: Context):
    types = context.types
    # (names interned: one string per attribute name, not one per item — see storage/codec.py)
    if types:  # (declared types take numbers as Decimal, as from a CSV cell's JSON)
        return _json_items(stream, _load_json, lambda value: {
            intern(name): declared(types[name], member, False) if name in types else from_plain(member)
            for name, member in value.items()})
    return _json_items(stream, _load_int_json, lambda value: {
        intern(name): member if type(member) is str else from_plain(member) for name, member in value.items()})


def _load_int_json(text):
    return _load_json(text, _INT_SCAN)


def _write_json(stream, items, context: Context) -> None:
    for item in context.each(items):
        stream.write(_plain_text(item) + "\n")


# ------------------------------------------------------------------- csv

# Plain numbers only: no sign but '-', no leading zeros (keeps "007", "+1" strings).
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?\Z")


def _inferred(text: str):
    if _NUMBER.match(text):
        try:
            return parse_number(text)
        except DynamoDBError:
            pass  # beyond DynamoDB's range or precision: keep the text
    return text


def _cell_converter(name: str, context: Context) -> Callable:
    kind = context.types.get(name) or context.spec.attribute_types.get(name)
    if kind is None:
        return _inferred
    return lambda text: declared(kind, text, True)


def _read_csv(stream, context: Context):
    records = _csv_records(stream)
    for line, cells, problem in records:
        if problem is not None:
            raise FileProblem(f"line {line}: unreadable header: {problem}")
        problem = _header_problem(cells, context)
        if problem:
            raise FileProblem(f"line {line}: {problem}")
        converters = [(name, _cell_converter(name, context)) for name in cells]
        break
    else:
        return
    for line, cells, problem in records:
        if problem is not None:
            yield line, None, problem
        elif cells:
            yield (line, *_csv_item(cells, converters))


QUOTED_AT_MOST = 1 << 20  # characters of one record: no item's CSV row is larger (400 KB, as base64 or JSON)


def _csv_records(stream):
    """``(line, cells, None)`` per CSV record of the binary ``stream``, or ``(line, None, problem)``: each
    line is decoded alone, so a byte that is not UTF-8 is its own line's problem; a quote that does not
    close within ``QUOTED_AT_MOST`` characters, or by the end of the file, or that closes into a record
    of another width than the one before, is its opening line's problem, and the lines after it are
    read again as records of their own (an unbalanced quote never swallows the rows after it)."""
    lines = _numbered_lines(stream)
    pending: list = []  # lines read ahead and given back: (number, text or a problem)
    width = None
    while True:
        first = pending.pop() if pending else next(lines, None)
        if first is None:
            return
        number, text = first
        if isinstance(text, UnicodeDecodeError):
            yield number, None, f"not UTF-8 text (byte {text.start + 1} of the line: {text.reason})"
            continue
        if text.count('"') % 2 == 0:  # (the usual record: one line)
            cells = _cells(text)
            width = len(cells) or width
            yield number, cells, None
            continue
        taken, size, quotes, closed = [first], len(text), text.count('"'), False
        while size <= QUOTED_AT_MOST:
            following = pending.pop() if pending else next(lines, None)
            if following is None:
                break
            taken.append(following)
            if isinstance(following[1], UnicodeDecodeError):
                break
            size += len(following[1])
            quotes += following[1].count('"')
            if quotes % 2 == 0:
                closed = True
                break
        cells = _cells("".join(part for _, part in taken), strict=True) if closed else None
        if cells is not None and (width is None or len(cells) == width):
            width = len(cells)
            yield number, cells, None
            continue
        pending.extend(reversed(taken[1:]))  # (read again, each a record of its own)
        found = ("is not closed" if not closed else "closes where no field ends" if cells is None else
                 f"closes into a row of {len(cells)} fields where {width} were expected")
        yield number, None, f"a quoted field opened on this line {found}; the lines after it are read again"


def _numbered_lines(stream):
    """(line number, text) of each line of a binary stream, a UTF-8 byte-order mark that begins it dropped;
    the UnicodeDecodeError in place of the text of a line that is not UTF-8."""
    for number, raw in enumerate(stream, 1):
        if number == 1 and raw.startswith(_BOM):
            raw = raw[len(_BOM):]
        try:
            yield number, raw.decode("utf-8")
        except UnicodeDecodeError as error:
            yield number, error


def _cells(text: str, strict: bool = False) -> list | None:
    """The cells of one CSV record (its quoted fields may hold line breaks). A record the strict reader
    refuses (text after a closing quote): None with ``strict``, else as the lenient reader reads it (one
    line: a stray quote in an unquoted field is its text)."""
    if '"' not in text:  # why: a plain row splits as the csv module would, at a tenth of the cost
        text = text.rstrip("\r\n")
        return text.split(",") if text else []
    try:
        return next(csv.reader((text,), strict=True), [])
    except csv.Error:
        return None if strict else next(csv.reader((text,)), [])


def _csv_item(cells: list, converters: list) -> tuple:
    if len(cells) != len(converters):
        return None, f"expected {len(converters)} fields, found {len(cells)}"
    item = {}
    for (name, convert), cell in zip(converters, cells):
        if cell == "":
            continue
        try:
            item[name] = convert(cell)
        except (DynamoDBError, ValueError) as error:
            return None, f"{name}: {reason(error)}"
    return item, None


def _header_problem(header: list, context: Context) -> str | None:
    """What keeps a header from naming the columns (linear in its width: a file may have 200,000)."""
    if any(not name for name in header):
        return "the header has an empty column name"
    counts = collections.Counter(header)
    repeated = sorted(name for name, count in counts.items() if count > 1)
    if repeated:
        return f"the header repeats {', '.join(repeated)}"
    missing = [name for name in context.types if name not in counts]
    if missing:
        return f"types names columns the header lacks: {', '.join(missing)}"
    return None


def _columns(items: list, spec: TableSpec) -> list:
    """Key attributes first (table, then indexes), then every other name in order of appearance."""
    keys = list(spec.key.names) + sorted(all_key_names(spec) - set(spec.key.names))
    seen = dict.fromkeys(keys)
    for item in items:
        seen.update(dict.fromkeys(item))
    return list(seen)


def _cell(value) -> str:
    kind = type(value)
    if kind is str:
        return value
    if kind is bytes:
        return base64.b64encode(value).decode("ascii")
    return _plain_text(value)


def _write_csv(stream, items, context: Context) -> None:
    columns = _columns(items, context.spec)
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(columns)
    for item in context.each(items):
        writer.writerow([_cell(item[name]) if name in item else "" for name in columns])


register(Format("ddb-json", "DynamoDB JSON lines ({\"Item\": {\"pk\": {\"S\": \"a\"}}}), lossless",
                _read_ddb_json, _write_ddb_json, typed=False, json_lines=True))
register(Format("json", "plain JSON lines ({\"pk\": \"a\", \"n\": 5})", _read_json, _write_json,
                suffixes=(".jsonl", ".ndjson"), json_lines=True))
register(Format("csv", "CSV with a header row of attribute names", _read_csv, _write_csv,
                suffixes=(".csv",)))
