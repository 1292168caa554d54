"""How tables and items are written into a database file, and read back.

* Items are compact wire JSON (``{"pk":{"S":"a"},"n":{"N":"5"}}``): stable,
  readable with any SQLite tool, and what every DynamoDB tool speaks. They
  are read back with a lean decoder that trusts the file (the values were
  validated when they were written), which is what lets a 100,000-item
  database open in well under two seconds.
* A row's key is the partition-key hash, then the canonical bytes of the
  partition key (length-prefixed) and of the sort key: unique per item, and
  in the engine's storage order. The item's size is kept beside it (it is
  what the engine computed when it wrote the item; a format change that
  changes sizes migrates them).
* Table specs are the frozen dataclasses of ``schema`` as tagged JSON;
  fields added later take their defaults when an older file is read.
* Table state is the ``SAVED_ATTRIBUTES`` of a ``Table`` (its id, creation
  time, status, stream label) plus its partition layout; stores, indexes
  and counters are derived and rebuilt from the spec and the items.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import struct
import zlib
from sys import intern
from decimal import Decimal

from ..keys import key_bytes
from ..placement import key_hash
from ..schema import (IndexSpec, KeySchema, OnDemandThroughput, Projection, TableSpec, Throughput, VectorIndexSpec,
                      WarmThroughput)
from ..types import number_text
from ..wire_values import to_wire

# -------------------------------------------------------------- checksums
# why: SQLite checks its pages' structure, not their contents, so a byte
# flipped inside a stored value would be read back as a different value. Each
# row carries a CRC-32 of everything it holds, verified when the file opens.

def item_checksum(key: bytes, size: int, text: str | bytes) -> int:
    """CRC-32 of an item row: its key bytes, its size and its JSON text (or the text's UTF-8 bytes,
    as an open reads them)."""
    data = text.encode("utf-8") if type(text) is str else text
    return zlib.crc32(data, zlib.crc32(size.to_bytes(8, "big"), zlib.crc32(key)))


def table_checksum(name: str, spec: str, state: str) -> int:
    """CRC-32 of a table row: its name, spec and state texts."""
    return zlib.crc32("\x00".join((name, spec, state)).encode("utf-8"))


# ------------------------------------------------------------------ items

_ENCODER = json.JSONEncoder(separators=(",", ":"))


_QUOTED = json.encoder.encode_basestring_ascii  # (the encoder's own: a JSON string, non-ASCII escaped)


def encode_item(item: dict) -> str:
    """Compact wire JSON of an item: ``_ENCODER.encode(item_to_wire(item))``, character for character.

    why by hand for strings and numbers: they are most attributes, and writing their text
    directly skips building a wire dict per attribute (a third of an import's row encoding).
    """
    parts = []
    for name, value in item.items():
        kind = type(value)
        if kind is str:
            parts.append(f'{_QUOTED(name)}:{{"S":{_QUOTED(value)}}}')
        elif kind is Decimal:  # (number text is ASCII digits, sign and point: nothing to escape)
            parts.append(f'{_QUOTED(name)}:{{"N":"{number_text(value)}"}}')
        else:
            parts.append(f"{_QUOTED(name)}:{_ENCODER.encode(to_wire(value))}")
    return "{" + ",".join(parts) + "}"


# Each wire value has exactly one member, so "for tag, value in wire.items()"
# runs once: the flat comprehensions are the fastest decoding found. Attribute
# names are interned: why, a JSON decoder makes a new string of every name of
# every item, a quarter of a small item's memory once a file is open (issue 19:
# 990 -> 785 traced bytes per item, and a faster open for fewer allocations).
def _decode_map(members: dict) -> dict:
    return {intern(name): _DECODE[tag](value) for name, wire in members.items() for tag, value in wire.items()}


def _decode_list(members: list) -> list:
    return [_DECODE[tag](value) for wire in members for tag, value in wire.items()]


_DECODE = {
    "S": str,
    "N": Decimal,  # stored text is canonical, so Decimal(text) is the engine's value exactly
    "B": base64.b64decode,
    "BOOL": bool,
    "NULL": lambda _: None,
    "M": _decode_map,
    "L": _decode_list,
    "SS": frozenset,
    "NS": lambda members: frozenset(map(Decimal, members)),
    "BS": lambda members: frozenset(map(base64.b64decode, members)),
}


# why the scanner itself: json.loads wraps it in two Python calls, half the cost of decoding a small item
# (a stored row is one JSON object written by ``encode_item``: nothing before or after it).
_scan = json.JSONDecoder().scan_once


def decode_item(text: str) -> dict:
    """The engine item of a stored row (no validation: the file holds valid items; text that is not one
    JSON object is a ValueError)."""
    try:
        found, end = _scan(text, 0)
    except StopIteration:
        raise ValueError(f"not a JSON object: {text[:40]!r}") from None
    if end != len(text) or type(found) is not dict:
        raise ValueError(f"not one JSON object: {text[:40]!r}")
    return _decode_map(found)


def row_key(h: int, pk, sort: tuple | None) -> bytes:
    """The bytes identifying an item in its table: hash, pk (length-prefixed), sort key.

    why the hash first: rows then come back in the engine's storage order,
    so reopening appends to each partition instead of inserting at random.
    """
    pk_bytes = key_bytes(pk)
    head = ROW_KEY_HEAD(h, len(pk_bytes)) + pk_bytes
    return head if sort is None else head + key_bytes(sort[0])


ROW_KEY_HEAD = struct.Struct(">QH").pack  # the hash (8 bytes), the pk's length (2): big-endian


def item_row_key(schema: KeySchema, item: dict) -> bytes:
    """The row key an item of a table keyed by ``schema`` is stored under."""
    pk = item[schema.hash_name]
    return row_key(key_hash(pk), pk, None if schema.range_name is None else (item[schema.range_name],))


def _number_key(data: bytes):
    """An N key value read from a row key: an int when integral, else a Decimal.

    why: a key of an opened item is its own object (the item stays its row's text), and an int
    takes a quarter of a Decimal's memory; it equals, hashes and orders as the Decimal would, so
    the partitions find and sort it alike (``keys.key_value`` gives the Decimal back).
    """
    try:
        return int(data)  # (``number_text`` wrote it: digits with an optional sign, or a decimal point)
    except ValueError:
        return Decimal(data.decode("ascii"))


_KEY_VALUE = {"S": lambda data: data.decode("utf-8", "surrogatepass"),
              "N": _number_key,
              "B": bytes}


def row_key_reader(schema: KeySchema):
    """A function from a row key to the key the table's partitions store its item under, ``(hash,
    partition key)`` or ``(hash, partition key, sort key)`` (``partition.stored_key``): ``row_key``'s
    inverse for keys of ``schema``'s types (the hash read back, cheaper than hashing the key again;
    an integral N value comes back as an int, see ``_number_key``). Bytes that are not such a key
    are a ValueError."""
    hash_value = _KEY_VALUE[schema.hash_type]
    if schema.range_name is None:
        def read(key: bytes) -> tuple:
            return int.from_bytes(key[:8], "big"), hash_value(key[10:])
        return read
    range_value = _KEY_VALUE[schema.range_type]

    def read_head(key: bytes) -> tuple:
        end = 10 + int.from_bytes(key[8:10], "big")
        return key[:end], end, int.from_bytes(key[:8], "big"), hash_value(key[10:end])
    # the previous row's head (hash, pk length, pk bytes), its length, hash and partition key; first a
    # well-formed head (hash 0, pk "0"), so that a key beginning with it is read right too
    head, end, h, pk = read_head(bytes(8) + b"\x00\x010")

    def read_ranged(key: bytes) -> tuple:
        # why the previous row's: rows come in key order, so an item collection's rows follow one
        # another, and they share one hash and one partition-key object (memory, on open); and the
        # head is read once per collection (``startswith`` is exact: the head holds the pk's length)
        nonlocal head, end, h, pk
        if not key.startswith(head):
            head, end, h, pk = read_head(key)
        return h, pk, range_value(key[end:])
    return read_ranged


# ------------------------------------------------------------ table specs

_SPEC_CLASSES = {cls.__name__: cls for cls in (TableSpec, IndexSpec, KeySchema, Projection, Throughput,
                                                OnDemandThroughput, WarmThroughput, VectorIndexSpec)}
# why "": the class tag must not collide with an attribute name in a dict such as
# ``attribute_types``, and DynamoDB attribute names are never empty.
_TAG = ""


def _to_json(value):
    if dataclasses.is_dataclass(value):
        out = {_TAG: type(value).__name__}
        out.update((f.name, _to_json(getattr(value, f.name))) for f in dataclasses.fields(value) if f.init)
        return out
    if isinstance(value, (tuple, list)):
        return [_to_json(member) for member in value]
    if isinstance(value, dict):
        return {name: _to_json(member) for name, member in value.items()}
    return value


def _from_json(value):
    if isinstance(value, list):
        return tuple(_from_json(member) for member in value)  # specs hold tuples, never lists
    if not isinstance(value, dict):
        return value
    if _TAG not in value:
        return {name: _from_json(member) for name, member in value.items()}
    cls = _SPEC_CLASSES[value[_TAG]]
    known = {f.name for f in dataclasses.fields(cls) if f.init}
    return cls(**{name: _from_json(member) for name, member in value.items() if name in known})


def encode_spec(spec: TableSpec) -> str:
    return json.dumps(_to_json(spec), separators=(",", ":"))


def decode_spec(text: str) -> TableSpec:
    return _from_json(json.loads(text))


# ------------------------------------------------------------ table state

# The Table attributes a file keeps: what the spec and the items cannot rebuild.
# why a list and not every attribute: tables also cache values derived from
# their spec; restoring those from an old state would contradict the spec.
# An attribute the engine adds that a reopen must keep belongs here.
SAVED_ATTRIBUTES = ("table_id", "created_at", "status", "stream_label")


def layout(table) -> dict:
    """Where each of a table's stores starts its partitions (they may have split)."""
    return {"table": table.store.starts(),
            "gsi": {name: store.starts() for name, store in table.gsi_stores.items()}}


def encode_state(table) -> str:
    """The table's saved attributes (id, creation time, status, stream label) and its layout."""
    state = {name: getattr(table, name) for name in SAVED_ATTRIBUTES if hasattr(table, name)}
    state["layout"] = layout(table)
    return json.dumps(state, separators=(",", ":"))


def decode_state(text: str) -> tuple[dict, dict]:
    """(saved attributes, layout) of a saved table state."""
    state = json.loads(text)
    layout_ = state.pop("layout", {"table": None, "gsi": {}})
    return {name: value for name, value in state.items() if name in SAVED_ATTRIBUTES}, layout_
