"""Partitions: hash ranges that own item collections, kept in DynamoDB's order.

A ``Store`` is a table's (or a GSI's) storage: a list of ``Partition`` s
that together cover the 64-bit hash space. A partition owns the items
whose partition-key hash falls in its range, in one or more *spaces* (the
table's items and, for a table with LSIs, each LSI's entries, which live
with their base items as DynamoDB keeps them). In a space, entries are
ordered by (hash, partition key) and, inside one partition-key value, by a
sort tuple: ``(sk,)`` for a table, ``(lsi_sk, sk)`` for an LSI,
``(gsi_sk, pk, sk)`` for a GSI. Python orders str by code point (= UTF-8
bytes), bytes unsigned and Decimal numerically: DynamoDB's orders.

A partition that grows past its byte limit splits in two at the hash that
halves its bytes (it cannot split inside one partition-key value).
"""

from __future__ import annotations

from bisect import bisect_right

from sortedcontainers import SortedDict

from . import limits


class Record:
    """A stored item (or index entry) and its size in bytes."""

    __slots__ = ("item", "size")

    def __init__(self, item: dict, size: int):
        self.item = item
        self.size = size

    def __repr__(self) -> str:
        return f"Record({self.item!r}, {self.size})"


class Partition:
    """One hash range [lo, hi) and the entries it owns, space by space."""

    __slots__ = ("lo", "hi", "spaces", "bytes", "items")

    def __init__(self, lo: int, hi: int, space_names):
        self.lo = lo
        self.hi = hi
        self.spaces = {name: SortedDict() for name in space_names}
        self.bytes = 0
        self.items = 0  # entries of the main space (the table's items)

    def stats(self, number: int) -> dict:
        return {"Partition": number, "KeyHashRange": [self.lo, self.hi],
                "ItemCount": self.items, "SizeBytes": self.bytes}


MAIN = None  # the main space: the table's items, or a GSI's entries


class Store:
    """Partitions covering the hash space; each space maps (hash, pk) to entries.

    ``grouped[space]`` tells whether a (hash, pk) slot holds one entry (a
    hash-only table) or a SortedDict of sort tuple → entry.
    """

    def __init__(self, partitions: int, grouped: dict, max_bytes: int = limits.PARTITION_BYTES):
        self.grouped = dict(grouped)
        self.max_bytes = max_bytes
        step = limits.HASH_SPACE // partitions
        self.lay_out([i * step for i in range(partitions)])

    def lay_out(self, starts: list) -> None:
        """Partition an empty store on hash ranges beginning at ``starts`` (starting with 0)."""
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
    def get(self, space, h: int, pk, sort: tuple | None):
        slot = self.partition_for(h).spaces[space].get((h, pk))
        if slot is None or sort is None:
            return slot
        return slot.get(sort)

    def group(self, space, h: int, pk) -> SortedDict | None:
        """The sorted entries of one partition-key value (grouped spaces)."""
        return self.partition_for(h).spaces[space].get((h, pk))

    def scan(self, space, after: tuple | None = None, lo: int = 0, hi: int = limits.HASH_SPACE):
        """Entries in storage order as (h, pk, sort, record), strictly after ``after``.

        ``after`` is (h, pk, sort); [lo, hi) restricts the hash range (a scan segment).
        """
        if after is not None and after[0] >= lo:
            lo, resume = after[0], after
        else:
            resume = None
        index = bisect_right(self._starts, lo) - 1
        grouped = self.grouped[space]
        for partition in self.partitions[index:]:
            if partition.lo >= hi:
                return
            yield from self._scan_partition(partition.spaces[space], grouped, lo, hi, resume)

    @staticmethod
    def _scan_partition(slots: SortedDict, grouped: bool, lo: int, hi: int, resume):
        start = (lo,) if resume is None else (resume[0], resume[1])
        for key in slots.irange(minimum=start):
            h, pk = key
            if h >= hi:
                return
            slot = slots[key]
            if not grouped:
                if resume is not None and key == (resume[0], resume[1]):
                    continue
                yield h, pk, None, slot
                continue
            if resume is not None and key == (resume[0], resume[1]):
                entries = slot.irange(minimum=resume[2], inclusive=(False, True))
            else:
                entries = slot.irange()
            for sort in entries:
                yield h, pk, sort, slot[sort]

    # ------------------------------------------------------------- writes
    def put(self, space, h: int, pk, sort: tuple | None, record: Record) -> Record | None:
        """Store an entry, returning the one it replaced."""
        partition = self.partition_for(h)
        slots = partition.spaces[space]
        if self.grouped[space]:
            group = slots.get((h, pk))
            if group is None:
                group = slots[(h, pk)] = SortedDict()
            old = group.get(sort)
            group[sort] = record
        else:
            old = slots.get((h, pk))
            slots[(h, pk)] = record
        self._account(partition, space, old, record)
        if partition.bytes > self.max_bytes:
            self._split(partition)
        return old

    def remove(self, space, h: int, pk, sort: tuple | None) -> Record | None:
        """Remove an entry, returning it (None when absent)."""
        partition = self.partition_for(h)
        slots = partition.spaces[space]
        if self.grouped[space]:
            group = slots.get((h, pk))
            old = None if group is None else group.pop(sort, None)
            if group is not None and not group:
                del slots[(h, pk)]
        else:
            old = slots.pop((h, pk), None)
        self._account(partition, space, old, None)
        return old

    @staticmethod
    def _account(partition: Partition, space, old: Record | None, new: Record | None) -> None:
        partition.bytes += (new.size if new else 0) - (old.size if old else 0)
        if space is MAIN:
            partition.items += (new is not None) - (old is not None)

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
        half, running = partition.bytes / 2, 0
        for (h, pk), slot in partition.spaces[MAIN].items():
            if running >= half and h > partition.lo:
                self._split_at(partition, h)
                return
            running += _slot_bytes(slot)

    def _split_at(self, partition: Partition, middle: int) -> None:
        upper = Partition(middle, partition.hi, self.grouped)
        for name, slots in partition.spaces.items():
            moving = list(slots.irange(minimum=(middle,)))
            for key in moving:
                slot = slots.pop(key)
                upper.spaces[name][key] = slot
                moved = _slot_bytes(slot)
                partition.bytes -= moved
                upper.bytes += moved
                if name is MAIN:
                    count = len(slot) if isinstance(slot, SortedDict) else 1
                    partition.items -= count
                    upper.items += count
        partition.hi = middle
        position = self.partitions.index(partition) + 1
        self.partitions.insert(position, upper)
        self._starts.insert(position, middle)

    # -------------------------------------------------------------- stats
    def stats(self) -> list[dict]:
        return [partition.stats(number) for number, partition in enumerate(self.partitions)]

    @property
    def bytes(self) -> int:
        return sum(partition.bytes for partition in self.partitions)

    @property
    def items(self) -> int:
        return sum(partition.items for partition in self.partitions)


def _slot_bytes(slot) -> int:
    if isinstance(slot, SortedDict):
        return sum(record.size for record in slot.values())
    return slot.size
