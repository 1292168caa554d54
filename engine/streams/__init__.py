"""DynamoDB Streams in the engine (item-api §7): every committed change of a table with a stream enabled
becomes a record, in commit order, in the shard of the item's partition.

``Streams`` (``engine.streams``) keeps every stream by ARN: the enabled
ones, and the disabled ones for 24 hours. The one write path
(``Engine.apply``) asks it to ``prepare`` the changes of a batch of
mutations (numbered, placed in their shards) before the storage makes them
durable -- in the same transaction as the items, so a crash neither loses an
acknowledged change's record nor invents one -- and to ``publish`` them
once committed. ``sync(table)`` follows CreateTable / UpdateTable /
DeleteTable (an enable starts a new stream with a new label, a disable or
a delete closes its shards). Readers wait on ``changed`` (a Condition on
the engine lock) for new records. ``unsaved`` holds what the database file
has not yet been told (streams whose shards or state changed, or which were
forgotten after their 24 hours), by ARN; the storage writes it with its
next transaction and calls ``saved()``.
"""

from __future__ import annotations

import threading
from datetime import datetime, timezone

from .records import Change, change, sequence_text
from .stream import RETENTION, Shard, Stream

__all__ = ["RETENTION", "Change", "Shard", "Stream", "Streams", "make_stream_label", "sequence_text"]

TRIM_EVERY = 1.0  # seconds between trims: records leave by the second, trimming more often finds nothing


def make_stream_label(timestamp: float) -> str:
    """A stream label: the ISO-8601 UTC time with milliseconds (``2015-05-11T21:21:33.291``)."""
    moment = datetime.fromtimestamp(timestamp, tz=timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}"


class Streams:
    """The engine's streams, its sequence numbers and shard ids."""

    def __init__(self, engine, durable: bool = False):
        self.engine = engine
        self.by_arn: dict = {}
        self.sequence = 0         # the newest sequence number given
        self.next_trim = float("-inf")
        self._shards = 0          # shard ids made (their order is their creation order)
        self._streams = 0         # streams made (each one's number)
        self.changed = threading.Condition(engine.lock)
        self.waiting = 0          # readers waiting on ``changed`` (none: a write need not notify)
        self.durable = durable    # a database file keeps the streams: track ``unsaved``
        self.unsaved: dict = {}

    # --------------------------------------------------------------- life
    def sync(self, table, deleted: bool = False) -> None:
        """Follow ``table``'s stream settings (the caller holds the lock, before the storage saves the
        table): open the stream its spec names, close the one it had when the spec dropped it or the
        table went. A stream restored from the database file and still enabled is taken up again."""
        stream = table.stream
        view_type = None if deleted else table.spec.stream_view_type
        if stream is not None and view_type is None:
            stream.disable(self.engine.epoch())
            table.stream = stream = None
            table.stream_label = None
        if view_type is not None and stream is None:
            restored = self.by_arn.get(self._arn(table.name, table.stream_label))
            if restored is not None and restored.enabled and restored.view_type == view_type:
                stream = restored
            else:
                now = self.engine.epoch()
                label = self._new_label(table.name, now)
                self._streams += 1
                stream = Stream(self, self._streams, table.name, None, table.spec.key, view_type, label,
                                self._arn(table.name, label), now)
                self.by_arn[stream.arn] = stream
                table.stream_label = label
            stream.store = table.store
            table.stream = stream
            stream.follow()
            self.touched(stream)
        self.trim(self.engine.epoch())

    def _arn(self, table_name: str, label: str | None) -> str:
        return f"arn:aws:dynamodb:{self.engine.region}:{self.engine.account}:table/{table_name}/stream/{label}"

    def _new_label(self, table_name: str, now: float) -> str:
        """A label naming no stream of the table yet (two enables within a millisecond differ by one)."""
        label = make_stream_label(now)
        while self._arn(table_name, label) in self.by_arn:
            now += 0.001
            label = make_stream_label(now)
        return label

    def new_shard_id(self) -> str:
        """``shardId-<20 digits>-<8 hex>`` (DynamoDB Local's form), increasing with creation."""
        self._shards += 1
        return f"shardId-{self._shards:020d}-{self._shards * 2654435761 % 2**32:08x}"

    def touched(self, stream: Stream) -> None:
        """``stream``'s description changed: the database file must hear of it."""
        if self.durable:
            self.unsaved[stream.arn] = stream

    def saved(self) -> None:
        """The storage wrote ``unsaved``."""
        self.unsaved.clear()

    def trim(self, now: float) -> None:
        """Drop every stream's records older than 24 hours and forget the streams disabled as long ago."""
        self.next_trim = now + TRIM_EVERY
        for arn, stream in list(self.by_arn.items()):
            if stream.disabled_at is not None and stream.disabled_at < now - RETENTION:
                del self.by_arn[arn]
                self.touched(stream)  # (the file forgets it too)
                continue
            if stream.trim(now):
                self.touched(stream)

    # ------------------------------------------------------------ records
    def prepare(self, mutations: list) -> list | None:
        """The changes ``mutations`` make, numbered and placed in their shards, before they are persisted:
        [(stream, shard, Change)], or None when none changes an item of a table with a stream."""
        found = None
        sequence = self.sequence
        for mutation in mutations:
            stream = mutation.table.stream
            if stream is None:
                continue
            if found is None:
                found = []
                created = self.engine.epoch()
            made = change(sequence + 1, created, mutation)
            if made is not None:
                sequence += 1
                found.append((stream, stream.shard_at(mutation.h), made))
        return found

    def publish(self, changes: list) -> None:
        """Keep the changes the storage made durable and wake the readers."""
        for _, shard, made in changes:
            shard.add(made)
        last = changes[-1][2]
        self.sequence = last.sequence
        if last.created >= self.next_trim:
            self.trim(last.created)
        if self.waiting:
            self.changed.notify_all()

    def records(self, stream: Stream, after: int) -> list:
        """``stream``'s records with a sequence number above ``after``, built now, in sequence order."""
        return self.build(stream, stream.after(after))

    def build(self, stream: Stream, changes: list) -> list:
        """DynamoDB's records of ``changes`` of ``stream`` (engine values)."""
        return [change.record(stream, self.engine.region) for change in changes]

    def stream_of(self, table_name: str) -> Stream | None:
        """The table's enabled stream, or None."""
        table = self.engine.tables.get(table_name)
        return None if table is None else table.stream

    # ------------------------------------------------------------ the file
    def restore(self, arn: str, state: dict) -> Stream:
        """A stream read back from the database file (``Stream.state``)."""
        stream = self.by_arn[arn] = Stream.restore(self, arn, state)
        self._streams = max(self._streams, stream.number)
        for shard in stream.shards:
            self._shards = max(self._shards, shard.number)
            self.sequence = max(self.sequence, shard.start - 1, shard.end or 0, shard.trimmed)
        return stream

    def restore_change(self, shard: Shard, change: Change) -> None:
        """A record read back from the database file, in sequence order."""
        shard.add(change)
        self.sequence = max(self.sequence, change.sequence)
