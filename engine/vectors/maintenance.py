"""A table's vector indexes at run time: built from its items on first use (a new index backfills, a reopened
file rebuilds), then kept by its writes — the table's one write path asks ``prepare`` (the write's values
checked, §4.2; what each index's entry becomes and what that costs, §6.3) and tells ``commit``."""

from __future__ import annotations

from ..partition import MAIN
from ..types import item_size, utf8_len
from .index import VectorIndex
from .meter import SEARCH, WRITE, VectorMeter
from .values import check_item


class TableVectors:
    """The vector indexes of one table (``table.spec.vectors``)."""

    def __init__(self, table):
        self.table = table
        self.built: dict = {}  # name -> VectorIndex, for the indexes built so far
        self._delta = None     # (the spec it was counted for, Σ billed − stored sizes of the items) or None
        self.meter = VectorMeter()
        self.clock, self.throughput = (lambda: 0.0), None  # the engine's (``attach``)

    def attach(self, clock, throughput) -> None:
        """The engine's clock and throughput model: what the meter counts on and warns through."""
        self.clock, self.throughput = clock, throughput

    def count(self, name: str, hash_value, direction: int, size: float) -> None:
        """Meter ``size`` bytes of ``direction`` on index ``name``; a second past a per-HASH-value limit is a
        report-mode warning (vector-search.md §7)."""
        warning = self.meter.count(name, hash_value, direction, size, self.clock())
        if warning is not None and self.throughput is not None and self.throughput.mode != "off":
            self.throughput.warn(f"{self.table.name}: {warning}")

    def searched(self, name: str, hash_value, size: float) -> None:
        self.count(name, hash_value, SEARCH, size)

    def metrics(self, name: str, last: int) -> list:
        """[second, search bytes, write bytes] of index ``name`` over the last ``last`` seconds (§6.5)."""
        if self.table.spec.vector(name) is None:
            raise ValueError(f"{self.table.name} has no vector index {name}")
        return self.meter.last(name, last, self.clock())

    def index(self, name: str) -> VectorIndex:
        """The index ``name`` of the table's spec, built from the table's items if it is not yet."""
        spec = self.table.spec.vector(name)
        found = self.built.get(name)
        if found is None or found.spec is not spec:
            found = self.built[name] = VectorIndex(spec, self.table.spec.key)
            for record in self.table.store.scan(MAIN):
                found.apply(None, found.entry_of(_key(record.key), record.item))
        return found

    def stats(self, name: str) -> tuple:
        """(entries, bytes) of the index ``name`` (exact: model, as for GSIs)."""
        found = self.index(name)
        return found.count, found.bytes

    def billed(self, record) -> int:
        """The size a write is billed for ``record`` (0: none): each attribute a vector index reads counted as
        its name and 4 bytes a dimension, whatever numbers it holds (§4.4 rule 1)."""
        if record is None:
            return 0
        size, item = record.size, record.item
        for attribute, dimensions in {index.attribute: index.dimensions for index in self.table.spec.vectors}.items():
            if attribute in item:
                size += utf8_len(attribute) + 4 * dimensions - item_size({attribute: item[attribute]})
        return size

    def billing_delta(self) -> int:
        """How much the items' billed sizes exceed their stored ones (a vector at 4 bytes a dimension instead of
        its numbers: usually less), counted from the items once per spec, then kept by ``commit``."""
        spec = self.table.spec
        if self._delta is None or self._delta[0] is not spec:
            total = sum(self._excess(record) for record in self.table.store.scan(MAIN))
            self._delta = (spec, total)
        return self._delta[1]

    def _excess(self, record) -> int:
        return 0 if record is None else self.billed(record) - record.size

    def prepare(self, mutation, consumed, update=None) -> None:
        """Check the write's vector and SearchSchema values (``update``: the UpdateExpression that made it); note
        each index's change and charge it."""
        new = mutation.new
        if new is not None:
            check_item(self.table.spec.vectors, new.item, update is not None)
        key = (mutation.pk,) + (mutation.sort or ())
        changes = []
        old = mutation.old.item if mutation.old is not None else None
        for spec in self.table.spec.vectors:
            built = self.built.get(spec.name)
            index = built if built is not None and built.spec is spec else VectorIndex(spec, self.table.spec.key)
            # (a built index holds the old item's entry: made once, when that item was written)
            before = index.held_entry(key, old) if index is built else index.entry_of(key, old)
            after = index.entry_of(key, new.item if new is not None else None)
            charged = index.charge(before, after)
            if charged and consumed is not None:
                consumed.vector_write(spec.name, charged)
            if before is not None or after is not None:
                changes.append((spec.name, before, after, charged, index.hash_of(after or before)))
        mutation.vector_changes = changes

    def commit(self, mutation) -> None:
        """Apply a committed write's changes to the indexes built so far (the others build from the items), and
        its items' billed sizes to the table's."""
        if self._delta is not None and self._delta[0] is self.table.spec:
            self._delta = (self._delta[0], self._delta[1] + self._excess(mutation.new) - self._excess(mutation.old))
        for name, before, after, charged, hash_value in mutation.vector_changes:
            found = self.built.get(name)
            if found is not None and found.spec is self.table.spec.vector(name):
                found.apply(before, after)
            if charged and not mutation.service:  # (a TTL deletion is no request: nothing metered)
                self.count(name, hash_value, WRITE, charged)


def _key(stored_key: tuple) -> tuple:
    """The table key of a stored record's key ``(hash, pk, *sort)``."""
    return stored_key[1:]
