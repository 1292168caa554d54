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

from collections import deque

from ..schema import KeySchema

RETENTION = 24 * 3600.0  # seconds a record is kept (DynamoDB Streams' 24 hours)


class Shard:
    """One partition's share of a stream: ``records`` are ``records.Change``s in sequence order."""

    __slots__ = ("shard_id", "parent_id", "lo", "hi", "start", "end", "trimmed", "records")

    def __init__(self, shard_id: str, parent_id: str | None, lo: int, hi: int, start: int,
                 end: int | None = None, trimmed: int = 0):
        self.shard_id = shard_id
        self.parent_id = parent_id
        self.lo, self.hi = lo, hi
        self.start = start      # the first sequence number it may hold
        self.end = end          # the last one, once closed
        self.trimmed = trimmed  # the newest sequence number trimmed from it (0: none)
        self.records: deque = deque()

    @property
    def open(self) -> bool:
        return self.end is None

    @property
    def horizon(self) -> int:
        """The sequence number just before the oldest record it may still return (TRIM_HORIZON)."""
        return max(self.trimmed, self.start - 1)

    def close(self, last: int) -> None:
        """Close the shard; ``last`` is the engine's newest sequence number (its end when it is empty)."""
        self.end = self.records[-1].sequence if self.records else max(self.start, last)

    def after(self, sequence: int, limit: int | None = None) -> list:
        """Its changes with a sequence number above ``sequence``, oldest first (at most ``limit``)."""
        records = self.records
        if not records or records[-1].sequence <= sequence:
            return []
        found = [change for change in records if change.sequence > sequence]
        return found if limit is None else found[:limit]

    def state(self) -> list:
        """What the database file keeps of it (its records are kept apart)."""
        return [self.shard_id, self.parent_id, self.lo, self.hi, self.start, self.end, self.trimmed]


class Stream:
    """A table's stream: enabled with a view type and a label, then (maybe) disabled."""

    def __init__(self, registry, table_name: str, store, key_schema, view_type: str, label: str, arn: str,
                 created: float):
        self.registry = registry
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

    def shard_for(self, partition) -> Shard:
        shard = self._open.get((partition.lo, partition.hi))
        if shard is None:  # the partition split since the last record
            self.follow()
            shard = self._open[(partition.lo, partition.hi)]
        return shard

    def shard(self, shard_id: str) -> Shard | None:
        return next((shard for shard in self.shards if shard.shard_id == shard_id), None)

    def disable(self, now: float) -> None:
        """Close every shard; the stream stays readable for ``RETENTION`` seconds."""
        for shard in self._open.values():
            shard.close(self.registry.sequence)
        self._open.clear()
        self.store = None
        self.disabled_at = now
        self.registry.touched(self)

    # ------------------------------------------------------------- records
    def trim(self, now: float) -> int:
        """Drop the records older than ``RETENTION`` (a shard stays listed: there are few); the newest
        sequence number dropped (0: none)."""
        horizon = now - RETENTION
        newest = 0
        for shard in self.shards:
            records = shard.records
            while records and records[0].created < horizon:
                shard.trimmed = newest = max(newest, records.popleft().sequence)
        return newest

    def after(self, sequence: int) -> list:
        """Every change kept with a sequence number above ``sequence`` (``records.Change``), in order."""
        found = [change for shard in self.shards for change in shard.after(sequence)]
        found.sort(key=lambda change: change.sequence)
        return found

    def oldest(self) -> int | None:
        """The oldest sequence number kept, or None when no record is."""
        firsts = [shard.records[0].sequence for shard in self.shards if shard.records]
        return min(firsts) if firsts else None

    def trimmed(self) -> int:
        """The newest sequence number trimmed from any of its shards (0: none)."""
        return max((shard.trimmed for shard in self.shards), default=0)

    # ------------------------------------------------------------- the file
    def state(self) -> dict:
        """What the database file keeps of the stream (its records are kept apart)."""
        return {"table": self.table_name, "key": [self.key_schema.hash_name, self.key_schema.hash_type,
                                                   self.key_schema.range_name, self.key_schema.range_type], "view": self.view_type,
                "label": self.label, "created": self.created, "disabled": self.disabled_at,
                "shards": [shard.state() for shard in self.shards],
                "parents": [[lo, hi, shard_id] for (lo, hi), shard_id in self._parents.items()]}

    @classmethod
    def restore(cls, registry, arn: str, state: dict) -> "Stream":
        """A stream as ``state()`` described it; its open shards wait for ``follow`` to meet the partitions."""
        stream = cls(registry, state["table"], None, KeySchema(*state["key"]), state["view"], state["label"], arn,
                     state["created"])
        stream.disabled_at = state["disabled"]
        for shard_id, parent, lo, hi, start, end, trimmed in state["shards"]:
            shard = Shard(shard_id, parent, lo, hi, start, end, trimmed)
            stream.shards.append(shard)
            if shard.open:
                stream._open[(lo, hi)] = shard
        stream._parents = {(lo, hi): shard_id for lo, hi, shard_id in state["parents"]}
        return stream
