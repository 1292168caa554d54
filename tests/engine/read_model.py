"""A reference model of DynamoDB's reads: plain Python over a list of items, written from the specs alone.

It knows nothing of the engine: where DynamoDB places a key (the first 64 bits of MD5(b"Outliers" + the key's
bytes), recorded-2026-11 A11; an N key's bytes are its base-100 form, ``placement.number_bytes``, whose
order-preserving property tests/engine/test_placement.py checks), how a table or an index orders its entries
(hash, then partition key, then sort key: S by UTF-8 bytes, N by value, B by bytes; a GSI's equal index keys
by the table's key, an order DynamoDB leaves unspecified and we fix), which items an index holds (sparse:
those with every index key attribute) and what it projects, how a page stops (``Limit`` entries read, or
1 MB read, the entry that reaches it included: item-api §5.11), what a page costs (partiql-dynamodb §6.2:
R(Σ sizes read), halved when eventually consistent; a point read R(size), a missing item 1 byte), and
which parallel-Scan segment holds a key (the digest's first 12 bits in [ceil(4096·s/t), ceil(4096·(s+1)/t))).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from hashlib import md5

from partiql.engine.placement import number_bytes
from partiql.engine.types import item_size

PAGE_BYTES = 1024 * 1024


def digest(value) -> int:
    """The first 64 bits of DynamoDB's key digest."""
    data = value.encode("utf-8") if type(value) is str else number_bytes(value) if type(value) is Decimal else value
    return int.from_bytes(md5(b"Outliers" + data).digest()[:8], "big")


def tuple_digest(values: tuple) -> int:
    """The hash of a multi-attribute index's HASH tuple (multi-attribute-keys.md §5 rule 2): the digest of each
    value's type tag, its bytes' length (4 bytes, big-endian) and its bytes, in KeySchema order."""
    data = b""
    for value in values:
        raw = value.encode("utf-8") if type(value) is str else number_bytes(value) if type(value) is Decimal else value
        data += {str: b"S", Decimal: b"N", bytes: b"B"}[type(value)] + len(raw).to_bytes(4, "big") + raw
    return int.from_bytes(md5(b"Outliers" + data).digest()[:8], "big")


def order(value):
    """A value as DynamoDB orders it: S by UTF-8 bytes, N by value, B by bytes."""
    return value.encode("utf-8") if type(value) is str else value


def read_units(size: int, consistent: bool) -> float:
    units = max(1, math.ceil(size / 4096))
    return units if consistent else units / 2


@dataclass(frozen=True)
class Source:
    """A table or one of its indexes: its key, what it projects (None: everything), the table's key."""

    name: str | None  # the index name; None for the table
    kind: str  # "table", "GSI" or "LSI"
    hash_name: str
    range_name: str | None
    projects: frozenset | None
    table_key: tuple  # (hash name, range name)
    more_hash: tuple = ()  # a multi-attribute GSI's other HASH attributes, then its other RANGE attributes
    more_range: tuple = ()

    @property
    def key_names(self) -> tuple:
        ranges = () if self.range_name is None else (self.range_name, *self.more_range)
        return (self.hash_name, *self.more_hash, *ranges)

    def holds(self, item: dict) -> bool:
        return all(name in item for name in self.key_names)

    def entry(self, item: dict) -> dict:
        if self.projects is None:
            return dict(item)
        names = self.projects | {*self.key_names, *self.table_key}
        return {name: value for name, value in item.items() if name in names}

    def position(self, entry: dict) -> tuple:
        """Where the source keeps an entry: hash, partition key(s), sort key(s), then the table's key."""
        hashes = [entry[name] for name in (self.hash_name, *self.more_hash)]
        place = (tuple_digest(tuple(hashes)) if self.more_hash else digest(hashes[0]), *map(order, hashes))
        if self.range_name is not None:
            place += tuple(order(entry[name]) for name in (self.range_name, *self.more_range))
        if self.kind != "table":
            place += tuple(order(entry[name]) for name in self.table_key
                           if name is not None and name not in self.key_names)
        return place

    def hash_of(self, entry: dict) -> int:
        """The key hash that places an entry (its parallel-Scan segment follows it)."""
        return self.position(entry)[0]

    def key_of(self, entry: dict) -> dict:
        """A LastEvaluatedKey: the table's key attributes, and the index's."""
        return {name: entry[name] for name in {*self.table_key, *self.key_names} if name is not None}

    def entries(self, items: list) -> list:
        """Every entry, in the source's order."""
        return sorted((self.entry(item) for item in items if self.holds(item)), key=self.position)


def segment_of(entry_hash: int, total: int) -> int:
    bucket = entry_hash >> 52
    return next(s for s in range(total) if -(-4096 * s // total) <= bucket < -(-4096 * (s + 1) // total))


@dataclass
class Page:
    read: list  # the entries read, in order
    last_key: dict | None


def pages(source: Source, entries: list, limit: int | None) -> list:
    """The pages a read of ``entries`` (in read order) comes in, to the end."""
    out, position = [], 0
    while True:
        read, size = [], 0
        for entry in entries[position:]:
            read.append(entry)
            size += item_size(entry)
            if (limit is not None and len(read) == limit) or size >= PAGE_BYTES:
                break
        stopped = bool(read) and ((limit is not None and len(read) == limit) or size >= PAGE_BYTES)
        out.append(Page(read, source.key_of(read[-1]) if stopped else None))
        position += len(read)
        if not stopped:
            return out


def page_units(page: Page, consistent: bool) -> float:
    return read_units(sum(item_size(entry) for entry in page.read), consistent)


@dataclass
class StatementPage:
    read: list  # the entries read, in order
    evaluated: int  # what ScannedCount counts: entries read, and one for each point read
    units: float
    token: bool  # whether a NextToken continues it


def statement_pages(reads: list, limit: int | None, point: bool, consistent: bool) -> list:
    """The pages of a PartiQL SELECT made of ``reads`` (one list of entries per sub-read, in order: one for a
    Query or a Scan, one per value for IN), to the end (partiql-dynamodb §2.7): a page ends when ``Limit``
    entries were evaluated or 1 MB read, across sub-reads; a sub-read cut short resumes where it stopped, one
    that finished with the page resumes at the next; each sub-read run is charged on its own (§6.2: a point
    read R(item size, a missing item 1 byte), a Query or Scan R(Σ entries read))."""
    out, position, skip = [], 0, 0
    while True:
        page, evaluated, units, used, left, resume = [], 0, 0.0, 0, limit, None
        for number in range(position, len(reads)):
            start = skip if number == position else 0
            taken, size, stopped = [], 0, False
            for entry in reads[number][start:]:
                taken.append(entry)
                size += item_size(entry)
                if not point and ((left is not None and len(taken) == left) or used + size >= PAGE_BYTES):
                    stopped = True
                    break
            units += read_units(size if taken or not point else 1, consistent)
            counted = 1 if point else len(taken)
            page += taken
            evaluated += counted
            used += size
            if left is not None:
                left -= counted
            if stopped:
                resume = (number, start + len(taken))
                break
            if number + 1 < len(reads) and ((left is not None and left <= 0) or used >= PAGE_BYTES):
                resume = (number + 1, 0)
                break
        out.append(StatementPage(page, evaluated, units, resume is not None))
        if resume is None:
            return out
        position, skip = resume
