"""DynamoDB Streams in the engine (item-api §7): every committed change of a table with a stream enabled
becomes a record, in commit order, in the shard of the item's partition.

``Streams`` (``engine.streams``) keeps every stream by ARN: the enabled
ones, and the disabled ones for 24 hours on the engine's clock. The one
write path (``Engine.apply``) hands it each batch of committed mutations;
``sync(table)`` follows CreateTable / UpdateTable / DeleteTable (a new label
starts a new stream, a disabled or deleted one closes its shards). Readers
wait on ``changed`` (a Condition on the engine lock) for new records.
"""

from __future__ import annotations

import random
import threading

from .records import Change, changes_item, sequence_text
from .stream import RETENTION, Shard, Stream

__all__ = ["RETENTION", "Shard", "Stream", "Streams", "sequence_text"]


class Streams:
    """The engine's streams, its sequence numbers and shard ids."""

    def __init__(self, engine):
        self.engine = engine
        self.by_arn: dict = {}
        self.sequence = 0         # the newest sequence number given
        self._shards = 0          # shard ids made (their order is their creation order)
        # eventIDs: 32 hex digits, unique -- this engine's random half, then the sequence number
        self._id_prefix = f"{random.getrandbits(64):016x}"
        self.changed = threading.Condition(engine.lock)
        self.waiting = 0          # readers waiting on ``changed`` (none: a write need not notify)

    # --------------------------------------------------------------- life
    def sync(self, table, deleted: bool = False) -> None:
        """Follow ``table``'s stream settings (the caller holds the lock): open the stream its spec
        and label name, close the one it had when they changed or the table went."""
        stream = table.stream
        view_type = None if deleted else table.spec.stream_view_type
        label = table.stream_label
        if stream is not None and (view_type is None or stream.label != label):
            stream.disable(self.engine.clock())
            table.stream = None
        if view_type is not None and table.stream is None:
            arn = f"arn:aws:dynamodb:{self.engine.region}:{self.engine.account}:table/{table.name}/stream/{label}"
            table.stream = self.by_arn[arn] = Stream(self, table, view_type, label, arn, self.engine.epoch())
        self._forget_expired()

    def new_shard_id(self) -> str:
        """``shardId-<20 digits>-<8 hex>`` (DynamoDB Local's form), increasing with creation."""
        self._shards += 1
        return f"shardId-{self._shards:020d}-{self._shards * 2654435761 % 2**32:08x}"

    def _forget_expired(self) -> None:
        now = self.engine.clock()
        for arn in [arn for arn, s in self.by_arn.items() if s.disabled_at is not None
                    and s.disabled_at < now - RETENTION]:
            del self.by_arn[arn]

    # ------------------------------------------------------------ records
    def record(self, mutations: list) -> None:
        """The records of committed ``mutations`` (tables without a stream are skipped)."""
        now = created = None
        for mutation in mutations:
            stream = mutation.table.stream
            if stream is None or not changes_item(mutation):
                continue
            if created is None:
                now = self.engine.clock()
                epoch = self.engine.epoch
                created = epoch.anchor + (now - epoch.start)  # Epoch.__call__ without a second clock read
            self.sequence += 1
            partition = mutation.table.store.partition_for(mutation.h)
            stream.shard_for(partition).records.append((self.sequence, now, Change(self.sequence, created, mutation)))
            if now >= stream.next_trim:  # records leave by the second: trimming more often finds nothing
                stream.trim(now)
                stream.next_trim = now + 1.0
        if created is not None and self.waiting:
            self.changed.notify_all()

    def records(self, stream: Stream, after: int) -> list:
        """``stream``'s records with a sequence number above ``after``, built now, in sequence order."""
        return [change.record(stream, self.engine.region, self._id_prefix) for change in stream.after(after)]

    def stream_of(self, table_name: str) -> Stream | None:
        """The table's enabled stream, or None."""
        table = self.engine.tables.get(table_name)
        return None if table is None else table.stream
