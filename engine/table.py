"""A table: its partitions, its indexes, the one write path and the reads.

Every write, from any API, goes through ``prepare`` then ``commit``:
``prepare`` validates the new image (keys, index keys, size), works out the
index changes and the capacity, and touches nothing; ``commit`` applies a
prepared ``Mutation``. A transaction prepares all its mutations before it
commits any, so a failure leaves no trace.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass

from . import limits
from .capacity import Consumed, index_write_units, read_units, write_units
from .errors import ItemCollectionSizeLimitExceededException, ValidationException
from .expressions.update import assigned_values
from .keys import check_key_sizes, key_dict, key_value
from .placement import key_hash
from .partition import MAIN, Record, Store
from .schema import IndexSpec, KeySchema, TableSpec
from .types import NESTING, item_size, nesting_problem, type_of, values_equal
from .vectors.maintenance import TableVectors

ITEM_TOO_LARGE = "Item size has exceeded the maximum allowed size"
BULK_PUTS = 1_000  # the engine commits a run of writes this long to one table with ``commit_all`` (an import)
_CONTAINERS = (dict, list)
UPDATE_TOO_LARGE = "Item size to update has exceeded the maximum allowed size"
# An index key an UpdateExpression computed (item-api §3.10, §2.6); one the request
# gave as a value keeps PutItem's "Type mismatch for Index Key" wording.
UPDATE_INDEX_KEY_TYPE = "The update expression attempted to update the secondary index key to unsupported type"
UPDATE_INDEX_KEY_EMPTY = ("One or more parameter values are not valid. The update expression attempted to update a "
                          "secondary index key to a value that is not supported. The AttributeValue for a key "
                          "attribute cannot contain an empty {} value.")


@dataclass(slots=True)
class IndexChange:
    """What one write does to one index: the entry removed and the entry added."""

    index: IndexSpec
    old: tuple | None  # (h, pk, sort, Record)
    new: tuple | None
    units: float = 0.0  # the write units it costs the index


@dataclass(slots=True)
class Mutation:
    """A validated, not yet applied write of one item."""

    table: "Table"
    h: int
    pk: object
    sort: tuple | None
    old: Record | None
    new: Record | None  # None deletes the item
    changes: list | tuple = ()  # IndexChanges, one per index of the table
    vector_changes: list | tuple = ()  # (vector index, entry before, after, bytes charged, HASH value) (vectors)
    consumed: Consumed | None = None
    # A deletion DynamoDB makes itself (TTL expiry): charged no capacity, and
    # its stream record carries the service's userIdentity.
    service: bool = False

    @property
    def key(self) -> dict:
        return self.table.key_of(self.pk, self.sort)


@dataclass(slots=True)
class Page:
    """One page of a Query or Scan."""

    records: list  # matching entries as ``emit`` made them (snapshot Records by default)
    scanned: int
    last_key: dict | None
    consumed: Consumed
    evaluated_bytes: int = 0


def _sort_of(schema: KeySchema, item: dict):
    return None if schema.range_name is None else (item[schema.range_name],)


class Table:
    """One table's storage: partitions, LSI spaces, GSI stores, counters."""

    def __init__(self, spec: TableSpec, limits_: limits.Limits, created_at: float | None = None,
                 table_id: str | None = None):
        self.set_spec(spec)
        self.limits = limits_
        self.created_at = time.time() if created_at is None else created_at
        self.table_id = table_id or str(uuid.uuid4())
        self.status = "ACTIVE"
        self.stream_label: str | None = None
        self.stream = None  # its enabled stream (engine.streams.Stream), set by Streams.sync
        grouped = {MAIN: spec.key.range_name is not None}
        grouped.update({index.name: True for index in spec.lsis})
        self.store = Store(spec.initial_partitions(), grouped, limits_.partition_bytes)
        self.gsi_stores = {index.name: self._gsi_store(index) for index in spec.gsis}
        self.collection_bytes: dict = {}  # pk -> bytes of items + LSI entries (tables with LSIs)
        self.throughput = None  # its throughput state (engine.throughput), made when first drawn on
        self.vectors = TableVectors(self)  # its vector indexes' entries (engine.vectors)

    def set_spec(self, spec: TableSpec) -> None:
        """A new spec (CreateTable, UpdateTable, tags, TTL...), with what the write path asks of it
        cached. why a method and not a property: ``spec`` is read on every request, a plain
        attribute read is the cheapest."""
        self.spec = spec
        self.name = spec.name
        self.indexes = spec.indexes
        self.has_lsis = bool(spec.lsis)
        self.has_vectors = bool(spec.vectors)

    def _gsi_store(self, index: IndexSpec) -> Store:
        throughput = index.throughput
        count = 1 if throughput is None else TableSpec(index.name, index.key, {}, throughput).initial_partitions()
        return Store(count, {MAIN: True}, self.limits.partition_bytes)

    # ------------------------------------------------------------------ keys
    def locate(self, hash_value, range_value=None, h: int | None = None) -> tuple:
        """(hash, pk, sort tuple) of a table key (``h``: the partition key's hash, when known)."""
        sort = None if self.spec.key.range_name is None else (range_value,)
        return key_hash(hash_value) if h is None else h, hash_value, sort

    def key_of(self, pk, sort) -> dict:
        return key_dict(self.spec.key, pk, None if sort is None else sort[0])

    def get(self, hash_value, range_value=None) -> Record | None:
        return self.store.get(MAIN, *self.locate(hash_value, range_value))

    # ------------------------------------------------------------- the write path
    def prepare(self, located: tuple, old: Record | None, new_item: dict | None, *,
                transactional: bool = False, too_large: str = ITEM_TOO_LARGE, size: int | None = None,
                update=None, consumed: Consumed | None = None) -> Mutation:
        """Validate a write of ``new_item`` (None: delete) over ``old``; change nothing.

        ``located`` is (h, pk, sort) from ``locate``; ``old`` the record stored
        there; ``size`` the new item's size when the caller has checked the item (its size and depth:
        ``requests.shapes.check_item``); ``update``
        the UpdateExpression that computed ``new_item`` (it words index key errors);
        ``consumed`` the Consumed the write's units are added to, a new one by
        default (an import passes one for all its writes: a million writes, one
        object, not three each).
        """
        h, pk, sort = located
        new = None
        if new_item is not None:
            if size is None:
                size = item_size(new_item)
                for value in new_item.values():
                    if type(value) in _CONTAINERS and nesting_problem(value):
                        raise ValidationException(NESTING)
            if size > limits.MAX_ITEM_BYTES:
                raise ValidationException(too_large)
            if self.indexes:
                self.check_index_keys(new_item, update)
            new = Record(new_item, size)
        mutation = Mutation(self, h, pk, sort, old, new)
        if self.indexes:
            mutation.changes = [self._index_change(index, old, new) for index in self.indexes]
            if self.has_lsis:
                self._check_collection_size(mutation)
        # (charged once valid: a shared ``consumed`` holds only writes that will be made)
        if consumed is None:
            consumed = Consumed(self.name, transactional)
        mutation.consumed = consumed
        for change in mutation.changes:
            if change.units:  # index arms are never doubled in transactions (spec §6.1)
                consumed.index(change.index.name, change.index.kind).write += change.units
        if self.has_vectors:  # (a vector is billed at 4 bytes a dimension: vector-search.md §4.4)
            units = write_units(max(self.vectors.billed(old), self.vectors.billed(new)))
            self.vectors.prepare(mutation, consumed, update)
        else:
            units = self._table_write_units(old, new)
        consumed.table.write += units * (2 if transactional else 1)
        return mutation

    def lookup(self, located: tuple) -> Record | None:
        """A snapshot of the record stored at (h, pk, sort), or None."""
        return self.store.get(MAIN, *located)

    def find(self, located: tuple) -> tuple:
        """The partition of (h, pk, sort) and the record stored there itself, or None (``Store.find``)."""
        return self.store.find(MAIN, *located)

    @staticmethod
    def _table_write_units(old: Record | None, new: Record | None) -> float:
        # Writes are sized on the larger of the old and new images; deleting
        # an absent item still costs one unit (spec §6.3).
        return write_units(max(old.size if old is not None else 0, new.size if new is not None else 0))

    def check_index_keys(self, item: dict, update=None) -> None:
        """Index key attributes present in an item must have the index's types (``update``: see ``prepare``)."""
        for index in self.indexes:
            for name, expected in index.key.types.items():
                if name not in item or name in self.spec.key.types:
                    continue
                value = item[name]
                actual = type_of(value)
                if actual != expected:
                    if update is not None and name not in assigned_values(update):
                        raise ValidationException(UPDATE_INDEX_KEY_TYPE)
                    raise ValidationException(
                        f"One or more parameter values were invalid: Type mismatch for Index Key {name} "
                        f"Expected: {expected} Actual: {actual} IndexName: {index.name}")
                if type(value) in (str, bytes) and not value:
                    empty = "string" if actual == "S" else "binary"
                    if update is not None:  # INF: the binary wording follows the string one
                        raise ValidationException(UPDATE_INDEX_KEY_EMPTY.format(empty))
                    raise ValidationException(
                        "One or more parameter values are not valid. A value specified for a secondary "
                        "index key is not supported. The AttributeValue for a key attribute cannot contain "
                        f"an empty {empty} value. IndexName: {index.name}, IndexKey: {name}")
            if all(name in item for name in index.key.names):
                check_key_sizes(index.key, item[index.key.hash_name],
                                item.get(index.key.range_name) if index.key.range_name else None)

    def entry(self, index: IndexSpec, record: Record | None) -> tuple | None:
        """(h, pk, sort, Record) of an item's entry in an index; None if sparse-absent."""
        if record is None:
            return None
        item = record.item
        if any(name not in item for name in index.key.names):  # (sparse: every key attribute, or no entry)
            return None
        if index.is_global and _wrong_index_key(index, item):
            # why: a GSI created over items whose key attribute has another type
            # leaves them out (its backfill skips them), until a write fixes the type
            return None
        table_key = self.spec.key
        pk, sort = index_place(index, table_key, item)
        names = index.projected_names(table_key)
        if names is None:
            projected = record.alias()
        else:
            projected_item = {name: value for name, value in item.items() if name in names}
            projected = Record(projected_item, item_size(projected_item))
        return key_hash(pk), pk, sort, projected

    def _index_change(self, index: IndexSpec, old: Record | None, new: Record | None) -> IndexChange:
        before, after = self.entry(index, old), self.entry(index, new)
        key_changed = (before is not None and after is not None
                       and not (values_equal(before[1], after[1]) and _same_sort(before[2], after[2])))
        content_changed = (before is not None and after is not None
                           and not values_equal(before[3].item, after[3].item))
        return IndexChange(index, before, after, index_write_units(before and before[3].size, after and after[3].size,
                                                                   key_changed, content_changed))

    def _check_collection_size(self, mutation: Mutation) -> None:
        delta = self._collection_delta(mutation)
        if self.collection_bytes.get(mutation.pk, 0) + delta > self.limits.lsi_collection_bytes:
            raise ItemCollectionSizeLimitExceededException("Collection size exceeded.")

    @staticmethod
    def _collection_delta(mutation: Mutation) -> int:
        delta = (mutation.new.size if mutation.new else 0) - (mutation.old.size if mutation.old else 0)
        for change in mutation.changes:
            if change.index.kind == "LSI":
                delta += (change.new[3].size if change.new else 0) - (change.old[3].size if change.old else 0)
        return delta

    def collection(self, pk) -> tuple | None:
        """(key attributes, bytes) of the item collection of ``pk``; None without LSIs."""
        if not self.has_lsis:
            return None
        return {self.spec.key.hash_name: pk}, self.collection_bytes.get(pk, 0)

    def commit(self, mutation: Mutation) -> None:
        """Apply a prepared mutation: the item, then its index entries."""
        if mutation.new is None:
            if mutation.old is not None:
                self.store.remove(MAIN, mutation.h, mutation.pk, mutation.sort)
        else:
            self.store.put(MAIN, mutation.h, mutation.pk, mutation.sort, mutation.new)
        self._commit_entries(mutation)

    def commit_all(self, mutations: list) -> None:
        """Apply prepared mutations of this table in order, as ``commit`` one by one does. Puts alone,
        to a table without LSIs (whose entries share the items' partitions), store their items in one
        step per partition (``Store.put_all``), then their index entries: the engine's way for a long
        run of them (``BULK_PUTS``, an import)."""
        if (self.has_lsis or any(m.new is None for m in mutations)
                or not self.store.put_all(MAIN, [(m.h, m.pk, m.sort, m.new) for m in mutations])):
            for mutation in mutations:
                self.commit(mutation)
            return
        if self.indexes or self.has_vectors:
            for mutation in mutations:
                self._commit_entries(mutation)

    def _commit_entries(self, mutation: Mutation) -> None:
        """A committed item's index entries and collection size."""
        for change in mutation.changes:
            self._apply_index_change(change)
        if self.has_vectors:
            self.vectors.commit(mutation)
        if self.has_lsis:
            total = self.collection_bytes.get(mutation.pk, 0) + self._collection_delta(mutation)
            if total:
                self.collection_bytes[mutation.pk] = total
            else:
                self.collection_bytes.pop(mutation.pk, None)

    def _apply_index_change(self, change: IndexChange) -> None:
        store, space = self._index_store(change.index)
        if change.old is not None and (change.new is None or change.old[:3] != change.new[:3]):
            h, pk, sort, _ = change.old
            store.remove(space, h, pk, sort)  # an entry that keeps its key is overwritten in place
        if change.new is not None:
            h, pk, sort, record = change.new
            store.put(space, h, pk, sort, record)

    def _index_store(self, index: IndexSpec) -> tuple[Store, object]:
        if index.kind == "LSI":
            return self.store, index.name
        return self.gsi_stores[index.name], MAIN

    # ---------------------------------------------------------------- reads
    def source(self, index: IndexSpec | None) -> tuple[Store, object, KeySchema]:
        """Where a read of the table (index None) or of an index looks."""
        if index is None:
            return self.store, MAIN, self.spec.key
        store, space = self._index_store(index)
        return store, space, index.key

    def read_key(self, index: IndexSpec | None, item: dict) -> dict:
        """LastEvaluatedKey of an entry: table key attributes plus the index's."""
        names = list(self.spec.key.names)
        if index is not None:
            names += [name for name in index.key.names if name not in names]
        return {name: item[name] for name in names}

    def position(self, index: IndexSpec | None, key: dict) -> tuple:
        """(h, pk, sort) in a source's order of an ExclusiveStartKey."""
        table_key = self.spec.key
        if index is None:
            pk = key[table_key.hash_name]
            sort = _sort_of(table_key, key)
        else:
            pk, sort = index_place(index, table_key, key)
        return key_hash(pk), pk, sort

    def read_page(self, index: IndexSpec | None, entries, *, limit: int | None, consistent: bool,
                  matches=None, reach_back: bool = False, transactional: bool = False,
                  max_bytes: int | None = None, emit=None, tally=None) -> Page:
        """Evaluate entries until Limit items or 1 MB have been read (spec §2.7).

        ``matches`` filters evaluated items (it sees the index entry, or the
        base item when ``reach_back``); capacity is charged on evaluated bytes,
        rounded once, to the table or to the index read. ``max_bytes`` is what
        is left of the page when earlier reads of one statement (PartiQL's
        decomposed reads) already evaluated part of it. ``emit`` turns each
        matching (stored) record into what the page holds, never the record
        itself (default: a snapshot, ``alias``);
        why here: a response copy made as the filter accepts an item finds it
        still in cache, where a second pass over a 1,000-item page misses again.
        ``tally`` (a Scan's ``ScanTally``) gives the entries instead, partition
        by partition, and learns where each partition's entries ended.
        """
        consumed = Consumed(self.name, transactional)
        out, scanned, evaluated, last = [], 0, 0, None
        page_bytes = self.limits.page_bytes if max_bytes is None else max_bytes
        base_units = 0.0
        for partition, group in tally.groups if tally is not None else ((None, entries),):
            for record in group:
                scanned += 1
                evaluated += record.size
                found = record
                if reach_back:
                    found = self._base_record(record.item)
                    base_units += read_units(found.size, consistent)
                if matches is None or matches(found.item):
                    out.append(found.alias() if emit is None else emit(found))
                if (limit is not None and scanned >= limit) or evaluated >= page_bytes:
                    last = self.read_key(index, record.item)
                    break
            if tally is not None:
                tally.close(partition, evaluated)
            if last is not None:
                break
        units = read_units(evaluated, consistent)
        if index is None:
            consumed.table.read = units
        else:
            consumed.index(index.name, index.kind).read = units
            consumed.table.read = base_units
        return Page(out, scanned, last, consumed, evaluated)

    def _base_record(self, entry: dict) -> Record:
        key = self.spec.key
        return self.get(entry[key.hash_name], entry.get(key.range_name) if key.range_name else None)

    # -------------------------------------------------------------- stats
    @property
    def item_count(self) -> int:
        return self.store.items

    @property
    def size_bytes(self) -> int:
        """Bytes of the table's items (LSI entries live in its partitions but are not counted); a vector an
        index reads counted at 4 bytes a dimension (vector-search.md §4.4 rule 2)."""
        stored = self.store.space_stats(MAIN)[1]
        return stored + self.vectors.billing_delta() if self.has_vectors else stored

    def index_stats(self, index: IndexSpec) -> tuple[int, int]:
        """(item count, bytes) of an index."""
        store, space = self._index_store(index)
        return store.space_stats(space)

    def key_spread(self, index: IndexSpec | None = None) -> tuple:
        """(partition-key values, entries, the value holding the most entries, how many) of the table
        or of an index: how evenly its items spread over partition keys (a skewed index is hot); a
        multi-attribute index's values are maps of its HASH attributes."""
        store, space = (self.store, MAIN) if index is None else self._index_store(index)
        values = entries = most = 0
        largest = current = None
        run = 0
        for record in store.scan(space):  # storage order: one partition-key value's entries are adjacent
            key = record.key[:2]
            if key != current:
                current, run, values = key, 0, values + 1
            run += 1
            entries += 1
            if run > most:
                most, largest = run, key[1]
        if type(largest) is tuple:  # a multi-attribute index's HASH tuple, named
            return values, entries, dict(zip(index.key.hash_names, largest)), most
        return values, entries, key_value(largest), most

    # ------------------------------------------------------- schema changes
    def add_gsi(self, index: IndexSpec) -> None:
        """Create a GSI and backfill it (items with a wrong-typed key are skipped, see ``entry``)."""
        store = self._gsi_store(index)
        self.gsi_stores[index.name] = store
        for record in self.store.scan(MAIN):
            entry = self.entry(index, record)
            if entry is not None:
                store.put(MAIN, *entry)

    def drop_gsi(self, name: str) -> None:
        self.gsi_stores.pop(name, None)

    def ensure_partitions(self) -> None:
        """Split partitions so throughput fits the published formula."""
        self.store.ensure_partitions(self.spec.initial_partitions())
        for index in self.spec.gsis:
            if index.throughput is not None:
                count = TableSpec(index.name, index.key, {}, index.throughput).initial_partitions()
                self.gsi_stores[index.name].ensure_partitions(count)


def _same_sort(a: tuple, b: tuple) -> bool:
    return len(a) == len(b) and all(values_equal(x, y) for x, y in zip(a, b))


def index_place(index: IndexSpec, table_key: KeySchema, values: dict) -> tuple:
    """(partition key, sort tuple) of an index entry whose key attributes are in ``values``: an LSI sorts by
    its RANGE attribute, then the table's; a GSI's partition key is its HASH value, or the tuple of its HASH
    values in KeySchema order (multi-attribute-keys.md §5), and it sorts by its RANGE values in KeySchema
    order (§6), then the table's key (the order of equal index keys: §6 rule 4)."""
    key = index.key
    if index.kind == "LSI":
        return values[key.hash_name], (values[key.range_name], values[table_key.range_name])
    hashes = key.hash_names
    pk = values[hashes[0]] if len(hashes) == 1 else tuple(values[name] for name in hashes)
    return pk, tuple(values[name] for name in (*key.range_names, *table_key.names))


def _wrong_index_key(index: IndexSpec, item: dict) -> bool:
    for name, expected in index.key.types.items():
        value = item.get(name)
        if name in item and (type_of(value) != expected or (type(value) in (str, bytes) and not value)):
            return True
    return False
