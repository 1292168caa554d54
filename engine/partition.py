"""Partitions: hash ranges that own item collections, kept in DynamoDB's order.

A ``Store`` is a table's (or a GSI's) storage: a list of ``Partition`` s
that together cover the 64-bit hash space. A partition owns the entries
whose partition-key hash falls in its range, in one or more *spaces* (the
table's items and, for a table with LSIs, each LSI's entries, which live
with their base items as DynamoDB keeps them).

A ``Space`` holds records by key and in key order; a key is ``(hash, pk)``
(a hash-only table) or ``(hash, pk, *sort)`` where ``sort`` is ``(sk,)`` for
a table, ``(lsi_sk, sk)`` for an LSI and ``(gsi_sk, pk, sk)`` for a GSI: so
one partition-key value's entries (its item collection) are contiguous and
sorted. Python orders str by code point (= UTF-8 bytes), bytes unsigned and
Decimal numerically: DynamoDB's orders. Keys in one space, not one structure
per collection, so a put of a new partition-key value is as cheap as any
other. why ``(hash, pk, *sort)`` and not ``(hash, pk, sort)``: a nested tuple
is 48 bytes more per item, and tuples of a common head compare the same
either way.

A partition that grows past its byte limit splits in two at the hash that
halves its bytes (it cannot split inside one partition-key value).
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import chain
from operator import attrgetter

from sortedcontainers import SortedKeyList

from . import limits
from .types import copy_value, shallow_containers


class Record:
    """A stored item (or index entry), its size in bytes, and how to copy it:
    ``shallow`` names its map and list attributes when each holds scalars
    only, and is None when one nests deeper (see ``copy_of``). ``key`` is
    where a space stores it (set by ``Space.put``).

    An item dict is never changed once built: a write builds a new one, and
    the update expression copies what it writes into. A stored Record is
    the slot of its key: the Record a write of a new key passes to
    ``Space.put`` becomes the stored one, and a later overwrite puts the new
    item, size and shallow into it, under the engine lock, so it keeps its
    place in key order. So a stored Record is good only under the lock and
    until the next write: what ``Store.scan`` / ``collection`` yield is used
    there, and whatever leaves the lock is a snapshot (``alias``: point
    lookups, pages without ``emit``) or a copy of the item (``copy_of``),
    which every item handed to a caller must be anyway.
    """

    __slots__ = ("item", "size", "shallow", "key")

    def __init__(self, item: dict, size: int):
        self.item = item
        self.size = size
        self.shallow = shallow_containers(item)
        self.key = None

    def alias(self) -> Record:
        """A record of the same item, stored nowhere yet: a snapshot of a stored
        record, or the entry of an index projecting ALL."""
        alias = Record.__new__(Record)
        alias.item, alias.size, alias.shallow, alias.key = self.item, self.size, self.shallow, None
        return alias

    def copy(self) -> dict:
        """A copy of the item that shares nothing mutable with the store."""
        return copy_of(self)

    def __repr__(self) -> str:
        return f"Record({self.item!r}, {self.size})"


def copy_of(record: Record) -> dict:
    """A copy of a stored record's item that shares nothing mutable with the store.

    why: every item a read returns is copied, which is most of a Query's or
    Scan's cost. Knowing the item's containers from the write, the common item
    (scalars, and lists or maps of scalars) copies in C-level ``copy()`` calls.
    """
    source = record.item  # (first: reading it decodes a record not read since its file was opened)
    names = record.shallow
    if names is None:
        return copy_value(source)
    item = source.copy()
    for name in names:
        item[name] = item[name].copy()
    return item


def shaper(project, projection):
    """record -> a response item: a copy of the whole item (``projection`` None) or
    ``project(record.item, projection)``. Reads pass it as ``emit``, so each item is
    shaped as it is read; the item API and PartiQL differ only in ``project``."""
    if projection is None:
        return copy_of
    return lambda record: project(record.item, projection)


MAIN = None  # the main space: the table's items, or a GSI's entries

_record_key = attrgetter("key")


class Space:
    """One space of a partition: its records by key, and in key order.

    The same Record objects sit in both: a point read finds its record by
    hash, a range read walks the ordered records without looking any key up.
    why records and no (key, record) cells: on a large table every object a
    range read touches is a cache miss, and a cell is one more per entry
    (bench/engine.py, 100k items: Scan 25-120 % faster without). An
    overwrite changes the stored record in place (see ``Record``): replacing
    it in the ordered list would search that list, again a cache miss per
    probe.
    """

    __slots__ = ("by_key", "ordered")

    def __init__(self):
        self.by_key: dict = {}
        self.ordered = SortedKeyList(key=_record_key)

    def get(self, key) -> Record | None:
        """The stored record (the caller holds the lock; hand out ``alias()``)."""
        return self.by_key.get(key)

    def put(self, key, record: Record) -> Record | None:
        """Store ``record`` under ``key``: a new key adopts the object (stored nowhere
        else), an existing key's Record takes its content. A snapshot of what it
        replaced, or None."""
        stored = self.by_key.get(key)
        if stored is None:
            record.key = key
            self.by_key[key] = record
            self.ordered.add(record)
            return None
        old = stored.alias()
        _overwrite(stored, record)
        return old

    def put_all(self, pairs) -> tuple[int, int]:
        """``put`` each (key, Record) of ``pairs`` in turn, the new keys taking their places in key
        order in one step at the end; (how many keys are new, how many bytes the space grew by)."""
        by_key, fresh, grown = self.by_key, [], 0
        for key, record in pairs:
            stored = by_key.setdefault(key, record)  # (one hash of the key tuple, not two)
            if stored is record:
                record.key = key
                fresh.append(record)
                grown += record.size
            else:
                grown += record.size - stored.size
                _overwrite(stored, record)
        self.ordered.update(fresh)
        return len(fresh), grown

    def fill(self, records: list) -> None:
        """Hold ``records`` (keyed, each key once; in any order) in an empty space, in one step.

        why: reopening a database file stores every item again; one sort of
        records that mostly come in key order already is a fraction of the
        cost of inserting them one by one.
        """
        self.by_key = {record.key: record for record in records}
        self.ordered = SortedKeyList(records, key=_record_key)

    def pop(self, key) -> Record | None:
        """Remove ``key``'s record and return it (None when absent)."""
        record = self.by_key.pop(key, None)
        if record is not None:
            self.ordered.remove(record)
        return record

    def records(self, minimum=None, maximum=None, inclusive=(True, True), reverse: bool = False):
        """Stored records whose keys lie between the bounds, in key order (see ``Record``)."""
        return self.ordered.irange_key(minimum, maximum, inclusive, reverse)

    def records_from(self, minimum) -> list:
        """Records from the key ``minimum`` on, in key order."""
        return list(self.ordered.irange_key(minimum))


def _overwrite(stored: Record, record: Record) -> None:
    """A stored record takes a new record's content, keeping its place (see ``Record``)."""
    stored.item, stored.size, stored.shallow = record.item, record.size, record.shallow


class Partition:
    """One hash range [lo, hi) and the entries it owns, space by space.

    ``meter`` is its throughput meter (``engine.throughput.state.Meter``),
    made when a request first draws on it.
    """

    __slots__ = ("lo", "hi", "spaces", "counts", "sizes", "meter")

    def __init__(self, lo: int, hi: int, space_names):
        self.lo = lo
        self.hi = hi
        self.meter = None
        self.spaces = {name: Space() for name in space_names}
        self.counts = dict.fromkeys(space_names, 0)
        self.sizes = dict.fromkeys(space_names, 0)

    @property
    def bytes(self) -> int:
        return sum(self.sizes.values())

    @property
    def items(self) -> int:
        return self.counts[MAIN]

    def stats(self, number: int) -> dict:
        return {"Partition": number, "KeyHashRange": [self.lo, self.hi],
                "ItemCount": self.items, "SizeBytes": self.bytes}


def stored_key(h: int, pk, sort: tuple | None) -> tuple:
    """The key a space stores an entry under: ``(h, pk)`` or ``(h, pk, *sort)``."""
    return (h, pk) if sort is None else (h, pk) + sort


class Store:
    """Partitions covering the hash space.

    ``grouped[space]`` tells whether entries are keyed by a sort tuple too
    (several entries per partition-key value) or not (a hash-only table).
    """

    def __init__(self, partitions: int, grouped: dict, max_bytes: int = limits.PARTITION_BYTES):
        self.grouped = dict(grouped)
        self.max_bytes = max_bytes
        step = limits.HASH_SPACE // partitions
        self.lay_out([i * step for i in range(partitions)])

    def lay_out(self, starts: list) -> None:
        """Partition an empty store on hash ranges beginning at ``starts`` (the first is 0).

        A reopened database file restores the layout its stores had (see ``starts``).
        """
        bounds = list(starts) + [limits.HASH_SPACE]
        self.partitions = [Partition(bounds[i], bounds[i + 1], self.grouped) for i in range(len(starts))]
        self._starts = bounds[:-1]

    def starts(self) -> list:
        """Where each partition's hash range begins: the layout ``lay_out`` restores."""
        return list(self._starts)

    # ------------------------------------------------------------- routing
    def partition_for(self, h: int) -> Partition:
        return self.partitions[bisect_right(self._starts, h) - 1]

    # -------------------------------------------------------------- reads
    def get(self, space, h: int, pk, sort: tuple | None) -> Record | None:
        """A snapshot of the record stored at (h, pk, sort), or None."""
        record = self.find(space, h, pk, sort)[1]
        return None if record is None else record.alias()

    def find(self, space, h: int, pk, sort: tuple | None) -> tuple:
        """The partition holding (h, pk, sort) and the record stored there itself (good under the lock
        until the next write: see ``Record``), or None (a point request's throughput is drawn on that
        partition)."""
        partition = self.partition_for(h)
        return partition, partition.spaces[space].get(stored_key(h, pk, sort))

    def collection(self, space, h: int, pk, low=None, high=None, reverse: bool = False):
        """One partition-key value's stored records, in sort order (see ``Record``).

        ``low`` / ``high`` are (sort bound, inclusive) pairs or None; a bound is
        compared with the sort tuples (``(v,)`` sorts before ``(v, x)``).
        """
        slots = self.partition_for(h).spaces[space]
        if not self.grouped[space]:
            record = slots.get((h, pk))
            return iter(()) if record is None else iter((record,))
        minimum, low_in = ((h, pk), True) if low is None else ((h, pk) + low[0], low[1])
        maximum, high_in = ((h, pk, TOP), True) if high is None else ((h, pk) + high[0], high[1])
        return slots.records(minimum, maximum, (low_in, high_in), reverse)

    def scan(self, space, after: tuple | None = None, lo: int = 0, hi: int = limits.HASH_SPACE):
        """Stored records in storage order (hash, then key), strictly after the key ``after``.

        ``after`` is (h, pk, sort); [lo, hi) restricts the hash range (a scan segment).
        """
        return chain.from_iterable(records for _, records in self.scan_groups(space, after, lo, hi))

    def scan_groups(self, space, after: tuple | None = None, lo: int = 0, hi: int = limits.HASH_SPACE):
        """``scan`` 's records partition by partition: (partition, its records) pairs, so that a Scan's
        accounting learns where a partition ends once per partition, not once per record."""
        start, inclusive = (lo,), True
        if after is not None and after[0] >= lo:
            start, inclusive = stored_key(*after), False
        first = bisect_right(self._starts, start[0]) - 1
        # (hi,) sorts after every key whose hash is below hi and before the rest
        return ((partition, partition.spaces[space].records(start, (hi,), (inclusive, False)))
                for partition in self.partitions[first:] if partition.lo < hi)

    # ------------------------------------------------------------- writes
    def put(self, space, h: int, pk, sort: tuple | None, record: Record) -> Record | None:
        """Store an entry, returning the one it replaced."""
        partition = self.partition_for(h)
        old = partition.spaces[space].put(stored_key(h, pk, sort), record)
        if old is None:
            partition.counts[space] += 1
            partition.sizes[space] += record.size
        else:
            partition.sizes[space] += record.size - old.size
        if partition.bytes > self.max_bytes:
            self._split(partition)
        return old

    def put_all(self, space, entries: list) -> bool:
        """Store ``entries`` — (h, pk, sort, Record) — as ``put`` would one by one, each partition's new
        keys merged into its order in one step; or store nothing and say False when a partition could
        grow past its limit on the way (``put`` splits it at a point that depends on the order).

        why: an import writes its items through the write path, and one insert into the ordered
        records per item was a fifth of an import's time.
        """
        groups: dict = {}
        for h, pk, sort, record in entries:
            partition = self.partition_for(h)
            group = groups.get(partition)
            if group is None:
                group = groups[partition] = []
            group.append((stored_key(h, pk, sort), record))
        for partition, group in groups.items():
            if partition.bytes + sum(record.size for _, record in group) > self.max_bytes:
                return False
        for partition, group in groups.items():
            added, grown = partition.spaces[space].put_all(group)
            partition.counts[space] += added
            partition.sizes[space] += grown
        return True

    def load(self, space, records) -> None:
        """Fill ``space`` of every (empty) partition with ``records``, each keyed (``Record.key``, see
        ``stored_key``), in one step per partition, then split what the bytes say must be split (as
        ``put`` would have)."""
        shares: dict = {partition: [] for partition in self.partitions}
        partition = self.partitions[0]
        share = shares[partition]
        for record in records:
            h = record.key[0]
            if not partition.lo <= h < partition.hi:  # why not a search per entry: they come in key order
                partition = self.partition_for(h)
                share = shares[partition]
            share.append(record)
        for partition, records in shares.items():
            if records:
                partition.spaces[space].fill(records)
                partition.counts[space] = len(records)
                partition.sizes[space] = sum(record.size for record in records)
        self._settle()

    def _settle(self) -> None:
        """Split every partition over the size limit, as long as splitting helps."""
        split = True
        while split:
            split = False
            for partition in list(self.partitions):
                if partition.bytes > self.max_bytes:
                    count = len(self.partitions)
                    self._split(partition)
                    split = split or len(self.partitions) > count

    def remove(self, space, h: int, pk, sort: tuple | None) -> Record | None:
        """Remove an entry, returning it (None when absent)."""
        partition = self.partition_for(h)
        old = partition.spaces[space].pop(stored_key(h, pk, sort))
        if old is not None:
            partition.counts[space] -= 1
            partition.sizes[space] -= old.size
        return old

    # ------------------------------------------------------------- splits
    def ensure_partitions(self, count: int) -> None:
        """Split the widest partitions at their hash midpoints until there are ``count``."""
        while len(self.partitions) < count:
            widest = max(self.partitions, key=lambda p: p.hi - p.lo)
            if widest.hi - widest.lo < 2:
                return
            self._split_at(widest, widest.lo + (widest.hi - widest.lo) // 2)

    def _split(self, partition: Partition) -> None:
        # Split where the bytes halve; a single partition-key value cannot be split.
        half, running, previous = partition.bytes / 2, 0, None
        for record in partition.spaces[MAIN].records_from(None):
            h = record.key[0]
            if running >= half and previous is not None and h != previous:
                self._split_at(partition, h)
                return
            running += record.size
            previous = h

    def _split_at(self, partition: Partition, middle: int) -> None:
        upper = Partition(middle, partition.hi, self.grouped)
        for name, slots in partition.spaces.items():
            for record in slots.records_from((middle,)):
                key = record.key
                slots.pop(key)
                upper.spaces[name].put(key, record)
                partition.counts[name] -= 1
                partition.sizes[name] -= record.size
                upper.counts[name] += 1
                upper.sizes[name] += record.size
        partition.hi = middle
        partition.meter = None  # its figures were the whole range's: the throughput model starts a new one
        position = self.partitions.index(partition) + 1
        self.partitions.insert(position, upper)
        self._starts.insert(position, middle)

    # -------------------------------------------------------------- stats
    def stats(self) -> list[dict]:
        return [partition.stats(number) for number, partition in enumerate(self.partitions)]

    def space_stats(self, space) -> tuple[int, int]:
        """(entries, bytes) of one space over every partition."""
        return (sum(p.counts[space] for p in self.partitions), sum(p.sizes[space] for p in self.partitions))

    @property
    def bytes(self) -> int:
        return sum(partition.bytes for partition in self.partitions)

    @property
    def items(self) -> int:
        return sum(partition.items for partition in self.partitions)


class _Top:
    """Sorts after every key value (an open upper bound inside sort tuples)."""

    __slots__ = ()

    def __lt__(self, other):
        return False

    def __le__(self, other):
        return other is self

    def __gt__(self, other):
        return other is not self

    def __ge__(self, other):
        return True

    def __eq__(self, other):
        return other is self

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return "TOP"


TOP = _Top()
