"""One stream of a table (item-api §7): its shards, which follow the table's partitions, and their records.

A shard covers one partition's hash range. When a partition splits, the
shard of the old range closes (its ``EndingSequenceNumber`` is its last
record's) and each new partition gets a child shard naming it as parent.
Records are appended in commit order; sequence numbers are the engine's, so
they increase within a shard and across the stream. Records older than
``RETENTION`` seconds on the engine's clock are trimmed; a disabled stream
closes its shards and stays readable for as long.
"""

from __future__ import annotations

from collections import deque

RETENTION = 24 * 3600.0  # seconds a record is kept (DynamoDB Streams' 24 hours)


class Shard:
    """One partition's share of a stream: ``records`` are (sequence, clock time, ``records.Change``)."""

    __slots__ = ("shard_id", "parent_id", "lo", "hi", "start", "end", "records")

    def __init__(self, shard_id: str, parent_id: str | None, lo: int, hi: int, start: int):
        self.shard_id = shard_id
        self.parent_id = parent_id
        self.lo, self.hi = lo, hi
        self.start = start      # the first sequence number it may hold
        self.end = None         # the last one, once closed
        self.records: deque = deque()

    @property
    def open(self) -> bool:
        return self.end is None

    def close(self, last: int) -> None:
        """Close the shard; ``last`` is the engine's newest sequence number (its end when it is empty)."""
        self.end = self.records[-1][0] if self.records else max(self.start, last)


class Stream:
    """A table's stream: enabled with a view type and a label, then (maybe) disabled."""

    def __init__(self, registry, table, view_type: str, label: str, arn: str, created: float):
        self.registry = registry
        self.table_name = table.name
        self.store = table.store        # the partitions its shards follow
        self.key_schema = table.spec.key
        self.view_type = view_type
        self.label = label
        self.arn = arn
        self.created = created          # epoch seconds (CreationRequestDateTime)
        self.disabled_at = None         # clock time it was disabled, None while enabled
        self.next_trim = float("-inf")  # when a write next trims the old records
        self.shards: list = []          # in creation order
        self._open: dict = {}           # (lo, hi) -> the open Shard of that range
        self._parents: dict = {}        # (lo, hi) of a split range -> the closed parent's id
        self.follow()

    @property
    def enabled(self) -> bool:
        return self.disabled_at is None

    # ------------------------------------------------------------- shards
    def follow(self) -> None:
        """Open a shard for each partition that has none; close the shard of a range that split."""
        partitions = self.store.partitions
        ranges = {(p.lo, p.hi) for p in partitions}
        for bounds in [b for b in self._open if b not in ranges]:
            shard = self._open.pop(bounds)
            shard.close(self.registry.sequence)
            self._parents[bounds] = shard.shard_id
        for partition in partitions:
            bounds = (partition.lo, partition.hi)
            if bounds not in self._open:
                parent = next((shard_id for (lo, hi), shard_id in self._parents.items()
                               if lo <= partition.lo and partition.hi <= hi), None)
                shard = Shard(self.registry.new_shard_id(), parent, *bounds, self.registry.sequence + 1)
                self._open[bounds] = shard
                self.shards.append(shard)

    def shard_for(self, partition) -> Shard:
        shard = self._open.get((partition.lo, partition.hi))
        if shard is None:  # the partition split since the last record
            self.follow()
            shard = self._open[(partition.lo, partition.hi)]
        return shard

    def disable(self, now: float) -> None:
        """Close every shard; the stream stays readable for ``RETENTION`` seconds."""
        for shard in self._open.values():
            shard.close(self.registry.sequence)
        self._open.clear()
        self.disabled_at = now

    # ------------------------------------------------------------- records
    def trim(self, now: float) -> None:
        """Drop the records older than ``RETENTION`` (a shard stays listed: there are few)."""
        horizon = now - RETENTION
        for shard in self.shards:
            records = shard.records
            while records and records[0][1] < horizon:
                records.popleft()

    def after(self, sequence: int) -> list:
        """Every change kept with a sequence number above ``sequence`` (``records.Change``), in order."""
        found = [entry for shard in self.shards for entry in shard.records if entry[0] > sequence]
        found.sort(key=lambda entry: entry[0])
        return [change for _, _, change in found]

    def oldest(self) -> int | None:
        """The oldest sequence number kept, or None when no record is."""
        firsts = [shard.records[0][0] for shard in self.shards if shard.records]
        return min(firsts) if firsts else None

