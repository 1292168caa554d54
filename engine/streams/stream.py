"""One stream of a table (item-api §7): its shards, which follow the table's partitions, and their records.

A shard covers one partition's hash range. When a partition splits, the
shard of the old range closes (its ``EndingSequenceNumber`` is its last
record's) and each new partition gets a child shard naming it as parent.
Records are appended in commit order; sequence numbers are the engine's, so
they increase within a shard and across the stream. Records older than
``RETENTION`` seconds (epoch seconds on the engine's clock, so they survive
a restart and a virtual clock drives them) are trimmed; a disabled stream
closes its shards and stays readable for as long.
"""

from __future__ import annotations

from ..schema import KeySchema
from .records import Change

RETENTION = 24 * 3600.0  # seconds a record is kept (DynamoDB Streams' 24 hours)


WIDTH = len(Change._fields)  # a change's fields in a shard's log
COMPACT_AT = 4096            # trimmed changes a log keeps before it is compacted


class Shard:
    """One partition's share of a stream: its changes (``records.Change``) in sequence order.

    why a flat log: a shard keeps a day of changes, and a container object per
    change would be one more object for the cyclic garbage collector to carry
    per write (issue 17's cost goal); the log holds each change's fields one
    after another, from ``head`` (the changes before it are trimmed).
    """

    __slots__ = ("shard_id", "number", "parent_id", "lo", "hi", "start", "end", "trimmed", "log", "head")

    def __init__(self, shard_id: str, parent_id: str | None, lo: int, hi: int, start: int,
                 end: int | None = None, trimmed: int = 0):
        self.shard_id = shard_id
        self.number = int(shard_id.split("-")[1])  # its creation number (the file keeps records by it)
        self.parent_id = parent_id
        self.lo, self.hi = lo, hi
        self.start = start      # the first sequence number it may hold
        self.end = end          # the last one, once closed
        self.trimmed = trimmed  # the newest sequence number trimmed from it (0: none)
        self.log: list = []
        self.head = 0

    @property
    def open(self) -> bool:
        return self.end is None

    @property
    def horizon(self) -> int:
        """The sequence number just before the oldest record it may still return (TRIM_HORIZON)."""
        return max(self.trimmed, self.start - 1)

    def __len__(self) -> int:
        return (len(self.log) - self.head) // WIDTH

    def add(self, change: Change) -> None:
        """Keep a change (its sequence number above every kept one)."""
        self.log += change

    @property
    def records(self) -> list:
        """Every change kept, oldest first."""
        return self._from(self.head)

    def first(self) -> int | None:
        """The oldest kept change's sequence number, or None."""
        return self.log[self.head] if len(self.log) > self.head else None

    def last(self) -> int | None:
        """The newest kept change's sequence number, or None."""
        return self.log[-WIDTH] if len(self.log) > self.head else None

    def close(self, last: int) -> None:
        """Close the shard; ``last`` is the engine's newest sequence number (its end when it is empty)."""
        newest = self.last()
        self.end = newest if newest is not None else max(self.start, last)

    def after(self, sequence: int, limit: int | None = None) -> list:
        """Its changes with a sequence number above ``sequence``, oldest first (at most ``limit``)."""
        log = self.log
        lo, hi = 0, len(self)
        while lo < hi:  # the first kept change numbered above ``sequence``
            middle = (lo + hi) // 2
            if log[self.head + middle * WIDTH] <= sequence:
                lo = middle + 1
            else:
                hi = middle
        return self._from(self.head + lo * WIDTH, limit)

    def _from(self, at: int, limit: int | None = None) -> list:
        log, make = self.log, Change._make
        stop = len(log) if limit is None else min(len(log), at + limit * WIDTH)
        return [make(log[i:i + WIDTH]) for i in range(at, stop, WIDTH)]

    def trim(self, horizon: float) -> int:
        """Drop the changes made before ``horizon`` (epoch seconds); the newest sequence number dropped (0:
        none)."""
        log, at = self.log, self.head
        while at < len(log) and log[at + 1] < horizon:  # (field 1: created)
            self.trimmed = log[at]
            at += WIDTH
        if at == self.head:
            return 0
        if at >= COMPACT_AT * WIDTH and at * 2 >= len(log):
            del log[:at]
            at = 0
        self.head = at
        return self.trimmed

    def state(self) -> list:
        """What the database file keeps of it (its records are kept apart)."""
        return [self.shard_id, self.parent_id, self.lo, self.hi, self.start, self.end, self.trimmed]


class Stream:
    """A table's stream: enabled with a view type and a label, then (maybe) disabled."""

    def __init__(self, registry, number: int, table_name: str, store, key_schema, view_type: str, label: str,
                 arn: str, created: float):
        self.registry = registry
        self.number = number            # the engine's count of streams when it was made (the file's id)
        self.table_name = table_name
        self.store = store              # the partitions its shards follow (None once disabled)
        self.key_schema = key_schema
        self.view_type = view_type
        self.label = label
        self.arn = arn
        self.created = created          # epoch seconds (CreationRequestDateTime)
        self.disabled_at = None         # epoch seconds it was disabled, None while enabled
        self.shards: list = []          # in creation order
        self._open: dict = {}           # (lo, hi) -> the open Shard of that range
        self._of: dict = {}             # Partition -> its open Shard (the write path's lookup)
        self._parents: dict = {}        # (lo, hi) of a split range -> the closed parent's id

    @property
    def enabled(self) -> bool:
        return self.disabled_at is None

    # ------------------------------------------------------------- shards
    def follow(self) -> None:
        """Open a shard for each partition that has none; close the shard of a range that split."""
        partitions = self.store.partitions
        ranges = {(p.lo, p.hi) for p in partitions}
        changed = False
        for bounds in [b for b in self._open if b not in ranges]:
            shard = self._open.pop(bounds)
            shard.close(self.registry.sequence)
            self._parents[bounds] = shard.shard_id
            changed = True
        for partition in partitions:
            bounds = (partition.lo, partition.hi)
            if bounds not in self._open:
                parent = next((shard_id for (lo, hi), shard_id in self._parents.items()
                               if lo <= partition.lo and partition.hi <= hi), None)
                shard = Shard(self.registry.new_shard_id(), parent, *bounds, self.registry.sequence + 1)
                self._open[bounds] = shard
                self.shards.append(shard)
                changed = True
        if changed:
            self.registry.touched(self)

    def shard_at(self, h: int) -> Shard:
        """The open shard of the partition holding hash ``h`` (following a split first)."""
        partition = self.store.partition_for(h)
        shard = self._of.get(partition)
        # (a split may keep a partition object and narrow its range)
        if shard is None or shard.hi != partition.hi or shard.lo != partition.lo:
            self.follow()
            shard = self._of[partition] = self._open[(partition.lo, partition.hi)]
        return shard

    def shard(self, shard_id: str) -> Shard | None:
        return next((shard for shard in self.shards if shard.shard_id == shard_id), None)

    def shard_numbered(self, number: int) -> Shard | None:
        return next((shard for shard in self.shards if shard.number == number), None)

    def disable(self, now: float) -> None:
        """Close every shard; the stream stays readable for ``RETENTION`` seconds."""
        for shard in self._open.values():
            shard.close(self.registry.sequence)
        self._open.clear()
        self._of.clear()
        self.store = None
        self.disabled_at = now
        self.registry.touched(self)

    # ------------------------------------------------------------- records
    def trim(self, now: float) -> int:
        """Drop the records older than ``RETENTION`` (a shard stays listed: there are few); the newest
        sequence number dropped (0: none)."""
        horizon = now - RETENTION
        return max([shard.trim(horizon) for shard in self.shards], default=0)

    def after(self, sequence: int) -> list:
        """Every change kept with a sequence number above ``sequence`` (``records.Change``), in order."""
        found = [change for shard in self.shards for change in shard.after(sequence)]
        found.sort(key=lambda change: change.sequence)
        return found

    def oldest(self) -> int | None:
        """The oldest sequence number kept, or None when no record is."""
        firsts = [shard.first() for shard in self.shards if len(shard)]
        return min(firsts) if firsts else None

    def trimmed(self) -> int:
        """The newest sequence number trimmed from any of its shards (0: none)."""
        return max((shard.trimmed for shard in self.shards), default=0)

    # ------------------------------------------------------------- the file
    def state(self) -> dict:
        """What the database file keeps of the stream (its records are kept apart)."""
        return {"number": self.number, "table": self.table_name, "key": [self.key_schema.hash_name, self.key_schema.hash_type,
                                                   self.key_schema.range_name, self.key_schema.range_type], "view": self.view_type,
                "label": self.label, "created": self.created, "disabled": self.disabled_at,
                "shards": [shard.state() for shard in self.shards],
                "parents": [[lo, hi, shard_id] for (lo, hi), shard_id in self._parents.items()]}

    @classmethod
    def restore(cls, registry, arn: str, state: dict) -> "Stream":
        """A stream as ``state()`` described it; its open shards wait for ``follow`` to meet the partitions."""
        stream = cls(registry, state["number"], state["table"], None, KeySchema(*state["key"]), state["view"],
                     state["label"], arn, state["created"])
        stream.disabled_at = state["disabled"]
        for shard_id, parent, lo, hi, start, end, trimmed in state["shards"]:
            shard = Shard(shard_id, parent, lo, hi, start, end, trimmed)
            stream.shards.append(shard)
            if shard.open:
                stream._open[(lo, hi)] = shard
        stream._parents = {(lo, hi): shard_id for lo, hi, shard_id in state["parents"]}
        return stream
